#include "eval/golden.h"

#include <unistd.h>

#include <cstdlib>

#include "eval/golden_store.h"
#include "util/cache_trim.h"
#include "util/files.h"
#include "util/hash.h"

namespace ascendopt {
namespace {

// The whole environment of a golden (and of the numpy probe that stands for one): ascendopt's
// PATH, so the tools a golden calls are found as the user finds them; HOME and TMPDIR in the
// golden's scratch folder, which goes when the golden ends; the C locale. Nothing else:
// ascendopt's environment holds the LLM's API key and whatever else the user exported, and a
// golden is a program from a manifest that may come from the wild.
std::map<std::string, std::string> golden_environment(const fs::path& home) {
    const char* path = std::getenv("PATH");
    return {{"PATH", path && *path ? path : "/usr/bin:/bin"}, {"HOME", home.string()}, {"TMPDIR", home.string()}, {"LC_ALL", "C"}};
}

// Whether `file` (canonical) lies inside `folder`, whose symlinks are resolved here.
bool lies_inside(const fs::path& file, const fs::path& folder) {
    std::error_code ec;
    const fs::path real = fs::weakly_canonical(folder, ec);
    if (ec || folder.empty()) return false;
    const fs::path rel = file.lexically_relative(real);
    return !rel.empty() && *rel.begin() != ".." && *rel.begin() != ".";
}

// The interpreter `path` really runs, or `path` when it does not say: a pyenv shim or a wrapper
// script finds its interpreter through the user's environment, which a golden does not get.
std::string real_interpreter(const fs::path& path) {
    const ProcessResult r = run_process({path.string(), "-c", "import sys; print(sys.executable)"},
                                        {.timeout_seconds = 120, .separate_stderr = true});
    const std::string exe = r.output.substr(0, r.output.find('\n'));
    return r.succeeded() && !exe.empty() && exe.front() == '/' && ::access(exe.c_str(), X_OK) == 0 ? exe : path.string();
}

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

Status check_golden_location(const GoldenSpec& g, const std::string& written, const fs::path& named_in, const fs::path& operator_folder) {
    std::error_code ec;
    const fs::path file = fs::canonical(g.file, ec);
    const fs::path own = named_in.parent_path().empty() ? fs::path(".") : named_in.parent_path();
    if (!ec && (lies_inside(file, operator_folder) || lies_inside(file, own))) return ok_status();
    const fs::path own_real = fs::weakly_canonical(own, ec);
    const bool same = !operator_folder.empty() && fs::weakly_canonical(operator_folder, ec) == own_real;
    const std::string folders = (operator_folder.empty() ? "" : "the operator folder " + operator_folder.string()) +
                                (same ? "" : (operator_folder.empty() ? "" : " and ") + std::string("the folder of ") +
                                                 named_in.filename().string() + " (" + own_real.string() + ")");
    return make_error("golden \"" + written + "\" leads to " + (file.empty() ? g.file : file.string()) + ", outside " + folders +
                          ": goldens run as programs on this machine, so only those kept with the operator are run",
                      "copy the golden into the operator folder or beside " + named_in.filename().string() + " and name it by a path relative to " +
                          named_in.filename().string());
}

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
        const std::string python = real_interpreter(*path);
        const ProcessResult r = run_process({python, "-c", "import numpy"},
                                            {.env = golden_environment("/nonexistent"), .inherit_env = false, .timeout_seconds = 120});
        if (r.succeeded()) return python;
        std::string why = r.output.substr(0, r.output.find_last_not_of("\n") + 1);
        why = why.substr(why.rfind('\n') == std::string::npos ? 0 : why.rfind('\n') + 1);
        tried += "\n  " + c + " (" + python + "): " + (why.empty() ? r.describe_end() : why);
    }
    Error e = make_error(std::string(configured && *configured ? "ASCENDOPT_PYTHON does not name a Python with numpy"
                                                               : "no Python 3 with numpy found") + "; tried:" + tried,
                         "install numpy for Debian's python (apt-get install python3-numpy) or set ASCENDOPT_PYTHON to an interpreter that has it; "
                         "goldens run with an environment of their own (no PYTHONPATH, HOME a scratch folder), so numpy must import "
                         "without them (not from pip install --user)");
    e.missing_tool = true;
    return e;
}

GoldenRunner::GoldenRunner(Toolchain tc, fs::path cache_dir, double timeout_seconds, uint64_t memory_limit_bytes,
                           uint64_t cache_limit_bytes)
    : m_tc(std::move(tc)), m_cache(std::move(cache_dir)), m_timeout(timeout_seconds), m_memory(memory_limit_bytes) {
    for (const char* area : {"golden", "golden-bin"}) sweep_abandoned_temp_dirs(m_cache / area, "tmp-");
    // One entry per case, seed and golden version: a long search's new seeds add up.
    trim_cache(m_cache / "golden", {.max_bytes = cache_limit_bytes});
}

Result<ProcessResult> GoldenRunner::run_golden(const std::vector<std::string>& argv, const fs::path& work_dir) const {
    auto home = make_temp_dir(work_dir, "golden-home");
    if (!home) return home.error();
    const ScratchDir scratch(*home);
    // The task cap puts the golden's whole tree in a pids cgroup (util/task_cap.h), and when the
    // golden ends, also when it ends well, every task still in that group is killed. A process
    // group kill cannot do that: a descendant that called setsid() (a daemon's double fork) has
    // left the golden's group and session, but a process leaves its cgroup only by moving itself,
    // which takes write access to the cgroup hierarchy. Where no pids cgroup can be made, only
    // the process group is killed (docs/sandbox.md).
    return run_process(argv, {.cwd = *home, .env = golden_environment(*home), .inherit_env = false, .timeout_seconds = m_timeout,
                              .memory_limit_bytes = m_memory, .max_tasks = k_golden_tasks});
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

Result<GoldenRunner::Outputs> GoldenRunner::compute(const Case& c, const std::vector<std::vector<char>>& inputs,
                                                              const std::vector<fs::path>& input_files, const fs::path& work_dir) {
    auto golden_src = read_text(c.golden.file);
    if (!golden_src) return golden_src.error();
    Sha256 key;
    key.update("golden-v2\n").update(*golden_src).update(c.golden.function).update(c.attrs.dump());
    for (size_t i = 0; i < c.inputs.size(); ++i) key.update(tensor_json(c.inputs[i], "").dump()).update(inputs[i].data(), inputs[i].size());
    for (const auto& t : c.outputs) key.update(tensor_json(t, "").dump());
    const fs::path dir = m_cache / "golden" / key.hex();

    std::error_code ec;
    if (fs::is_regular_file(dir / "done", ec)) touch_cache_entry(dir);  // least recently used entries are trimmed first
    else {
        auto tmp = make_temp_dir(m_cache / "golden", "tmp");
        if (!tmp) return tmp.error();
        ScratchDir outputs(*tmp);  // removed on every way out but its publication as `dir`
        nlohmann::json job = {{"module", c.golden.file}, {"function", c.golden.function}, {"attrs", c.attrs},
                              {"inputs", nlohmann::json::array()}, {"outputs", nlohmann::json::array()}};
        for (size_t i = 0; i < c.inputs.size(); ++i) job["inputs"].push_back(tensor_json(c.inputs[i], fs::absolute(input_files[i])));
        for (const auto& t : c.outputs) job["outputs"].push_back(tensor_json(t, fs::absolute(*tmp / (t.file_stem() + ".f64"))));
        const fs::path job_file = fs::absolute(work_dir / "golden_job.json");  // the golden runs in a folder of its own
        if (auto s = write_atomic(job_file, job.dump(2)); !s) return s.error();
        std::vector<std::string> argv;
        if (c.golden.kind == GoldenSpec::Kind::python) {
            auto py = python();
            if (!py) return py.error();
            argv = {*py, fs::absolute(m_tc.share_dir / "golden_runner.py").string(), job_file.string()};
        } else {
            auto bin = cpp_binary(c.golden.file);
            if (!bin) return bin.error();
            argv = {fs::absolute(*bin).string(), job_file.string()};
        }
        auto ran = run_golden(argv, work_dir);
        if (!ran) return ran.error();
        if (!ran->succeeded()) return golden_failure(c, *ran);
        for (const auto& t : c.outputs)
            if (fs::exists(*tmp / (t.file_stem() + ".f64"), ec))
                if (auto s = compact_golden_output(*tmp, t.file_stem()); !s) return s.error();
        if (auto s = write_atomic(*tmp / "done", ""); !s) return s.error();
        fs::rename(*tmp, dir, ec);
        if (!ec) outputs.release();
    }
    Outputs out;
    for (const auto& t : c.outputs) {
        const bool unwritten = fs::exists(dir / (t.file_stem() + ".f64.unwritten"), ec);
        out.left_unwritten.push_back(unwritten ? 1 : 0);
        if (unwritten) {
            out.expected.emplace_back();
            continue;
        }
        auto values = read_golden_output(dir, t.file_stem());
        if (!values) return values.error();
        const size_t expected = size_t(t.scalars());
        const bool fits = t.shape_from_kernel ? values->size() <= expected && values->size() % dtype_lanes(t.dtype) == 0
                                              : values->size() == expected;
        if (!fits) return make_error("the golden of case '" + c.name + "' wrote a wrong-sized output '" + t.label() + "'");
        out.expected.push_back(std::move(*values));
    }
    return out;
}

}  // namespace ascendopt
