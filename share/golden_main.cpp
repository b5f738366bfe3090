// Driver for C++ golden functions: same job format as golden_runner.py.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>

#include "core/dtype.h"
#include "ascendopt_golden.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: golden JOB.json\n";
        return 2;
    }
    try {
        const auto job = nlohmann::json::parse(std::ifstream(argv[1]));
        ascendopt_ref::Case c;
        c.attrs = job.value("attrs", nlohmann::json::object());
        for (const auto& t : job["inputs"]) {
            ascendopt_ref::Tensor in{t["name"], t["dtype"], t["shape"].get<std::vector<int64_t>>(), {}};
            std::ifstream f(t["file"].get<std::string>(), std::ios::binary);
            std::vector<char> raw((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
            const auto dt = ascendopt::parse_dtype(in.dtype).value();
            in.data.resize(raw.size() / ascendopt::dtype_size(dt));
            for (size_t i = 0; i < in.data.size(); ++i) in.data[i] = ascendopt::load_element(dt, raw.data(), i);
            c.inputs.push_back(std::move(in));
        }
        for (const auto& t : job["outputs"]) {
            ascendopt_ref::Tensor out{t["name"], t["dtype"], t["shape"].get<std::vector<int64_t>>(), {}};
            int64_t n = 1;
            for (auto d : out.shape) n *= d;
            out.data.assign(size_t(n), 0.0);
            c.outputs.push_back(std::move(out));
        }
        ascendopt_golden(c);
        for (size_t i = 0; i < c.outputs.size(); ++i) {
            std::ofstream f(job["outputs"][i]["file"].get<std::string>(), std::ios::binary);
            f.write(reinterpret_cast<const char*>(c.outputs[i].data.data()), std::streamsize(c.outputs[i].data.size() * sizeof(double)));
        }
    } catch (const std::exception& e) {
        std::cerr << "golden: error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
