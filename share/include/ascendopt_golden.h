// C++ reference functions for ascendopt ("golden_cpp"). Define
//
//     void ascendopt_golden(ascendopt_ref::Case& c);
//
// in your .cpp file. Inputs arrive as doubles (converted from their dtype); fill each
// output's `data` (already sized to its element count); results are rounded to the output
// dtype before comparison.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ascendopt_ref {

struct Tensor {
    std::string name;
    std::string dtype;
    std::vector<int64_t> shape;
    std::vector<double> data;
};

class Case {
public:
    std::vector<Tensor> inputs;
    std::vector<Tensor> outputs;
    nlohmann::json attrs;

    const Tensor& input(const std::string& name) const { return find(inputs, name); }
    Tensor& output(const std::string& name) { return const_cast<Tensor&>(find(outputs, name)); }
    double attr_float(const std::string& name) const { return attrs.at(name).get<double>(); }
    int64_t attr_int(const std::string& name) const { return attrs.at(name).get<int64_t>(); }
    bool attr_bool(const std::string& name) const { return attrs.at(name).get<bool>(); }

private:
    static const Tensor& find(const std::vector<Tensor>& list, const std::string& name) {
        for (const auto& t : list)
            if (t.name == name) return t;
        throw std::runtime_error("no tensor named '" + name + "'");
    }
};

}  // namespace ascendopt_ref

void ascendopt_golden(ascendopt_ref::Case& c);
