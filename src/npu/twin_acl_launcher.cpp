#include "npu/twin_acl_launcher.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "eval/build_config.h"
#include "npu/aclnn_signature.h"
#include "npu/cann_toolchain.h"
#include "npu/invoker_job.h"
#include "npu/launch_cases.h"
#include "npu/invoker_source.h"
#include "npu/twin_aclnn_source.h"
#include "util/files.h"
#include "util/hash.h"

namespace ascendopt {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string file_label(std::string label) {
    for (char& c : label)
        if (c == '[' || c == ']') c = '_';
    return label;
}

Status run_checked(const std::vector<std::string>& argv, const std::string& what) {
    auto r = run_process(argv, {.timeout_seconds = 300});
    if (r.exit_code != 0) return make_error("twin-acl: " + what + " failed:\n" + r.output.substr(0, 4000));
    return ok_status();
}

// The package (generated aclnn entries on the twin) and the invoker of one operator signature,
// built once per process: both depend on the signature alone.
struct Built {
    PackageLayout layout;
    fs::path invoker;
};

Result<Built> build_package_and_invoker(const TwinToolkit& kit, const AclnnSignature& sig, const CannToolchain& toolchain,
                                        const fs::path& parent) {
    static std::mutex mutex;
    static std::map<std::string, Built> built;
    auto invoker_main = invoker_source(sig);
    if (!invoker_main) return invoker_main.error();
    const std::string header = aclnn_header(sig), entries = twin_aclnn_source(sig);
    const std::string key = sha256_hex(header + entries + *invoker_main + kit.root.string());
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = built.find(key); it != built.end() && fs::exists(it->second.invoker)) return it->second;
    auto dir = make_temp_dir(parent, "acl-package");
    if (!dir) return dir.error();
    Built b{PackageLayout{*dir, "ascendopt"}, *dir / "invoker"};
    fs::create_directories(b.layout.op_api_include());
    fs::create_directories(b.layout.op_api_lib());
    if (auto s = write_atomic(b.layout.op_api_include() / sig.header, header); !s) return s.error();
    if (auto s = write_atomic(*dir / "aclnn_entries.cpp", entries); !s) return s.error();
    if (auto s = write_atomic(*dir / "invoker.cpp", *invoker_main); !s) return s.error();
    const fs::path lib64 = kit.root / "lib64";
    // "Build the operator package" on the twin: the generated entries over the twin's aclnn.
    if (auto s = run_checked({"g++", "-std=c++17", "-O1", "-shared", "-fPIC", (*dir / "aclnn_entries.cpp").string(), "-I" + kit.include.string(),
                              "-I" + b.layout.op_api_include().string(), kit.aclnn_library.string(), "-L" + lib64.string(),
                              "-Wl,-rpath," + lib64.string(), "-lnnopbase", "-lascendcl", "-o", (b.layout.op_api_lib() / "libcust_opapi.so").string()},
                             "building the operator package");
        !s)
        return s.error();
    const CannCommand compile = toolchain.compile_invoker(*dir / "invoker.cpp", b.invoker, b.layout, {kit.include, kit.share_include});
    auto r = run_process(compile.argv, {.cwd = compile.cwd, .env = compile.env, .timeout_seconds = 300});
    if (r.exit_code != 0) return make_error("twin-acl: compiling the invoker failed:\n" + r.output.substr(0, 4000));
    built[key] = b;
    return b;
}

// What the twin aclnn checks a call against: the workspace, attributes and tensors by label.
json package_case(const json& c) {
    json tensors = json::object();
    const CaseTensors t = tensors_of(c);
    for (const auto& [label, in] : t.inputs)
        tensors[label] = {{"acl_dtype", acl_data_type(*parse_dtype(in->value("dtype", "")))}, {"shape", (*in)["shape"]}, {"input", true},
                          {"output", t.outputs.count(label) > 0}};
    for (const auto& [label, out] : t.outputs)
        if (!t.inputs.count(label))
            tensors[label] = {{"acl_dtype", acl_data_type(*parse_dtype(out->value("dtype", "")))}, {"shape", (*out)["shape"]}, {"input", false},
                              {"output", true}};
    return {{"workspace_bytes", c["plan"].value("workspace_bytes", uint64_t(0))}, {"attrs", c.value("attrs", json::object())}, {"tensors", tensors}};
}

// The device: serves the twin aclnn's launch requests until "quit", running each launch's case
// in the operator binary with its tensors in the launch's folder. The checked run's (run 0)
// result document goes where the twin backend's would.
class DeviceServer {
public:
    DeviceServer(const DeviceLaunch& launch, const fs::path& request, const fs::path& reply, fs::path scratch)
        : m_launch(launch), m_scratch(std::move(scratch)) {
        // Read-write opens never wait for the other end, and keep each FIFO open for both sides.
        m_request = ::open(request.c_str(), O_RDWR | O_CLOEXEC);
        m_reply = ::open(reply.c_str(), O_RDWR | O_CLOEXEC);
        m_thread = std::thread([this] { serve(); });
    }
    ~DeviceServer() { stop(); }
    void stop() {
        if (!m_thread.joinable()) return;
        const std::string quit = "quit\n";
        (void)!::write(m_request, quit.data(), quit.size());
        m_thread.join();
        ::close(m_request);
        ::close(m_reply);
    }
    // The operator processes that ended a case's checked run without a result, by case.
    std::map<std::string, ProcessResult> ended_without_result;
    std::string error;  // a failure of the server itself

private:
    bool read_line(std::string& line) {
        line.clear();
        char c = 0;
        while (::read(m_request, &c, 1) == 1) {
            if (c == '\n') return true;
            line += c;
        }
        return false;
    }

    void serve() {
        std::string line;
        while (read_line(line) && line != "quit") {
            std::istringstream in(line);
            std::string word, name, dir;
            int run = -1;
            // A request that is not a launch is answered without one: the launch then finds no
            // result and fails its case, instead of waiting for a reply forever.
            if ((in >> word >> name >> run >> dir) && word == "launch") launch_case(name, run, dir);
            const std::string done = "done\n";
            (void)!::write(m_reply, done.data(), done.size());
        }
    }

    void launch_case(const std::string& name, int run, const fs::path& dir) {
        const json* found = nullptr;
        for (const auto& c : m_launch.job["cases"])
            if (c.value("name", "") == name) found = &c;
        // Only folders of this launch: the request comes from candidate-adjacent code.
        if (!found || dir.parent_path() != m_scratch) return;
        json one = m_launch.job;
        json c = *found;
        for (auto& t : c["inputs"]) t["file"] = (dir / ("in_" + file_label(tensor_label(t)) + ".bin")).string();
        for (auto& t : c["outputs"]) t["file"] = (dir / ("out_" + file_label(tensor_label(t)) + ".bin")).string();
        const fs::path case_result = c.value("result", "");
        c["result"] = (dir / "result.json").string();
        one["cases"] = json::array({c});
        auto p = m_launch.run_operator(one, dir / "job.json");
        if (run != 0) return;
        std::error_code ec;
        if (fs::exists(dir / "result.json", ec)) fs::copy_file(dir / "result.json", case_result, fs::copy_options::overwrite_existing, ec);
        else if (p) ended_without_result[name] = *p;
        if (!p) error = p.error().message;
    }

    const DeviceLaunch& m_launch;
    fs::path m_scratch;
    int m_request = -1, m_reply = -1;
    std::thread m_thread;
};

// Holds a passing case's result to the device events: the invoker's event time must be the
// latency the twin charged, or the ACL timing path is broken.
void check_event_time(const InvokerCaseResult& r, const fs::path& result_path) {
    auto text = read_text(result_path);
    if (!text) return;
    json doc = json::parse(*text, nullptr, false);
    if (!doc.is_object() || doc.value("status", "") != "ok" || !doc.contains("timing") || r.ms.empty()) return;
    const double model_us = doc["timing"].value("latency_us", 0.0), event_us = r.ms.front() * 1000.0;
    if (std::fabs(model_us - event_us) <= 1e-3 + 1e-6 * model_us) return;
    doc = {{"status", "run_failed"},
           {"api", "acl events"},
           {"message", "the device events around the launch measured " + std::to_string(event_us) + " us, but the twin charged " +
                           std::to_string(model_us) + " us"}};
    (void)write_atomic(result_path, doc.dump());
}

Result<ProcessResult> launch_through_twin_acl(const TwinToolkit& kit, const DeviceLaunch& launch) {
    if (!launch.opdef) return make_error("internal: a twin-acl launch without the operator's OpDef");
    auto sig = aclnn_signature(*launch.opdef);
    if (!sig) return sig.error();
    CannInstall twin;
    twin.root = kit.root;
    const CannToolchain toolchain(twin, process_environment());
    auto built = build_package_and_invoker(kit, *sig, toolchain, launch.job_dir);
    if (!built) return built.error();

    auto dir = make_temp_dir(launch.job_dir, "acl-launch");
    if (!dir) return dir.error();
    const fs::path request = *dir / "request", reply = *dir / "reply", scratch = *dir / "launches";
    fs::create_directories(scratch);
    if (::mkfifo(request.c_str(), 0600) != 0 || ::mkfifo(reply.c_str(), 0600) != 0)
        return make_error("twin-acl: cannot make the device channel in " + dir->string());
    json package = {{"op", sig->op_type}, {"request", request.string()}, {"reply", reply.string()}, {"scratch", scratch.string()}, {"cases", json::object()}};
    for (const auto& c : launch.job["cases"]) package["cases"][c.value("name", "")] = package_case(c);
    // The twin's timing is deterministic: one timed run after the checked one.
    auto job = invoker_job_of(launch, *sig, 0, 1);
    if (!job) return job.error();
    const auto paths = result_paths(launch);
    auto text = invoker_job_text(*job);
    if (!text) return text.error();
    if (auto s = write_atomic(*dir / "package.json", package.dump(2)); !s) return s.error();
    if (auto s = write_atomic(*dir / "job.txt", *text); !s) return s.error();

    DeviceServer device(launch, request, reply, scratch);
    CannCommand run = toolchain.run_invoker(built->invoker, {(*dir / "job.txt").string(), (*dir / "results.txt").string()}, built->layout, 0);
    run.env["ASCENDOPT_TWIN_PACKAGE"] = (*dir / "package.json").string();
    run.env["ASCENDOPT_TWIN_SOC"] = launch.job["soc"].value("name", "Ascend910B2");
    const double per_case = launch.job.value("case_timeout_s", 60.0) * 2 + 10;
    ProcessResult invoked = run_process(run.argv, {.cwd = run.cwd, .env = run.env, .timeout_seconds = per_case * double(job->cases.size())});
    device.stop();
    if (!device.error.empty()) return make_error("twin-acl: " + device.error);

    auto results_text = read_text(*dir / "results.txt");
    auto results = parse_invoker_results(results_text ? *results_text : "");
    if (!results) return results.error();
    for (const auto& r : *results) {
        const auto path = paths.find(r.name);
        if (path == paths.end()) continue;  // not a case of this launch
        std::error_code ec;
        if (r.ok) check_event_time(r, path->second);
        else if (!fs::exists(path->second, ec) && !device.ended_without_result.count(r.name))
            write_invoker_failure(path->second, "acl " + r.stage, "the invoker: " + r.message);
    }
    // A case whose kernel process ended without a result is judged by that process; the cases
    // after it are launched again (case_runner.cpp).
    for (const auto& c : launch.job["cases"])
        if (auto it = device.ended_without_result.find(c.value("name", "")); it != device.ended_without_result.end()) return it->second;
    return invoked;
}

}  // namespace

TwinToolkit this_builds_twin_toolkit() {
    return {ASCENDOPT_TWIN_CANN_DIR, ASCENDOPT_TWIN_INCLUDE_DIR, fs::path(ASCENDOPT_SHARE_DIR) / "include", ASCENDOPT_TWIN_ACLNN_LIB};
}

DeviceLauncher make_twin_acl_launcher(TwinToolkit toolkit) {
    return [toolkit](const DeviceLaunch& launch) { return launch_through_twin_acl(toolkit, launch); };
}

}  // namespace ascendopt
