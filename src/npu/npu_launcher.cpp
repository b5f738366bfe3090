#include "npu/npu_launcher.h"

#include <utility>
#include <array>
#include <map>
#include <condition_variable>
#include <memory>
#include <mutex>

#include "eval/case_runner.h"
#include "npu/aclnn_signature.h"
#include "npu/cann_package.h"
#include "npu/cann_toolchain.h"
#include "npu/launch_cases.h"
#include "npu/msprof_csv.h"
#include "util/files.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The devices of a session, each lent to one launch at a time.
class DevicePool {
public:
    explicit DevicePool(std::vector<int> devices) : m_free(std::move(devices)) {}

    class Lease {
    public:
        Lease(DevicePool& pool, int device) : m_pool(&pool), m_device(device) {}
        Lease(Lease&& o) noexcept : m_pool(std::exchange(o.m_pool, nullptr)), m_device(o.m_device) {}
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        Lease& operator=(Lease&&) = delete;
        ~Lease() {
            if (m_pool) m_pool->give_back(m_device);
        }
        int device() const { return m_device; }

    private:
        DevicePool* m_pool;
        int m_device;
    };

    Lease take() {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_available.wait(lock, [this] { return !m_free.empty(); });
        const int device = m_free.front();
        m_free.erase(m_free.begin());
        return Lease(*this, device);
    }

private:
    void give_back(int device) {
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            m_free.push_back(device);
        }
        m_available.notify_one();
    }
    std::mutex m_mutex;
    std::condition_variable m_available;
    std::vector<int> m_free;
};

// The second checked run of every case, which tells written elements from unwritten ones on a
// device (where nothing watches the writes, as the twin does): each output starts as the
// complement of the first run's poison, and its bytes go to files of their own under `dir`.
// A byte the kernel wrote cannot equal both poisons; one it left holds each run's poison.
struct PoisonCheck {
    InvokerJob job;
    // per case: each output's label, first-run file, second-run file and first poison
    struct Output {
        std::string label;
        fs::path first, second;
        std::array<uint8_t, 8> poison{};
    };
    std::map<std::string, std::vector<Output>> outputs;
};

PoisonCheck poison_check(const InvokerJob& first, const DeviceLaunch& launch, const fs::path& dir) {
    PoisonCheck out{first, {}};
    out.job.warmup = 0;
    out.job.repeats = 1;
    std::map<fs::path, std::string> labels;  // first-run output file -> its tensor's label
    for (const auto& c : launch.job["cases"])
        for (const auto& t : c["outputs"]) labels[t.value("file", "")] = tensor_label(t);
    for (size_t k = 0; k < out.job.cases.size(); ++k) {
        auto& c = out.job.cases[k];
        for (size_t i = 0; i < c.params.size(); ++i) {
            auto& p = c.params[i];
            if (p.kind != InvokerParam::Kind::output && p.kind != InvokerParam::Kind::ref) continue;
            const fs::path second = dir / ("case" + std::to_string(k) + "_param" + std::to_string(i) + ".bin");
            if (p.kind == InvokerParam::Kind::output) {
                out.outputs[c.name].push_back({labels[p.tensor.out_file], p.tensor.out_file, second, p.tensor.poison});
                for (auto& b : p.tensor.poison) b = uint8_t(~b);
            }
            p.tensor.out_file = second;  // an updated input's bytes too: the first run's files stay as they are
        }
    }
    return out;
}

// The twin's "unwritten" report (bytes, first_byte) for each output with bytes that hold the
// first run's poison and the second's at the same offset.
json unwritten_report(const std::vector<PoisonCheck::Output>& outputs) {
    json report = json::object();
    for (const auto& o : outputs) {
        auto a = read_text(o.first), b = read_text(o.second);
        if (!a || !b || a->size() != b->size()) continue;  // the judge reports an output that was not written
        uint64_t bytes = 0, first = 0;
        for (size_t i = 0; i < a->size(); ++i) {
            const uint8_t p = o.poison[i % 8];
            if (uint8_t((*a)[i]) == p && uint8_t((*b)[i]) == uint8_t(~p)) {
                if (bytes++ == 0) first = i;
            }
        }
        if (bytes) report[o.label] = {{"bytes", bytes}, {"first_byte", first}};
    }
    return report;
}

// One case run once more under `msprof op`, its outputs kept apart (they were judged already):
// the per-core, per-pipe busy times in the twin's timing structure.
Result<json> profile_case(const CannToolchain& toolchain, const CannPackage& package, InvokerCase one, const fs::path& dir, int device,
                          double timeout) {
    fs::create_directories(dir / "outputs");
    for (size_t i = 0; i < one.params.size(); ++i)
        if (!one.params[i].tensor.out_file.empty()) one.params[i].tensor.out_file = dir / "outputs" / (std::to_string(i) + ".bin");
    auto text = invoker_job_text(InvokerJob{0, 0, 1, {std::move(one)}});
    if (!text) return text.error();
    if (auto s = write_atomic(dir / "job.txt", *text); !s) return s.error();
    const CannCommand run = toolchain.run_invoker(package.invoker, {(dir / "job.txt").string(), (dir / "results.txt").string()}, package.layout, device);
    auto profiled = toolchain.profile(run, dir / "msprof");
    if (!profiled) return profiled.error();
    const ProcessResult r = run_process(profiled->argv, {.cwd = profiled->cwd, .env = profiled->env, .timeout_seconds = timeout});
    const auto csv = find_named_file(dir / "msprof", "PipeUtilization.csv");
    if (!r.succeeded() || !csv)
        return make_error("npu backend: " + profiled->purpose + " " + (r.succeeded() ? "wrote no PipeUtilization.csv" : "failed (" + r.describe_end() + ")") +
                              " under " + (dir / "msprof").string() + ":\n" + r.output.substr(0, 4000));
    auto bytes = read_text(*csv);
    if (!bytes) return bytes.error();
    return blocks_from_pipe_utilization(*bytes);
}

// A case the invoker ran: its outputs are in their files; the result document carries the timed
// repeats as the case's latency samples (the judge reads "samples_us" from the npu backend only).
void write_device_result(const fs::path& result, const InvokerCaseResult& r, int device, const json& unwritten, const json& blocks) {
    std::vector<double> us;
    for (double ms : r.ms) us.push_back(ms * 1000.0);
    json doc = {{"status", "ok"}, {"device", {{"npu", device}, {"workspace_bytes", r.workspace_bytes}}}};
    if (!us.empty()) doc["timing"] = {{"latency_us", median(us)}, {"samples_us", us}};
    if (!unwritten.empty()) doc["unwritten"] = unwritten;
    if (!blocks.is_null() && doc.contains("timing")) doc["timing"]["blocks"] = blocks;
    (void)write_atomic(result, doc.dump());
}

Result<ProcessResult> launch_on_npu(const NpuTarget& target, DevicePool& devices, const EnvLookup& env, const DeviceLaunch& launch) {
    if (!launch.opdef || !launch.source) return make_error("internal: an npu launch without the operator's OpDef and sources");
    if (target.devices.empty()) return make_error("internal: an npu launch with no device to run on");
    auto sig = aclnn_signature(*launch.opdef);
    if (!sig) return sig.error();
    const CannToolchain toolchain(target.cann, env);
    PackageRequest request{launch.source.get(), launch.opdef.get(), &*sig, target.soc_version, {target.share_include}, target.package_cache,
                           target.note};
    auto package = cann_package(toolchain, request);
    if (!package) return package.error();

    auto dir = make_temp_dir(launch.job_dir, "npu-launch");
    if (!dir) return dir.error();
    auto job = invoker_job_of(launch, *sig, target.warmup, target.repeats);
    if (!job) return job.error();
    auto text = invoker_job_text(*job);
    if (!text) return text.error();
    if (auto s = write_atomic(*dir / "job.txt", *text); !s) return s.error();

    fs::create_directories(*dir / "second");
    const PoisonCheck check = poison_check(*job, launch, *dir / "second");
    auto check_text = invoker_job_text(check.job);
    if (!check_text) return check_text.error();
    if (auto s = write_atomic(*dir / "check.txt", *check_text); !s) return s.error();

    const auto lease = devices.take();
    const double case_timeout = launch.job.value("case_timeout_s", 60.0);
    auto invoke = [&](const char* job_file, const char* results_file, double runs_per_case) {
        const CannCommand run =
            toolchain.run_invoker(package->invoker, {(*dir / job_file).string(), (*dir / results_file).string()}, package->layout, lease.device());
        const double timeout = (case_timeout * runs_per_case + 30) * double(job->cases.size());
        return run_process(run.argv, {.cwd = run.cwd, .env = run.env, .timeout_seconds = timeout});
    };
    ProcessResult invoked = invoke("job.txt", "results.txt", 1.0 + target.warmup + target.repeats);
    (void)invoke("check.txt", "check-results.txt", 2.0);  // a case it cannot run has no second file: nothing is called unwritten

    auto results_text = read_text(*dir / "results.txt");
    auto results = parse_invoker_results(results_text ? *results_text : "");
    if (!results) return results.error();
    const auto paths = result_paths(launch);
    const std::string npu = "NPU " + std::to_string(lease.device());
    for (size_t k = 0; k < results->size(); ++k) {
        const auto& r = (*results)[k];
        const auto path = paths.find(r.name);
        if (path == paths.end()) continue;  // not a case of this launch
        const auto outputs = check.outputs.find(r.name);
        const json unwritten = outputs == check.outputs.end() ? json::object() : unwritten_report(outputs->second);
        json blocks;
        if (r.ok && target.profile && k < job->cases.size() && job->cases[k].name == r.name) {
            auto profiled = profile_case(toolchain, *package, job->cases[k], *dir / ("profile-" + std::to_string(k)), lease.device(), case_timeout + 120);
            if (!profiled) return profiled.error();
            blocks = std::move(*profiled);
        }
        if (r.ok) write_device_result(path->second, r, lease.device(), unwritten, blocks);
        else write_invoker_failure(path->second, "acl " + r.stage, npu + ": " + r.message + " (code " + std::to_string(r.code) + ")");
    }
    // Cases the invoker never reported (it crashed or hung) are judged by its process result.
    return invoked;
}

}  // namespace

DeviceLauncher make_npu_launcher(NpuTarget target, EnvLookup env) {
    auto pool = std::make_shared<DevicePool>(target.devices);
    return [target = std::move(target), pool, env = std::move(env)](const DeviceLaunch& launch) {
        return launch_on_npu(target, *pool, env, launch);
    };
}

}  // namespace ascendopt
