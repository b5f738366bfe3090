#include "eval/golden.h"

#include <cstdlib>

#include "util/files.h"
#include "util/hash.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace {

// The golden runner's own one-line account ("golden: error: ..."), or how the process ended.
std::string first_golden_error(const ProcessResult& r) {
    const std::string tag = "golden: error: ";
    const auto at = r.output.find(tag);
    if (r.timed_out) return "did not finish within " + std::to_string(int(r.wall_seconds + 0.5)) + " s (raise it with --golden-timeout)";
    if (at == std::string::npos) return r.describe_end();
    const auto end = r.output.find('\n', at);
    return r.output.substr(at + tag.size(), end == std::string::npos ? std::string::npos : end - at - tag.size());
}

// A golden that could not run for a case: what happened in one line, and what to do about it.
Error golden_failure(const Case& c, const ProcessResult& r) {
    constexpr int k_missing_module = 4;  // golden_runner.py: the module imports what Python lacks
    Error e = make_error("golden " + fs::path(c.golden.file).filename().string() + ": " + first_golden_error(r), "", r.output);
    if (r.exit_code == k_missing_module)
        e.hint = "give a numpy golden instead: an ascendopt.toml beside the operator or anywhere else, naming it with "
                 "golden = \"golden.py:function\" (docs/operators.md)";
    return e;
}

nlohmann::json tensor_json(const TensorSpec& t, const fs::path& file) {
    nlohmann::json j = {{"name", t.name}, {"dtype", dtype_name(t.dtype)}, {"shape", t.shape}, {"file", file.string()}};
    if (t.list_index >= 0) j["index"] = t.list_index;
    if (t.inplace) j["inplace"] = true;
    if (t.shape_from_kernel) j["shape_from_kernel"] = true;
    if (t.format != "ND") j["format"] = t.format;
    return j;
}

}  // namespace

Result<std::string> find_python_with_numpy() {
    std::vector<std::string> candidates;
    const char* configured = std::getenv("ASCENDOPT_PYTHON");
    if (configured && *configured) candidates = {configured};
    else candidates = {"python3", "/usr/bin/python3", "python"};
    std::string tried;
    for (const auto& c : candidates) {
        const auto path = find_program(c);
        if (!path) {
            tried += "\n  " + c + ": not found";
            continue;
        }
        const ProcessResult r = run_process({path->string(), "-c", "import numpy"}, {.timeout_seconds = 120});
        if (r.succeeded()) return path->string();
        std::string why = r.output.substr(0, r.output.find_last_not_of("\n") + 1);
        why = why.substr(why.rfind('\n') == std::string::npos ? 0 : why.rfind('\n') + 1);
        tried += "\n  " + c + " (" + path->string() + "): " + (why.empty() ? r.describe_end() : why);
    }
    Error e = make_error(std::string(configured && *configured ? "ASCENDOPT_PYTHON does not name a Python with numpy"
                                                               : "no Python 3 with numpy found") + "; tried:" + tried,
                         "install numpy for Debian's python (apt-get install python3-numpy) or set ASCENDOPT_PYTHON to an interpreter that has it");
    e.missing_tool = true;
    return e;
}

GoldenRunner::GoldenRunner(Toolchain tc, fs::path cache_dir, double timeout_seconds)
    : m_tc(std::move(tc)), m_cache(std::move(cache_dir)), m_timeout(timeout_seconds) {
    for (const char* area : {"golden", "golden-bin"}) sweep_abandoned_temp_dirs(m_cache / area, "tmp-");
}

Result<std::string> GoldenRunner::python() {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (!m_python) {
        auto p = find_python_with_numpy();
        if (!p) return p.error();
        m_python = *p;
    }
    return *m_python;
}

Result<fs::path> GoldenRunner::cpp_binary(const std::string& source) {
    auto text = read_text(source);
    if (!text) return text.error();
    const std::string key = Sha256().update(m_tc.fingerprint).update("golden-cpp-v1\n").update(*text).hex();
    const fs::path dir = m_cache / "golden-bin" / key;
    std::error_code ec;
    if (fs::is_regular_file(dir / "golden", ec)) return dir / "golden";
    auto tmp = make_temp_dir(m_cache / "golden-bin", "tmp");
    if (!tmp) return tmp.error();
    std::vector<std::string> args = {m_tc.cxx, "-std=gnu++17", "-O2", "-I" + (m_tc.share_dir / "include").string(),
                                     "-I" + m_tc.src_dir.string(), "-I" + m_tc.twin_include.string(), source,
                                     (m_tc.share_dir / "golden_main.cpp").string(), "-o", (*tmp / "golden").string()};
    // The golden needs core/ (dtypes) only, not the twin.
    for (const auto& lib : m_tc.link_libs)
        if (lib.filename().string().find("core") != std::string::npos) args.push_back(lib.string());
    const ProcessResult r = run_process(args, {.timeout_seconds = 300, .keep_bytes = 32 * 1024});
    if (!r.succeeded()) {
        fs::remove_all(*tmp, ec);
        return make_error("compiling the C++ golden " + source + " failed", "", r.output);
    }
    fs::rename(*tmp, dir, ec);
    if (ec) fs::remove_all(*tmp, ec);
    return dir / "golden";
}

Result<std::vector<std::vector<double>>> GoldenRunner::compute(const Case& c, const std::vector<std::vector<char>>& inputs,
                                                              const std::vector<fs::path>& input_files, const fs::path& work_dir) {
    auto golden_src = read_text(c.golden.file);
    if (!golden_src) return golden_src.error();
    Sha256 key;
    key.update("golden-v2\n").update(*golden_src).update(c.golden.function).update(c.attrs.dump());
    for (size_t i = 0; i < c.inputs.size(); ++i) key.update(tensor_json(c.inputs[i], "").dump()).update(inputs[i].data(), inputs[i].size());
    for (const auto& t : c.outputs) key.update(tensor_json(t, "").dump());
    const fs::path dir = m_cache / "golden" / key.hex();

    std::error_code ec;
    if (!fs::is_regular_file(dir / "done", ec)) {
        auto tmp = make_temp_dir(m_cache / "golden", "tmp");
        if (!tmp) return tmp.error();
        nlohmann::json job = {{"module", c.golden.file}, {"function", c.golden.function}, {"attrs", c.attrs},
                              {"inputs", nlohmann::json::array()}, {"outputs", nlohmann::json::array()}};
        for (size_t i = 0; i < c.inputs.size(); ++i) job["inputs"].push_back(tensor_json(c.inputs[i], input_files[i]));
        for (const auto& t : c.outputs) job["outputs"].push_back(tensor_json(t, *tmp / (t.file_stem() + ".f64")));
        const fs::path job_file = work_dir / "golden_job.json";
        if (auto s = write_atomic(job_file, job.dump(2)); !s) return s.error();
        std::vector<std::string> argv;
        if (c.golden.kind == GoldenSpec::Kind::python) {
            auto py = python();
            if (!py) return py.error();
            argv = {*py, (m_tc.share_dir / "golden_runner.py").string(), job_file.string()};
        } else {
            auto bin = cpp_binary(c.golden.file);
            if (!bin) return bin.error();
            argv = {bin->string(), job_file.string()};
        }
        const ProcessResult r = run_process(argv, {.timeout_seconds = m_timeout});
        if (!r.succeeded()) {
            fs::remove_all(*tmp, ec);
            return golden_failure(c, r);
        }
        if (auto s = write_atomic(*tmp / "done", ""); !s) return s.error();
        fs::rename(*tmp, dir, ec);
        if (ec) fs::remove_all(*tmp, ec);
    }
    std::vector<std::vector<double>> out;
    for (const auto& t : c.outputs) {
        auto bytes = read_bytes(dir / (t.file_stem() + ".f64"));
        if (!bytes) return bytes.error();
        const size_t expected = size_t(t.scalars()) * sizeof(double);
        const bool fits = t.shape_from_kernel ? bytes->size() <= expected && bytes->size() % (dtype_lanes(t.dtype) * sizeof(double)) == 0
                                              : bytes->size() == expected;
        if (!fits) return make_error("the golden of case '" + c.name + "' wrote a wrong-sized output '" + t.label() + "'");
        std::vector<double> v(bytes->size() / sizeof(double));
        std::memcpy(v.data(), bytes->data(), bytes->size());
        out.push_back(std::move(v));
    }
    return out;
}

}  // namespace ascendopt
