#include "eval/case_runner.h"

#include "eval/compare.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/random.h"
#include "util/subprocess.h"

#include <algorithm>

namespace ascendopt {
namespace {

nlohmann::json tensor_job(const TensorSpec& t, const fs::path& file) {
    return {{"name", t.name}, {"dtype", dtype_name(t.dtype)}, {"shape", t.shape}, {"file", file.string()}};
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

std::string mismatch_reason(const OutputComparison& o) {
    const Mismatch& m = *o.first;
    std::string idx;
    for (auto i : m.index) idx += (idx.empty() ? "" : ",") + std::to_string(i);
    char buf[256];
    std::snprintf(buf, sizeof buf, "%s: %lld of %lld elements differ; first at [%s] (flat %lld): got %.9g, expected %.9g",
                  o.name.c_str(), static_cast<long long>(o.mismatches), static_cast<long long>(o.elements), idx.c_str(),
                  static_cast<long long>(m.flat_index), m.actual, m.expected);
    return buf;
}

// The case's verdict from how the operator process ended.
void judge_process(const ProcessResult& p, const fs::path& result_file, CaseResult& out) {
    if (p.timed_out) {
        out.status = EvalStatus::timeout;
        out.reason = "no result within " + std::to_string(int(p.wall_seconds)) + " s; the kernel may loop forever";
        return;
    }
    auto text = read_text(result_file);
    const auto doc = text ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
    if (doc.is_object() && doc.contains("status")) {
        const auto s = parse_status(doc.value("status", ""));
        out.status = s.value_or(EvalStatus::run_failed);
        if (out.status != EvalStatus::ok) out.reason = doc.value("api", "") + ": " + doc.value("message", "");
        out.twin = doc;
        return;
    }
    out.status = EvalStatus::run_failed;
    out.reason = "the operator process ended (" + p.describe_end() + ") without a result";
}

}  // namespace

fs::path trace_path(const fs::path& dir, const std::string& case_name) {
    std::string safe = case_name;
    for (auto& ch : safe)
        if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-' && ch != '_') ch = '_';
    return dir / (safe + ".trace.json");
}

std::vector<double> measure(double model_us, const EvalOptions& options, const std::string& case_name) {
    std::vector<double> samples;
    const int n = std::max(1, options.repeats);
    for (int i = 0; i < n; ++i) {
        double v = model_us;
        if (options.sim_noise_pct > 0) {
            Rng rng(stable_hash64("noise/" + std::to_string(options.seed) + "/" + case_name + "/" + std::to_string(i)));
            v *= 1.0 + options.sim_noise_pct / 100.0 * std::clamp(rng.normal(), -3.0, 3.0);
        }
        samples.push_back(v);
    }
    return samples;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

namespace {

// Writes the operator binary's job for case `c` (see src/twin/rt/harness.h) and runs it.
Result<ProcessResult> run_job(const Case& c, const std::vector<fs::path>& input_files, const KernelBuild& kernel,
                              const std::string& op_type, const EvalOptions& options, const fs::path& work_dir, bool preflight) {
    nlohmann::json job = {{"op", op_type}, {"kernel", kernel.kernel_name}, {"kernel_args", kernel.kernel_args},
                          {"soc", options.soc_description}, {"attrs", c.attrs}, {"result", (work_dir / "result.json").string()},
                          {"inputs", nlohmann::json::array()}, {"outputs", nlohmann::json::array()}};
    for (size_t i = 0; i < c.inputs.size(); ++i)
        job["inputs"].push_back(tensor_job(c.inputs[i], preflight ? fs::path() : input_files[i]));
    for (const auto& t : c.outputs) job["outputs"].push_back(tensor_job(t, work_dir / ("out_" + t.name + ".bin")));
    if (options.trace_dir && !preflight) job["trace"] = trace_path(*options.trace_dir, c.name).string();
    job["timing"] = options.timing;
    job["preflight"] = preflight;
    if (auto s = write_atomic(work_dir / "job.json", job.dump(2)); !s) return s.error();
    return run_process({kernel.binary.string(), "--job", (work_dir / "job.json").string()},
                       {.cwd = work_dir, .env = options.env, .timeout_seconds = options.timeout_seconds,
                        .memory_limit_bytes = options.memory_limit_bytes});
}

}  // namespace

Result<CaseResult> preflight_case(const Case& c, const KernelBuild& kernel, const std::string& op_type, const EvalOptions& options,
                                  const fs::path& work_dir) {
    CaseResult out;
    out.name = c.name;
    out.role = c.role;
    auto p = run_job(c, {}, kernel, op_type, options, work_dir, true);
    if (!p) return p.error();
    out.run_seconds = p->wall_seconds;
    judge_process(*p, work_dir / "result.json", out);
    if (out.status != EvalStatus::ok) out.log_tail = p->output;
    return out;
}

Result<CaseResult> run_case(const Case& c, const CaseData& data, const KernelBuild& kernel, const std::string& op_type,
                            const EvalOptions& options, const fs::path& work_dir) {
    CaseResult out;
    out.name = c.name;
    out.role = c.role;
    auto process = run_job(c, data.input_files, kernel, op_type, options, work_dir, false);
    if (!process) return process.error();
    const ProcessResult& p = *process;
    out.run_seconds = p.wall_seconds;
    judge_process(p, work_dir / "result.json", out);
    if (out.status != EvalStatus::ok) {
        out.log_tail = p.output;
        return out;
    }
    for (size_t i = 0; i < c.outputs.size(); ++i) {
        auto bytes = read_bytes(work_dir / ("out_" + c.outputs[i].name + ".bin"));
        if (!bytes || bytes->size() != c.outputs[i].bytes()) {
            out.status = EvalStatus::run_failed;
            out.reason = "output '" + c.outputs[i].name + "' was not written";
            return out;
        }
        out.outputs.push_back(compare_output(c.outputs[i], *bytes, data.expected[i], tolerance_for(c, c.outputs[i])));
        if (out.outputs.back().mismatches > 0 && out.status == EvalStatus::ok) {
            out.status = EvalStatus::wrong_result;
            out.reason = mismatch_reason(out.outputs.back());
        }
    }
    if (out.status != EvalStatus::ok) out.log_tail = first_line(p.output).empty() ? "" : p.output;
    if (out.status == EvalStatus::ok && out.twin.contains("timing")) {
        out.latency_samples = measure(out.twin["timing"].value("latency_us", 0.0), options, c.name);
        out.latency_us = median(out.latency_samples);
    }
    return out;
}

}  // namespace ascendopt
