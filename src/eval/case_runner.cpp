#include "eval/case_runner.h"

#include "eval/candidate_launch.h"
#include "eval/compare.h"
#include "eval/hidden_case.h"
#include "eval/race_report.h"
#include "eval/symbolize.h"
#include "eval/tiling_plan.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/json_bounded.h"
#include "util/random.h"
#include "util/sandbox.h"
#include "util/subprocess.h"

#include <algorithm>
#include <cmath>
#include <thread>

extern char** environ;

namespace ascendopt {
namespace {

nlohmann::json tensor_job(const TensorSpec& t, const fs::path& file) {
    nlohmann::json j = {{"name", t.name}, {"dtype", dtype_name(t.dtype)}, {"shape", t.shape}, {"file", file.string()}};
    if (t.list_index >= 0) j["index"] = t.list_index;
    if (t.inplace) j["inplace"] = true;
    if (t.shape_from_kernel) j["shape_from_kernel"] = true;
    if (t.format != "ND") j["format"] = t.format;
    return j;
}

std::string mismatch_reason(const OutputComparison& o) {
    const Mismatch& m = *o.first;
    std::string idx;
    for (auto i : m.index) idx += (idx.empty() ? "" : ",") + std::to_string(i);
    char buf[256];
    const std::string lane = m.lane.empty() ? "" : "." + m.lane;
    std::snprintf(buf, sizeof buf, "%s: %lld of %lld %s differ; first at [%s]%s (flat %lld): got %.9g, expected %.9g",
                  o.name.c_str(), static_cast<long long>(o.mismatches), static_cast<long long>(o.elements),
                  m.lane.empty() ? "elements" : "scalars", idx.c_str(), lane.c_str(), static_cast<long long>(m.flat_index), m.actual,
                  m.expected);
    return m.note.empty() ? std::string(buf) : std::string(buf) + "; " + m.note;
}

// What the operator binary wrote for a case: nothing (the process died while running it), a
// verdict after which it went on with the next case, or one that ended the process.
enum class Written { nothing, verdict, verdict_ending_process };

// " (at op_kernel/cast.cpp:57 in KernelCast::Compute)" for a failure the binary located by its
// stack, or "" when no frame lies in the operator's sources.
std::string failure_location(const nlohmann::json& doc, const fs::path& binary) {
    std::vector<std::string> frames;
    for (const auto& f : doc.value("frames", nlohmann::json::array()))
        if (f.is_string()) frames.push_back(f.get<std::string>());
    const auto where = operator_source_line(binary, frames);
    return where ? " (at " + where->text() + ")" : "";
}

// The result file is written by the operator process, which runs candidate code: it is read
// with bounds and checked for the shape the harness gives it before anything is taken from it.
std::string malformed_result(const nlohmann::json& doc) {
    if (!doc.is_object() || !doc.contains("status") || !doc["status"].is_string() || !parse_status(doc["status"].get<std::string>()))
        return "it has no known status";
    for (const char* key : {"api", "message"})
        if (doc.contains(key) && !doc[key].is_string()) return std::string("its ") + key + " is not a string";
    if (doc.contains("timing")) {
        const auto& t = doc["timing"];
        if (!t.is_object() || !t.contains("latency_us") || !t["latency_us"].is_number() || !std::isfinite(t["latency_us"].get<double>()) ||
            t["latency_us"].get<double>() < 0)
            return "its latency is not a non-negative number";
        for (const char* list : {"variant_latency_us", "samples_us"}) {
            if (!t.contains(list)) continue;
            const auto& v = t[list];
            if (!v.is_array()) return std::string("its ") + list + " is not a list";
            for (const auto& l : v)
                if (!l.is_number() || !std::isfinite(l.get<double>()) || l.get<double>() < 0)
                    return std::string("an entry of its ") + list + " is not a non-negative number";
        }
    }
    if (doc.contains("frames") && !doc["frames"].is_array()) return "its frames are not a list";
    return "";
}

// The timed repeats a real device measured (npu/npu_launcher.cpp writes them); empty on the
// twin, whose samples are the model's value (measure): there the result file comes from the
// operator process, and nothing it claims beyond the modeled latency is taken.
std::vector<double> device_samples(const nlohmann::json& timing, const EvalOptions& options) {
    std::vector<double> out;
    if (options.backend != "npu" || !timing.contains("samples_us")) return out;
    for (const auto& v : timing["samples_us"]) out.push_back(v.get<double>());
    return out;
}

// The case's verdict from a document that passed malformed_result; `binary` locates its frames.
Written take_verdict(const nlohmann::json& doc, const fs::path& binary, CaseResult& out) {
    out.status = parse_status(doc.value("status", "")).value_or(EvalStatus::run_failed);
    if (out.status != EvalStatus::ok) out.reason = doc.value("api", "") + ": " + doc.value("message", "") + failure_location(doc, binary);
    out.run_seconds = doc.value("run_seconds", 0.0);
    out.twin = doc;
    return doc.value("ends_process", false) ? Written::verdict_ending_process : Written::verdict;
}

constexpr size_t k_largest_result = 16u << 20;

Written read_verdict(const fs::path& result_file, const fs::path& binary, CaseResult& out) {
    auto text = read_text(result_file);
    if (!text || text->empty()) return Written::nothing;  // the harness opens it before the case runs
    const auto parsed = parse_bounded_json(*text, "the result file", {.max_bytes = k_largest_result, .max_depth = 32});
    const std::string malformed = parsed ? malformed_result(*parsed) : parsed.error().message;
    if (!malformed.empty()) {
        out.status = EvalStatus::run_failed;
        out.reason = "the operator process wrote a result the harness does not write (" + malformed + "): nothing of it is used";
        return Written::verdict_ending_process;
    }
    return take_verdict(*parsed, binary, out);
}

// What the host binary wrote for a case's tiling: nothing (its process died first), a plan for
// the launch (`plan` set), or a verdict that settles the case (a failed tiling, a preflight
// that cannot tile without data), after which the process went on or ended.
enum class Tiled { nothing, plan, verdict, verdict_ending_process };

Tiled read_tiling(const fs::path& tiling_file, const fs::path& host_binary, const EvalOptions& options, CaseResult& out,
                  nlohmann::json& plan, bool& read_data) {
    auto text = read_text(tiling_file);
    if (!text || text->empty()) return Tiled::nothing;
    const auto parsed = parse_bounded_json(*text, "the tiling file", {.max_bytes = k_largest_result, .max_depth = 16});
    std::string malformed = parsed ? malformed_result(*parsed) : parsed.error().message;
    const bool planned = malformed.empty() && parsed->value("status", "") == "ok" && !parsed->contains("skipped");
    if (planned) {
        read_data = parsed->value("reads_data", true) != false;
        auto checked = checked_tiling_plan(*parsed);
        if (checked) plan = std::move(*checked);
        else malformed = checked.error().message;
    }
    if (!malformed.empty()) {
        out.status = EvalStatus::run_failed;
        out.reason = "the host tiling process wrote a tiling the harness does not write (" + malformed + "): nothing of it is used";
        return Tiled::verdict_ending_process;
    }
    if (!planned) return take_verdict(*parsed, host_binary, out) == Written::verdict ? Tiled::verdict : Tiled::verdict_ending_process;
    if (options.memory_limit_bytes > 0 && plan["workspace_bytes"].get<uint64_t>() > options.memory_limit_bytes) {
        out.status = EvalStatus::resource_exceeded;
        out.reason = "SetWorkspaceSizes: the tiling asks for " + std::to_string(plan["workspace_bytes"].get<uint64_t>()) +
                     " bytes of workspace, more than the process may use (--memory)";
        return Tiled::verdict;
    }
    return Tiled::plan;
}

// The verdict of the case that was running when the process ended without writing one;
// `process` names it ("operator", "host tiling"), `suspect` what a timeout blames.
void judge_process_end(const ProcessResult& p, CaseResult& out, const char* process = "operator", const char* suspect = "the kernel") {
    out.run_seconds = p.wall_seconds;
    if (p.timed_out) {
        out.status = EvalStatus::timeout;
        out.reason = "no result within " + std::to_string(int(p.wall_seconds)) + " s; " + suspect + " may loop forever";
        return;
    }
    out.status = EvalStatus::run_failed;
    out.reason = std::string("the ") + process + " process ended (" + p.describe_end() + ") without a result";
}

// A floor under any honest latency of the case, from what ascendopt knows without the operator:
// the launch overhead plus writing every output that is not also an input (a reference tensor
// may be updated in part) at the SoC's peak GM bandwidth, HBM's or L2's, whichever is higher.
// A claim below it did not come from the timing model.
double fastest_possible_us(const Case& c, const nlohmann::json& soc) {
    const double overhead = soc.value("launch", nlohmann::json::object()).value("overhead_us", 0.0);
    const double gbps = std::max(soc.value("gm", nlohmann::json::object()).value("bandwidth_gbps", 0.0),
                                 soc.value("l2", nlohmann::json::object()).value("bandwidth_gbps", 0.0));
    uint64_t bytes = 0;
    for (const auto& o : c.outputs) {
        const bool ref = std::any_of(c.inputs.begin(), c.inputs.end(), [&](const TensorSpec& i) { return i.label() == o.label(); });
        if (!ref && !o.shape_from_kernel) bytes += o.bytes();  // a computed shape may be far below its buffer
    }
    return overhead + (gbps > 0 ? double(bytes) / (gbps * 1e3) : 0.0);
}

// The latencies of a passing case under the evaluation's timing variants, each held to its
// variant's floor as the main latency is to the SoC's; none when the run did not time them all
// (a core that exchanged times with another: the caller then times each variant on its own).
void take_variant_latencies(const Case& c, const EvalOptions& options, CaseResult& out) {
    const auto& timing = out.twin["timing"];
    if (options.timing_variants.empty() || !timing.contains("variant_latency_us")) return;
    const auto& claims = timing["variant_latency_us"];
    if (claims.size() != options.timing_variants.size()) return;
    std::vector<double> latencies;
    for (size_t i = 0; i < claims.size(); ++i) {
        const double claimed = claims[i].get<double>();
        if (const double floor = fastest_possible_us(c, options.timing_variants[i]); claimed < floor) {
            out.status = EvalStatus::run_failed;
            out.reason = "the result claims " + std::to_string(claimed) + " us under timing variant " + std::to_string(i) +
                         ", less than the " + std::to_string(floor) + " us that variant needs: the timing model did not produce it";
            return;
        }
        latencies.push_back(median(measure(claimed, options, c.name)));
    }
    out.variant_latency_us = std::move(latencies);
}

// For an output whose shape the kernel computes: the shape it reported becomes the output's, its
// buffer is cut to it, and the golden must have as many elements. False (with the verdict) when
// the kernel reported none or the counts differ.
bool written_shape(const nlohmann::json& result, const std::vector<double>& golden, TensorSpec& spec, std::vector<char>& bytes,
                   CaseResult& out) {
    const auto& shapes = result.value("output_shapes", nlohmann::json::object());
    if (!shapes.is_object() || !shapes.contains(spec.label()) || !shapes[spec.label()].is_array()) {
        out.status = EvalStatus::wrong_result;
        out.reason = "output '" + spec.label() + "': the kernel reported no shape for it (the OpDef says its kernel computes it)";
        return false;
    }
    std::vector<int64_t> dims;
    for (const auto& d : shapes[spec.label()]) dims.push_back(d.is_number_integer() ? d.get<int64_t>() : -1);
    spec.shape = dims;
    if (spec.elements() < 0 || spec.bytes() > bytes.size()) {
        out.status = EvalStatus::wrong_result;
        out.reason = "output '" + spec.label() + "': the kernel reported a shape larger than its buffer";
        return false;
    }
    bytes.resize(spec.bytes());
    if (golden.size() != size_t(spec.scalars())) {
        out.status = EvalStatus::wrong_result;
        std::string shape;
        for (auto d : dims) shape += (shape.empty() ? "" : ",") + std::to_string(d);
        out.reason = "output '" + spec.label() + "': the kernel wrote " + std::to_string(spec.elements()) + " elements (shape [" + shape +
                     "]), the golden has " + std::to_string(golden.size() / dtype_lanes(spec.dtype));
        return false;
    }
    return true;
}

// The bytes of an output the twin saw no write reach (its "unwritten" report).
struct Unwritten {
    uint64_t bytes = 0, first_byte = 0;
};
Unwritten unwritten_of(const nlohmann::json& twin, const TensorSpec& t) {
    if (!twin.is_object() || !twin.contains("unwritten") || !twin["unwritten"].is_object()) return {};
    const nlohmann::json& u = twin["unwritten"].value(t.label(), nlohmann::json());
    if (!u.is_object()) return {};
    return {std::min(u.value("bytes", uint64_t(0)), t.bytes()), u.value("first_byte", uint64_t(0))};
}

std::string unwritten_reason(const TensorSpec& t, const Unwritten& u) {
    const uint64_t size = std::max<size_t>(1, dtype_size(t.dtype));
    const uint64_t elements = t.bytes() / size;
    return "output '" + t.label() + "': " + std::to_string((u.bytes + size - 1) / size) + " of " + std::to_string(elements) +
           " elements were never written (the first: element " + std::to_string(u.first_byte / size) +
           "); on the device they hold whatever the memory held before, so the check cannot pass them";
}

// Compares the outputs of a case the twin ran to the end with their goldens.
void check_outputs(const Case& c, const CaseData& data, const fs::path& work_dir, const EvalOptions& options, CaseResult& out) {
    for (size_t i = 0; i < c.outputs.size(); ++i) {
        auto bytes = read_bytes(work_dir / ("out_" + c.outputs[i].file_stem() + ".bin"));
        if (!bytes || bytes->size() != c.outputs[i].bytes()) {
            out.status = EvalStatus::run_failed;
            out.reason = "output '" + c.outputs[i].label() + "' was not written";
            return;
        }
        if (i < data.left_unwritten.size() && data.left_unwritten[i]) continue;  // by contract: nothing to check
        const Unwritten unwritten = unwritten_of(out.twin, c.outputs[i]);
        if (c.golden.kind == GoldenSpec::Kind::none) {  // a smoke case: written is all it can check
            if (unwritten.bytes == c.outputs[i].bytes() && unwritten.bytes > 0) {
                out.status = EvalStatus::wrong_result;
                out.reason = "output '" + c.outputs[i].label() + "' was never written";
                return;
            }
            continue;
        }
        if (unwritten.bytes) {
            // Whatever its value: on the device the element holds what the memory held before.
            out.status = EvalStatus::wrong_result;
            out.reason = unwritten_reason(c.outputs[i], unwritten);
            return;
        }
        TensorSpec spec = c.outputs[i];
        if (spec.shape_from_kernel && !written_shape(out.twin, data.expected[i], spec, *bytes, out)) return;
        out.outputs.push_back(compare_output(spec, *bytes, data.expected[i], tolerance_for(c, spec)));
        if (out.outputs.back().mismatches > 0 && out.status == EvalStatus::ok) {
            out.status = EvalStatus::wrong_result;
            out.reason = mismatch_reason(out.outputs.back());
        }
    }
    if (out.status == EvalStatus::ok && out.twin.contains("timing")) {
        const double claimed = out.twin["timing"].value("latency_us", 0.0);
        if (const double floor = fastest_possible_us(c, options.soc_description); claimed < floor) {
            out.status = EvalStatus::run_failed;
            out.reason = "the result claims " + std::to_string(claimed) + " us, less than the " + std::to_string(floor) +
                         " us the SoC needs to launch and write the case's outputs at its peak GM bandwidth: the timing model did "
                         "not produce it, and nothing of it is used";
            return;
        }
        out.latency_samples = device_samples(out.twin["timing"], options);
        if (out.latency_samples.empty()) out.latency_samples = measure(claimed, options, c.name);
        out.latency_us = median(out.latency_samples);
        take_variant_latencies(c, options, out);
    }
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

// The largest file an operator process may write (RLIMIT_FSIZE, SIGXFSZ past it): the largest
// output of its cases, or a result file (read up to 16 MiB), or a trace when one is asked for.
// The candidate cannot create files (harness_files.h), so this caps the whole job folder too:
// a few files of this size at most.
uint64_t largest_file(const std::vector<CaseRun>& runs, size_t first, const EvalOptions& options) {
    uint64_t most = options.trace_dir ? 1ull << 30 : 16ull << 20;
    for (size_t i = first; i < runs.size(); ++i)
        for (const auto& t : runs[i].c->outputs) most = std::max(most, t.bytes());
    return most + (1ull << 20);
}
// The twin's own threads: one per block (at most 4096, the harness's limit) and a few of the
// harness and the sandbox. More would be the candidate's.
constexpr uint32_t k_most_tasks = 4096 + 64;

// What the case's outputs start as (8 bytes, repeated): drawn from this run's nonce and the
// case's name, so it differs per case and per run, and --hidden-nonce reproduces it.
std::string output_poison(const Case& c, const EvalOptions& options) {
    return sha256_hex(std::to_string(run_hidden_nonce(options.hidden_nonce)) + "\n" + c.name).substr(0, 16);
}

nlohmann::json case_job(const CaseRun& r, const EvalOptions& options, bool preflight) {
    const Case& c = *r.c;
    nlohmann::json job = {{"name", c.name}, {"attrs", c.attrs}, {"result", (r.work_dir / "result.json").string()},
                          {"inputs", nlohmann::json::array()}, {"outputs", nlohmann::json::array()}, {"preflight", preflight}};
    for (size_t i = 0; i < c.inputs.size(); ++i)
        job["inputs"].push_back(tensor_job(c.inputs[i], preflight ? fs::path() : r.data->input_files[i]));
    for (const auto& t : c.outputs) job["outputs"].push_back(tensor_job(t, r.work_dir / ("out_" + t.file_stem() + ".bin")));
    if (options.trace_dir && !preflight) job["trace"] = trace_path(*options.trace_dir, c.name).string();
    if (!preflight) job["poison"] = output_poison(c, options);
    return job;
}

// Sandboxed or not, an operator gets no environment of ours (API keys, tokens) beyond the host
// tunables: the evaluation's, and those set in ascendopt's own environment.
std::map<std::string, std::string> operator_environment(const std::map<std::string, std::string>& extra) {
    std::map<std::string, std::string> env = {{"PATH", "/usr/bin:/bin"}, {"LC_ALL", "C"}};
    for (char** e = environ; e && *e; ++e)
        if (std::string_view kv(*e); kv.starts_with("ASCENDOPT_TUNE_") && kv.find('=') != std::string_view::npos)
            env.emplace(std::string(kv.substr(0, kv.find('='))), std::string(kv.substr(kv.find('=') + 1)));
    for (const auto& [k, v] : extra) env[k] = v;
    return env;
}

// The fields every case of a job shares.
nlohmann::json job_header(const KernelBuild& kernel, const std::string& op_type, const EvalOptions& options) {
    nlohmann::json job = {{"op", op_type}, {"kernel", kernel.kernel_name}, {"kernel_args", kernel.kernel_args},
                          {"kernel_type", kernel.inferred_type},
                          {"soc", options.soc_description}, {"timing", options.timing}, {"strict_gm", options.strict_gm}, {"strict_ub", options.strict_ub},
                          {"races", options.races != RaceCheck::off}, {"cases", nlohmann::json::array()}};
    if (!options.timing_variants.empty()) job["timing_variants"] = options.timing_variants;
    if (options.timeout_seconds > 0) job["case_timeout_s"] = options.timeout_seconds;
    return job;
}

// The CPU time the backstop's wall time allows. RLIMIT_CPU sums the process's threads, and the
// twin runs a thread per core of a launch: a limit of the wall time alone ended a kernel whose
// cores spin on two CPUs after half of it, before the harness's own timeout verdict.
uint64_t cpu_backstop(double wall_seconds) {
    if (wall_seconds <= 0) return 0;
    return uint64_t(std::ceil(wall_seconds)) * std::max(1u, std::thread::hardware_concurrency());
}

// Runs `binary` with `mode` over `job` (written to `job_file`), whose cases are `cases`, under
// the limits and in the view every candidate process gets: the binary's folder and the cases'
// inputs read-only, the job folder writable, no environment of ours beyond the tunables.
Result<ProcessResult> run_candidate_process(const fs::path& binary, const char* mode, const nlohmann::json& job, const fs::path& job_file,
                                            const std::vector<const CaseRun*>& cases, const EvalOptions& options,
                                            const std::map<std::string, std::string>& extra_env, const fs::path& job_dir,
                                            uint64_t largest_file_bytes) {
    if (auto s = write_atomic(job_file, job.dump(2)); !s) return s.error();
    // The harness enforces each case's limit; this one only catches a harness that cannot.
    const double backstop = options.timeout_seconds > 0 ? options.timeout_seconds * double(cases.size()) + 10 : 0;
    const std::vector<std::string> argv = {binary.string(), mode, job_file.string()};
    const auto env = operator_environment(extra_env);
    ProcessOptions limits{.cwd = cases.front()->work_dir, .env = env, .inherit_env = false, .timeout_seconds = backstop,
                          .memory_limit_bytes = options.memory_limit_bytes, .cpu_seconds = cpu_backstop(backstop),
                          .file_size_bytes = largest_file_bytes, .max_tasks = k_most_tasks};
    if (!options.sandbox) {
        add_launch_walls(limits, nullptr);
        return run_process(argv, limits);
    }
    // The run sees its binary, its inputs (read-only, over the writable job folder that may hold
    // them) and the job folder; not the sources, the goldens, the run store or the user's files.
    SandboxSpec view;
    view.writable = {job_dir};
    view.read_only = {binary.parent_path()};
    for (const CaseRun* r : cases)
        if (r->data) view.read_only.insert(view.read_only.end(), r->data->input_files.begin(), r->data->input_files.end());
    if (options.trace_dir) view.writable.push_back(*options.trace_dir);
    view.env = env;
    view.cwd = cases.front()->work_dir;
    add_launch_walls(limits, &view);
    ProcessResult r = run_process(sandboxed_argv(*options.sandbox, argv, view), limits);
    undo_sandbox_exit_code(r);
    return r;
}

fs::path tiling_file(const CaseRun& r) { return r.work_dir / "tiling.json"; }
fs::path result_file(const CaseRun& r) { return r.work_dir / "result.json"; }

// Runs the tiling of the cases runs[which[..]] in one host process, which writes each case's
// tiling file.
Result<ProcessResult> run_tiling(const std::vector<CaseRun>& runs, const std::vector<size_t>& which, const KernelBuild& kernel,
                                 const std::string& op_type, const EvalOptions& options,
                                 const std::map<std::string, std::string>& extra_env, const fs::path& job_dir, bool preflight) {
    nlohmann::json job = job_header(kernel, op_type, options);
    std::vector<const CaseRun*> cases;
    for (size_t i : which) {
        std::error_code ec;
        fs::remove(tiling_file(runs[i]), ec);
        nlohmann::json c = case_job(runs[i], options, preflight);
        c["tiling"] = tiling_file(runs[i]).string();
        job["cases"].push_back(std::move(c));
        cases.push_back(&runs[i]);
    }
    const fs::path job_file = job_dir / ("tiling-" + kernel.kernel_name + "-" + std::to_string(which.front()) + ".json");
    return run_candidate_process(kernel.host_binary, "--tiling", job, job_file, cases, options, extra_env, job_dir, k_largest_result + (1u << 20));
}

// What a case's tiling depends on besides its data: the host binary (named by the hash of its
// sources), the environment it runs with (Stage II's tunables), the SoC, the operator, and the
// case's tensors and attributes (TilingPlanCache).
std::string tiling_cache_key(const CaseRun& r, const KernelBuild& kernel, const std::string& op_type, const EvalOptions& options,
                             const std::map<std::string, std::string>& extra_env) {
    nlohmann::json key = {{"host", kernel.host_binary.string()}, {"op", op_type}, {"soc", options.soc_description},
                          {"env", operator_environment(extra_env)}, {"attrs", r.c->attrs}};
    for (const auto* list : {&r.c->inputs, &r.c->outputs}) {
        nlohmann::json tensors = nlohmann::json::array();
        for (const auto& t : *list) {
            nlohmann::json j = tensor_job(t, {});
            j.erase("file");
            tensors.push_back(std::move(j));
        }
        key[list == &r.c->inputs ? "inputs" : "outputs"] = std::move(tensors);
    }
    return sha256_hex(key.dump());
}

// Launches the one-case operator jobs a device launcher hands back (device_launch.h), each as
// run_launch runs its job: the case is found by name among `cases`.
Result<ProcessResult> run_through_device(const nlohmann::json& job, const std::vector<const CaseRun*>& cases, const KernelBuild& kernel,
                                         const EvalOptions& options, const std::map<std::string, std::string>& extra_env,
                                         const fs::path& job_dir) {
    DeviceLaunch launch{job, {}, &kernel, kernel.opdef, kernel.source, job_dir, nullptr};
    std::vector<CaseRun> batch;
    for (const CaseRun* r : cases) {
        launch.work_dirs.push_back(r->work_dir);
        batch.push_back(*r);
    }
    const uint64_t largest = largest_file(batch, 0, options);
    launch.run_operator = [&](const nlohmann::json& one, const fs::path& job_file) -> Result<ProcessResult> {
        const std::string name = one.contains("cases") && !one["cases"].empty() ? one["cases"][0].value("name", "") : "";
        const auto it = std::find_if(cases.begin(), cases.end(), [&](const CaseRun* r) { return r->c->name == name; });
        if (it == cases.end()) return make_error("internal: the device launched unknown case '" + name + "'");
        return run_candidate_process(kernel.binary, "--job", one, job_file, {*it}, options, extra_env, job_dir, largest);
    };
    return options.device_launcher(launch);
}

// Runs the cases runs[which[from..]] in one operator process, each from its checked tiling plan
// (or, with a device launcher, through it: device_launch.h).
Result<ProcessResult> run_launch(const std::vector<CaseRun>& runs, const std::vector<size_t>& which, const std::vector<nlohmann::json>& plans,
                                 size_t from, const KernelBuild& kernel, const std::string& op_type, const EvalOptions& options,
                                 const std::map<std::string, std::string>& extra_env, const fs::path& job_dir, bool preflight) {
    nlohmann::json job = job_header(kernel, op_type, options);
    std::vector<const CaseRun*> cases;
    std::vector<CaseRun> batch;
    for (size_t k = from; k < which.size(); ++k) {
        const CaseRun& r = runs[which[k]];
        std::error_code ec;
        fs::remove(result_file(r), ec);
        nlohmann::json c = case_job(r, options, preflight);
        c["plan"] = plans[k];
        job["cases"].push_back(std::move(c));
        cases.push_back(&r);
        batch.push_back(r);
    }
    if (options.device_launcher && !preflight) return run_through_device(job, cases, kernel, options, extra_env, job_dir);
    const fs::path job_file = job_dir / ("job-" + kernel.kernel_name + "-" + std::to_string(which[from]) + ".json");
    return run_candidate_process(kernel.binary, "--job", job, job_file, cases, options, extra_env, job_dir, largest_file(batch, 0, options));
}

// Keeps the plans of the cases tiled ahead (runs[first..]) that the tiling process reached and
// that may be reused; nothing else of them counts.
void keep_tiled_ahead(const std::vector<CaseRun>& runs, size_t first, const std::vector<std::optional<nlohmann::json>>& known,
                      const std::vector<std::string>& keys, const fs::path& host_binary, const EvalOptions& options) {
    for (size_t i = first; i < runs.size(); ++i) {
        if (known[i]) continue;
        CaseResult ignored;
        nlohmann::json plan;
        bool read_data = true;
        if (read_tiling(tiling_file(runs[i]), host_binary, options, ignored, plan, read_data) == Tiled::plan && !read_data)
            TilingPlanCache::instance().store(keys[i], plan);
    }
}

// Places the races the twin reported at their source lines and, under --races=fail, fails a
// case that passed otherwise (a case that failed keeps its first verdict; its races are noted).
void judge_races(const fs::path& binary, const EvalOptions& options, CaseResult& r) {
    if (!r.twin.is_object() || !r.twin.contains("races") || !r.twin["races"].is_array() || r.twin["races"].empty()) return;
    resolve_race_sites(r.twin, binary);
    if (options.races != RaceCheck::fail || r.status != EvalStatus::ok) return;
    r.status = EvalStatus::race;
    r.reason = race_reason(r.twin);
}

// Launches the planned cases (indices into `runs`, with their plans), each process running
// until a case ends it, and judges each case's result into `out`.
Status launch_planned(const std::vector<CaseRun>& runs, const std::vector<size_t>& planned, const std::vector<nlohmann::json>& plans,
                      const KernelBuild& kernel, const std::string& op_type, const EvalOptions& options,
                      const std::map<std::string, std::string>& env, const fs::path& job_dir, bool preflight, std::vector<CaseResult>& out) {
    size_t k = 0;
    while (k < planned.size()) {
        auto p = run_launch(runs, planned, plans, k, kernel, op_type, options, env, job_dir, preflight);
        if (!p) return p.error();
        const size_t from = k;
        for (; k < planned.size(); ++k) {
            const CaseRun& run = runs[planned[k]];
            CaseResult& r = out[planned[k]];
            const Written wrote = read_verdict(result_file(run), kernel.binary, r);
            if (wrote == Written::nothing) judge_process_end(*p, r);
            if (r.status == EvalStatus::ok && !preflight) check_outputs(*run.c, *run.data, run.work_dir, options, r);
            if (!preflight) judge_races(kernel.binary, options, r);
            if (r.status != EvalStatus::ok) r.log_tail = p->output;
            if (wrote != Written::verdict) {
                ++k;  // the cases after this one never ran: a fresh process runs them
                break;
            }
        }
        if (k == from) return make_error("internal: the operator process made no progress");
    }
    return ok_status();
}

}  // namespace

Result<std::vector<CaseResult>> run_cases(const std::vector<CaseRun>& given, const KernelBuild& kernel, const std::string& op_type,
                                          const EvalOptions& options, const std::map<std::string, std::string>& env,
                                          const fs::path& job_dir, bool preflight, const std::vector<CaseRun>& tile_ahead) {
    // The cases to tile: those given, then those tiled ahead; only those given are launched.
    std::vector<CaseRun> runs = given;
    runs.insert(runs.end(), tile_ahead.begin(), tile_ahead.end());
    const size_t launched = given.size();
    std::vector<CaseResult> out(runs.size());
    for (size_t i = 0; i < runs.size(); ++i) {
        out[i].name = runs[i].c->name;
        out[i].role = runs[i].c->role;
    }
    std::vector<std::string> keys;
    for (const auto& r : runs) keys.push_back(tiling_cache_key(r, kernel, op_type, options, env));
    size_t next = 0;
    while (next < launched) {
        // Tiling first, of the cases not tiled before, in the host binary's process until a case
        // ends it; then the launch of the planned cases, in operator processes that hold no
        // host code.
        std::vector<std::optional<nlohmann::json>> known(runs.size());
        std::vector<size_t> to_tile;
        for (size_t i = next; i < runs.size(); ++i)
            if (!(known[i] = TilingPlanCache::instance().find(keys[i]))) to_tile.push_back(i);
        std::optional<ProcessResult> tiled;
        if (!to_tile.empty()) {
            auto p = run_tiling(runs, to_tile, kernel, op_type, options, env, job_dir, preflight);
            if (!p) return p.error();
            tiled = std::move(*p);
        }
        std::vector<size_t> planned;
        std::vector<nlohmann::json> plans;
        const size_t first = next;
        for (; next < launched; ++next) {
            if (known[next]) {
                planned.push_back(next);
                plans.push_back(std::move(*known[next]));
                continue;
            }
            nlohmann::json plan;
            bool read_data = true;
            const Tiled t = read_tiling(tiling_file(runs[next]), kernel.host_binary, options, out[next], plan, read_data);
            if (t == Tiled::plan) {
                if (!read_data) TilingPlanCache::instance().store(keys[next], plan);
                planned.push_back(next);
                plans.push_back(std::move(plan));
                continue;
            }
            if (t == Tiled::nothing) judge_process_end(*tiled, out[next], "host tiling", "the host tiling");
            if (out[next].status != EvalStatus::ok) out[next].log_tail = tiled->output;
            if (t != Tiled::verdict) {
                ++next;  // the cases after this one were never tiled: a fresh process tiles them
                break;
            }
        }
        if (next == first) return make_error("internal: the host tiling process made no progress");
        if (tiled) keep_tiled_ahead(runs, launched, known, keys, kernel.host_binary, options);
        if (auto s = launch_planned(runs, planned, plans, kernel, op_type, options, env, job_dir, preflight, out); !s) return s.error();
    }
    out.resize(launched);
    return out;
}

}  // namespace ascendopt
