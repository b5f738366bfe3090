#include "eval/evaluator.h"

#include <chrono>
#include <future>
#include <map>
#include <mutex>
#include <optional>

#include "eval/case_runner.h"
#include "eval/eval_memo.h"
#include "eval/hidden_case.h"
#include "eval/screen.h"
#include "eval/smoke_case.h"
#include "util/files.h"

namespace ascendopt {
namespace {

// A case is materialised several times: its inputs and outputs in ascendopt and in the operator's
// GM, its goldens as doubles. One that cannot fit under the memory limit is refused before
// anything is allocated, instead of taking ascendopt or the machine down.
Status fits_in_memory(const Case& c, uint64_t limit) {
    long double need = 0;
    for (const auto& t : c.inputs) need += (long double)t.bytes();
    for (const auto& t : c.outputs) need += (long double)t.bytes() + 8.0L * (long double)t.scalars();
    if (limit == 0 || need <= (long double)limit) return ok_status();
    const auto gib = [](long double b) { return std::to_string(double(b / (1ull << 30))).substr(0, 5) + " GiB"; };
    return make_error("case " + c.name + " needs about " + gib(need) + " (inputs, outputs and goldens), more than the " +
                          gib((long double)limit) + " memory limit",
                      "make the case smaller, or raise the limit with --memory");
}

class TwinEvaluator : public Evaluator {
public:
    TwinEvaluator(Builder& b, GoldenRunner& g, EvalOptions o) : m_builder(b), m_golden(g), m_opts(std::move(o)) {
        if (EvalMemo::applies(m_opts)) m_memo.emplace(cache_root() / "evals");
    }

    Result<EvalResult> evaluate(const OperatorSource& op, const EvalRequest& request, const ProgressFn& progress) override {
        EvalResult result;
        result.sandboxed = m_opts.sandbox.has_value();
        result.latency_source = latency_source_of(m_opts.backend);
        result.op_dir = op.root.string();
        result.op_name = op.display_name();
        const auto start = std::chrono::steady_clock::now();
        auto built = build(op, request, progress, [&](const std::vector<Case>& all) { return select(all, op, request); });
        result.build_seconds = seconds_since(start);
        if (!built) return built.error();
        if (built->rejected) {
            result.status = EvalStatus::rejected;
            result.reason = *built->rejected;
            return result;
        }
        if (built->failure) return build_failed(result, *built->failure);
        result.op_name = built->op_type;
        result.build_cached = built->cached;
        // Another SoC description for this evaluation only (a sensitivity re-timing: the same
        // cases, inputs and goldens, another timing model), or other inputs (a study seed's:
        // their own prepared data, goldens and stored results).
        EvalOptions variant;
        const bool varied = request.soc_description || request.timing_variants || (request.input_seed && *request.input_seed != m_opts.seed);
        if (varied) {
            variant = m_opts;
            if (request.soc_description) variant.soc_description = *request.soc_description;
            if (request.timing_variants) variant.timing_variants = *request.timing_variants;
            if (request.input_seed) variant.seed = *request.input_seed;
        }
        const EvalOptions& opts = varied ? variant : m_opts;
        std::optional<std::string> memo_key;
        if (m_memo) {
            memo_key = EvalMemo::key(built->host_key, kernel_binaries(*built), built->cases, request.env, opts);
            if (auto stored = m_memo->find(*memo_key)) return replayed(std::move(*stored), result);
        }
        auto work = make_temp_dir(fs::temp_directory_path(), "ascendopt-eval");
        if (!work) return work.error();
        ScratchDir remove_work(*work);  // on every way out, unless --keep
        if (m_opts.keep_work_dirs) {
            (void)write_atomic(*work / k_keep_marker, "");
            remove_work.release();
        }
        auto store = case_data();
        if (!store) return store.error();
        // Every case in its place; a case whose golden failed is filled in now and not run.
        std::vector<std::optional<CaseResult>> slots(built->cases.size());
        std::vector<CaseRun> runs;
        for (size_t i = 0; i < built->cases.size(); ++i) {
            const Case& c = built->cases[i];
            if (auto fits = fits_in_memory(c, m_opts.memory_limit_bytes); !fits) return fits.error();
            // The hidden case's shape is one per run (run_hidden_nonce): the store keeps its data
            // with the other cases', one entry per run.
            auto data = (*store)->get(c, opts.seed);
            if (!data) return data.error();
            if ((*data)->golden_failure) {
                slots[i] = golden_failed(c, *(*data)->golden_failure);
                continue;
            }
            runs.push_back({&c, *data, *work / sanitize(c.name)});
            fs::create_directories(runs.back().work_dir);
        }
        auto ran = run_by_kernel(runs, *built, *work, false, request.env, progress, {}, std::cref(opts));
        if (!ran && ran.error().build_failure) return build_failed(result, ran.error());  // on a device's toolchain
        if (!ran) return ran.error();
        std::vector<CaseResult> results;
        size_t next_ran = 0;
        for (auto& slot : slots) results.push_back(slot ? std::move(*slot) : std::move((*ran)[next_ran++]));
        for (size_t i = 0; i < results.size(); ++i) {
            results[i].known_defect = built->cases[i].known_defect;
            results[i].hidden_nonce = built->cases[i].hidden_nonce;
            if (results[i].hidden_nonce && results[i].status != EvalStatus::ok) results[i].reason += hidden_reproduction_hint(*results[i].hidden_nonce);
        }
        for (auto& r : results) {
            if (r.status != EvalStatus::ok && !r.expected_failure() && result.status == EvalStatus::ok) {
                result.status = r.status;
                result.reason = r.name + ": " + r.reason;
            }
            result.cases.push_back(std::move(r));
        }
        if (memo_key) m_memo->store(*memo_key, result);
        return result;
    }

    const EvalOptions& options() const override { return m_opts; }

    Result<PreflightResult> preflight(const OperatorSource& op, const EvalRequest& request) override {
        // The full evaluation's other cases are tiled ahead in the preflight's tiling process, so
        // that an evaluation after a passing preflight starts no tiling process of its own.
        std::vector<Case> ahead;
        auto built = build(op, request, [](const std::string&, const std::string&) {}, [&](const std::vector<Case>& all) {
            std::vector<Case> probe = probed(all);
            for (auto& c : select(all, op, request))
                if (std::none_of(probe.begin(), probe.end(), [&](const Case& p) { return p.name == c.name; })) ahead.push_back(std::move(c));
            return probe;
        });
        if (!built) return built.error();
        PreflightResult result;
        if (built->rejected) {
            result.status = EvalStatus::rejected;
            result.reason = *built->rejected;
            return result;
        }
        if (built->failure) {
            result.status = EvalStatus::build_failed;
            result.reason = built->failure->message;
            return result;
        }
        auto work = make_temp_dir(fs::temp_directory_path(), "ascendopt-preflight");
        if (!work) return work.error();
        ScratchDir remove_work(*work);
        std::vector<CaseRun> runs;
        for (const auto& c : built->cases) {
            runs.push_back({&c, nullptr, *work / sanitize(c.name)});
            fs::create_directories(runs.back().work_dir);
        }
        std::vector<CaseRun> ahead_runs;
        for (const auto& c : ahead) {
            ahead_runs.push_back({&c, nullptr, *work / ("ahead-" + sanitize(c.name))});
            fs::create_directories(ahead_runs.back().work_dir);
        }
        auto results = run_by_kernel(runs, *built, *work, true, request.env, [](const std::string&, const std::string&) {}, ahead_runs);
        if (!results) return results.error();
        for (const auto& r : *results) {
            if (r.status != EvalStatus::ok) {
                result.status = r.status;
                result.reason = r.name + ": " + r.reason;
                return result;
            }
            result.block_dim = std::max(result.block_dim, r.twin.value("block_dim", 0u));
            result.ub_bytes = std::max(result.ub_bytes, r.twin.value("ub_bytes", 0u));
        }
        return result;
    }

private:
    static CaseResult golden_failed(const Case& c, const Error& e) {
        CaseResult r;
        r.name = c.name;
        r.role = c.role;
        r.status = EvalStatus::golden_failed;
        r.reason = e.message + (e.hint.empty() ? "" : "; " + e.hint);
        r.log_tail = e.detail;
        return r;
    }
    static double seconds_since(std::chrono::steady_clock::time_point t) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    }
    static std::string sanitize(std::string s) {
        for (auto& c : s)
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
        return s;
    }
    static std::string case_names(const std::vector<Case>& cases) {
        std::string s = "cases:";
        for (const auto& c : cases) s += " " + c.name;
        return s;
    }
    Result<EvalResult> build_failed(EvalResult& r, const Error& e) {
        r.status = EvalStatus::build_failed;
        r.reason = e.message;
        r.build_log = e.detail;
        return r;
    }
    // The built operator for a set of its cases; a compile error is a failure, not an error.
    struct Built {
        std::string op_type;
        std::string host_key;  // HostBuild::key: the toolchain and every source
        std::vector<Case> cases;
        std::map<std::string, KernelBuild> kernels;  // by dtype signature
        bool cached = true;
        std::optional<Error> failure;
        std::optional<std::string> rejected;  // by the static screen, or by the check of an object
    };
    static std::vector<fs::path> kernel_binaries(const Built& b) {
        std::vector<fs::path> out;
        for (const auto& [sig, k] : b.kernels) out.push_back(k.binary);
        return out;
    }
    // A stored result as this evaluation's: the folder and build time are this call's.
    static EvalResult replayed(EvalResult stored, const EvalResult& now) {
        stored.op_dir = now.op_dir;
        stored.build_seconds = now.build_seconds;
        stored.build_cached = now.build_cached;
        stored.sandboxed = now.sandboxed;
        stored.replayed = true;
        return stored;
    }
    // A build that failed, or was refused by a check (Error::refused): rejected, not broken. One
    // the machine failed (Error::missing_tool: a full disk) says nothing of the operator: it is
    // the evaluation's error, so that no search files it as the candidate's verdict.
    static Result<Built> failed(Built& out, const Error& e) {
        if (e.missing_tool) return e;
        if (e.refused) out.rejected = e.message;
        else out.failure = e;
        return std::move(out);
    }
    using CaseSelector = std::function<std::vector<Case>(const std::vector<Case>&)>;
    Result<Built> build(const OperatorSource& op, const EvalRequest& request, const ProgressFn& progress, const CaseSelector& choose) {
        Built out;
        if (m_opts.screen) {
            if (auto hit = screen_operator(op)) {
                out.rejected = "static screen: " + hit->describe(op.root);
                return out;
            }
            auto expanded = m_builder.screen_expanded(op);
            if (!expanded) {
                out.failure = expanded.error();
                return out;
            }
            if (*expanded) {
                out.rejected = "static screen: " + (*expanded)->describe(op.root);
                return out;
            }
        }
        progress("build", "host code of " + op.display_name());
        auto host = m_builder.build_host(op);
        if (!host) return failed(out, host.error());
        out.op_type = host->opdef.type;
        out.host_key = host->key;
        auto cases = op.smoke ? Result<std::vector<Case>>(std::vector<Case>{smoke_case(host->opdef)}) : resolve_cases(op.cases, host->opdef);
        if (!cases) return cases.error();
        out.cases = choose(*cases);
        if (out.cases.empty())
            return make_error("operator " + out.op_type + " has no " +
                                  (request.case_filter ? "case named '" + *request.case_filter + "'" : std::string("perf case")),
                              case_names(*cases));
        out.cached = host->cached;
        const auto opdef = std::make_shared<const OpDefInfo>(host->opdef);
        const auto source = std::make_shared<const OperatorSource>(op);
        for (auto& [sig, k] : build_kernels(op, *host, out.cases, progress)) {
            if (!k) return failed(out, k.error());
            k->opdef = opdef;
            k->source = source;
            out.cached = out.cached && k->cached;
            out.kernels.emplace(sig, std::move(*k));
        }
        return out;
    }
    // Runs the cases in one operator process per kernel build; results in the order of `runs`.
    // `tile_ahead` go with the first group (run_cases): only their tiling runs.
    Result<std::vector<CaseResult>> run_by_kernel(const std::vector<CaseRun>& runs, const Built& built, const fs::path& job_dir,
                                                  bool preflight, const std::map<std::string, std::string>& env,
                                                  const ProgressFn& progress, const std::vector<CaseRun>& tile_ahead = {},
                                                  std::optional<std::reference_wrapper<const EvalOptions>> options = std::nullopt) {
        const EvalOptions& opts = options ? options->get() : m_opts;
        std::map<std::string, std::vector<size_t>> by_kernel;
        for (size_t i = 0; i < runs.size(); ++i) by_kernel[runs[i].c->dtype_signature()].push_back(i);
        std::vector<CaseResult> out(runs.size());
        for (const auto& [sig, indices] : by_kernel) {
            std::vector<CaseRun> group;
            for (size_t i : indices) group.push_back(runs[i]);
            progress("case", std::to_string(group.size()) + (group.size() == 1 ? " case" : " cases") + " on the " + sig + " kernel");
            const bool first_group = sig == by_kernel.begin()->first;
            auto results = run_cases(group, built.kernels.at(sig), built.op_type, opts, env, job_dir, preflight,
                                     first_group ? tile_ahead : std::vector<CaseRun>{});
            if (!results) return results.error();
            for (size_t k = 0; k < indices.size(); ++k) out[indices[k]] = std::move((*results)[k]);
        }
        return out;
    }
    // The cases a preflight runs: the perf cases, or the largest case when none is marked perf.
    static std::vector<Case> probed(const std::vector<Case>& cases) {
        std::vector<Case> out;
        for (const auto& c : cases)
            if (c.role == CaseRole::perf) out.push_back(c);
        if (!out.empty() || cases.empty()) return out;
        auto size = [](const Case& c) {
            int64_t n = 0;
            for (const auto& t : c.inputs) n += t.elements();
            return n;
        };
        return {*std::max_element(cases.begin(), cases.end(), [&](const Case& a, const Case& b) { return size(a) < size(b); })};
    }
    // The cases asked for; with no filter, all of them and the hidden case (hidden_case.h), whose
    // shape comes from a nonce of this evaluation, not from the seed.
    std::vector<Case> select(const std::vector<Case>& cases, const OperatorSource& op, const EvalRequest& r) const {
        std::vector<Case> out;
        for (const auto& c : cases)
            if ((!r.case_filter || c.name == *r.case_filter) && (!r.role_filter || c.role == *r.role_filter)) out.push_back(c);
        if (m_opts.hidden_case && op.hidden_case && !r.case_filter && !r.role_filter)
            if (auto hidden = hidden_case(cases, run_hidden_nonce(m_opts.hidden_nonce), op.hidden_shapes ? &*op.hidden_shapes : nullptr))
                out.push_back(std::move(*hidden));
        return out;
    }
    // One kernel build per dtype combination, at most `jobs` at a time.
    std::map<std::string, Result<KernelBuild>> build_kernels(const OperatorSource& op, const HostBuild& host,
                                                            const std::vector<Case>& cases, const ProgressFn& progress) {
        std::map<std::string, const Case*> samples;
        for (const auto& c : cases) samples.emplace(c.dtype_signature(), &c);
        std::map<std::string, Result<KernelBuild>> out;
        std::vector<std::pair<std::string, std::future<Result<KernelBuild>>>> running;
        auto drain = [&](size_t keep) {
            while (running.size() > keep) {
                out.emplace(running.front().first, running.front().second.get());
                running.erase(running.begin());
            }
        };
        for (const auto& entry : samples) {
            progress("build", "kernel for " + entry.first);
            drain(size_t(std::max(1, m_opts.jobs)) - 1);
            const Case* sample = entry.second;  // not a structured binding: clang cannot capture those
            running.emplace_back(entry.first,
                                 std::async(std::launch::async, [this, &op, &host, sample] { return m_builder.build_kernel(op, host, *sample); }));
        }
        drain(0);
        return out;
    }

    // Every evaluation of this evaluator shares the cases' inputs and goldens (keyed by the
    // case and the seed): Stage II and Stage I run the same cases on the same seed many times.
    // They live in a scratch folder removed with the evaluator (kept with --keep).
    Result<std::shared_ptr<CaseDataStore>> case_data() {
        std::lock_guard lock(m_data_mutex);
        if (m_data) return m_data;
        auto dir = make_temp_dir(fs::temp_directory_path(), "ascendopt-cases");
        if (!dir) return dir.error();
        if (m_opts.keep_work_dirs) (void)write_atomic(*dir / k_keep_marker, "");  // --keep: the job files name these inputs
        else m_data_dir.emplace(*dir);
        m_data = std::make_shared<CaseDataStore>(*dir, m_golden);
        return m_data;
    }

    Builder& m_builder;
    GoldenRunner& m_golden;
    EvalOptions m_opts;
    std::mutex m_data_mutex;
    std::optional<ScratchDir> m_data_dir;  // declared before m_data: removed after the store
    std::shared_ptr<CaseDataStore> m_data;
    std::optional<EvalMemo> m_memo;  // when EvalMemo::applies(m_opts)
};

}  // namespace

std::unique_ptr<Evaluator> make_twin_evaluator(Builder& builder, GoldenRunner& golden, EvalOptions options) {
    return std::make_unique<TwinEvaluator>(builder, golden, std::move(options));
}

}  // namespace ascendopt
