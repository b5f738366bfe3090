#include "search/tuner.h"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>

#include "eval/candidate_folder.h"
#include "eval/ledger.h"
#include "eval/soc_variants.h"
#include "search/constraint.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/parallel.h"

namespace ascendopt {
namespace {

// Proposals per ask. Fixed, not the worker count, so that a seed gives the same search on any
// machine: the strategy is told results after the same proposals whatever -j is.
constexpr size_t k_batch = 8;

// A kernel configuration written out as an operator folder, and its hash in the run store.
struct Candidate {
    OperatorSource op;
    std::string hash;
};

class Session {
public:
    Session(const OperatorSource& op, Evaluator& e, const TuneOptions& o, RunStore& store, std::vector<Tunable> tunables)
        : m_op(op), m_evaluator(e), m_opts(o), m_store(store), m_tunables(std::move(tunables)) {}

    // The candidate of the kernel configuration `config` selects, written and loaded once per
    // kernel configuration: host-only changes share it. Called from one thread only; workers
    // then read the candidates it returned.
    Result<const Candidate*> candidate(const TilingConfig& config) {
        TilingConfig kernel_part;
        for (const auto& t : m_tunables)
            if (t.where == Tunable::Where::kernel) kernel_part[t.name] = config.at(t.name);
        if (auto known = m_candidates.find(kernel_part); known != m_candidates.end()) return &known->second;
        auto made = make_candidate(kernel_part);
        if (!made) return made.error();
        return &m_candidates.emplace(kernel_part, std::move(*made)).first->second;
    }

    Evaluator& evaluator() const { return m_evaluator; }
    // Evaluations whose deciding answer came from the evaluator's memo (eval_memo.h): budget
    // spent, time saved.
    std::atomic<int64_t> replayed{0};
    // Evaluations that stopped after the perf cases (no faster than the best; see run()).
    std::atomic<int64_t> perf_only{0};

    // With `bar` (the best latency of a correct configuration so far), the perf cases run first:
    // a configuration no faster than the bar cannot become the best, whatever the other cases
    // say, so its record is the perf cases' (marked so) and the rest are not run. A faster one,
    // and every one without a bar, is evaluated on every case. Only fully checked records can
    // become the best (their latency is below the bar; these are at or above it).
    EvaluationRecord run(const Candidate& c, const TilingConfig& config, std::optional<double> bar) {
        if (bar) {
            EvalRequest timed = request(config);
            timed.role_filter = CaseRole::perf;
            auto perf = m_evaluator.evaluate(c.op, timed);
            if (perf) {
                EvaluationRecord r = record_of(*perf);
                const bool slower = r.latency_us && *r.latency_us >= *bar;
                if (r.status != EvalStatus::ok || slower) {  // a perf case that fails fails the configuration
                    if (slower) {
                        r.metrics["checked"] = "perf cases only: no faster than the best so far";
                        ++perf_only;
                    }
                    if (perf->replayed) ++replayed;
                    return r;
                }
            }  // an error (no perf case) or a faster configuration: the full evaluation decides
        }
        auto result = m_evaluator.evaluate(c.op, request(config));
        if (!result) return failed(result.error().message);
        if (result->replayed) ++replayed;
        return record_of(*result);
    }

    // Why `config` cannot pass, found without an evaluation (empty when the preflight saw no
    // problem): the twin's preflight verdict, or a block dim beyond the SoC's vector cores.
    Result<std::string> preflight(const Candidate& c, const TilingConfig& config, int64_t cores) {
        auto p = m_evaluator.preflight(c.op, request(config));
        if (!p) return p.error();
        if (p->status != EvalStatus::ok) return std::string(status_name(p->status)) + ": " + p->reason;
        if (p->block_dim > cores)
            return "block dim " + std::to_string(p->block_dim) + " exceeds the " + std::to_string(cores) + " vector cores of the SoC";
        return std::string();
    }

private:
    // Host constants reach the operator through its environment: no rebuild per configuration.
    EvalRequest request(const TilingConfig& config) const { return EvalRequest{.env = host_environment(m_tunables, config)}; }

    Result<Candidate> make_candidate(const TilingConfig& kernel_part) {
        auto files = apply_config(m_op, m_tunables, kernel_part);
        if (!files) return files.error();
        auto hash = m_store.put_candidate(*files);
        if (!hash) return hash.error();
        auto op = materialize_candidate(m_op, *files, *hash, m_opts.out_dir);
        if (!op) return op.error();
        return Candidate{std::move(*op), *hash};
    }

    static EvaluationRecord failed(const std::string& why) {
        EvaluationRecord e;
        e.status = EvalStatus::run_failed;
        e.reason = why;
        return e;
    }

    const OperatorSource& m_op;
    Evaluator& m_evaluator;  // shares the cases' inputs and goldens between configurations
    const TuneOptions& m_opts;
    RunStore& m_store;
    std::vector<Tunable> m_tunables;
    std::map<TilingConfig, Candidate> m_candidates;  // by kernel configuration
};

// Evaluates batches through the ledger. Free answers come first: configurations that break a
// declared constraint are rejected, repeats are cache hits. New configurations then get a
// preflight (in parallel) that rejects certain failures (UB overflow, failing tiling, too many
// blocks) without spending budget; budget goes to the rest in proposal order, and they are
// evaluated in parallel, each committed as soon as it ends. A batch is cut short where a new
// evaluation meets an empty budget.
class BatchRunner {
public:
    BatchRunner(Session& s, EvaluationLedger& l, const TuneOptions& o, std::vector<Constraint> constraints,
                std::map<std::string, int64_t> constants)
        : m_session(s), m_ledger(l), m_opts(o), m_constraints(std::move(constraints)), m_constants(std::move(constants)) {}

    // `precheck` false evaluates even what the preflight would reject (the baseline: the
    // user's own configuration is measured as it is). `perf_first` false runs every case of
    // every configuration (the screening, which asks whether a tunable changes anything at all).
    Result<std::vector<Trial>> run(const std::vector<TilingConfig>& batch, bool precheck = true, bool perf_first = true) {
        std::vector<Trial> trials(batch.size());
        std::vector<const Candidate*> where(batch.size());
        std::vector<bool> fresh(batch.size(), false);
        for (size_t i = 0; i < batch.size(); ++i) {
            trials[i].config = batch[i];
            auto violated = check(batch[i]);
            if (!violated) return violated.error();
            if (!violated->empty()) {
                trials[i].status = EvalStatus::rejected;
                ++rejected_by_constraints;
                continue;
            }
            auto cand = m_session.candidate(batch[i]);
            if (!cand) return cand.error();
            where[i] = *cand;
            auto hit = m_ledger.lookup((*cand)->hash, to_json(batch[i]));
            if (!hit) return hit.error();
            if (*hit) {
                trials[i].status = (*hit)->status;
                trials[i].latency_us = (*hit)->latency_us;
                lower_bar(**hit);
                ++cache_hits;
            } else {
                fresh[i] = true;
            }
        }
        if (precheck)
            if (auto s = preflight(batch, where, fresh, trials); !s) return s.error();
        return evaluate(batch, where, fresh, trials, perf_first);
    }

    int64_t cache_hits = 0;
    int64_t rejected_by_constraints = 0;
    int64_t rejected_by_preflight = 0;
    nlohmann::json preflight_rejections = nlohmann::json::array();  // the first few, with reasons

private:
    // The best latency of any passing record seen (see Session::run). It may come from a record
    // that finished before earlier ones were committed: work is handed out in proposal order, so a
    // configuration measured against the bar comes after the evaluation that set it in commit
    // order, and the best-so-far curve is the same as if every case had run.
    std::optional<double> m_bar;
    void lower_bar(const EvaluationRecord& r) {
        if (r.status == EvalStatus::ok && r.latency_us && (!m_bar || *r.latency_us < *m_bar)) m_bar = r.latency_us;
    }

    Status preflight(const std::vector<TilingConfig>& batch, const std::vector<const Candidate*>& where,
                     std::vector<bool>& fresh, std::vector<Trial>& trials) {
        const int64_t cores = m_constants.at("CORES");
        std::vector<size_t> todo;
        for (size_t i = 0; i < batch.size(); ++i)
            if (fresh[i]) todo.push_back(i);
        std::vector<std::optional<Result<std::string>>> why(batch.size());
        for_each_parallel(todo.size(), m_opts.workers, [&](size_t k) {
            const size_t i = todo[k];
            why[i] = m_session.preflight(*where[i], batch[i], cores);
        });
        for (const size_t i : todo) {
            if (!*why[i]) return why[i]->error();
            if ((*why[i])->empty()) continue;
            fresh[i] = false;
            trials[i].status = EvalStatus::rejected;
            ++rejected_by_preflight;
            if (preflight_rejections.size() < 20) preflight_rejections.push_back({{"config", to_json(batch[i])}, {"reason", **why[i]}});
        }
        return ok_status();
    }

    // Budget goes to the fresh configurations in proposal order, so what is evaluated does not
    // depend on timing. Evaluations run in parallel but are committed in proposal order, each
    // as soon as it and every one before it have ended: the store's order (the study's progress
    // curve) never depends on timing, and a kill loses only evaluations not yet committed.
    Result<std::vector<Trial>> evaluate(const std::vector<TilingConfig>& batch, const std::vector<const Candidate*>& where,
                                        const std::vector<bool>& fresh, std::vector<Trial>& trials, bool perf_first) {
        int64_t budget_left = m_ledger.budget().remaining();
        size_t kept = batch.size();
        std::vector<size_t> todo;
        for (size_t i = 0; i < batch.size() && kept == batch.size(); ++i) {
            if (!fresh[i]) continue;
            if (budget_left-- > 0) todo.push_back(i);
            else kept = i;
        }
        std::mutex commit_mutex;
        std::optional<Error> failure;
        std::map<size_t, EvaluationRecord> ended;  // batch index -> record, waiting for those before it
        size_t next_commit = 0;                    // position in `todo`
        for_each_parallel(todo.size(), m_opts.workers, [&](size_t k) {
            const size_t i = todo[k];
            std::optional<double> bar;
            {
                std::lock_guard lock(commit_mutex);
                if (perf_first) bar = m_bar;
            }
            EvaluationRecord r = m_session.run(*where[i], batch[i], bar);
            r.candidate = where[i]->hash;
            r.config = to_json(batch[i]);
            r.seed = m_session.evaluator().options().seed;
            r.latency_source = latency_source_of(m_session.evaluator().options().backend);
            std::lock_guard lock(commit_mutex);
            trials[i].status = r.status;
            trials[i].latency_us = r.latency_us;
            lower_bar(r);
            ended.emplace(i, std::move(r));
            for (; next_commit < todo.size() && ended.count(todo[next_commit]); ++next_commit) {
                auto node = ended.extract(todo[next_commit]);
                if (auto st = m_ledger.commit(node.mapped()); !st && !failure) failure = st.error();
            }
        });
        if (failure) return *failure;
        trials.resize(kept);
        return trials;
    }

    // The first violated constraint (empty when none).
    Result<std::string> check(const TilingConfig& config) {
        std::map<std::string, int64_t> vars = m_constants;
        for (const auto& [k, v] : config) vars[k] = v;
        for (const auto& c : m_constraints) {
            auto v = evaluate_expression(c.text, vars);
            if (!v) return make_error(c.where + ": " + v.error().message);
            if (*v == 0) return c.text;
        }
        return std::string();
    }

    Session& m_session;
    EvaluationLedger& m_ledger;
    const TuneOptions& m_opts;
    std::vector<Constraint> m_constraints;
    std::map<std::string, int64_t> m_constants;
};

// Drops discovered tunables whose neighbouring values (one below, one above) change nothing:
// same status, same latency. Marked tunables always stay. Each probe is an evaluation.
Result<std::vector<Tunable>> screen(const std::vector<Tunable>& tunables, const TilingConfig& original, const Trial& baseline,
                                    BatchRunner& runner) {
    std::vector<TilingConfig> probes;
    std::vector<size_t> probed;  // tunable index of each probe
    for (size_t i = 0; i < tunables.size(); ++i) {
        const Tunable& t = tunables[i];
        if (t.origin == Tunable::Origin::marked || t.domain.size() < 2) continue;
        const size_t at = size_t(std::find(t.domain.begin(), t.domain.end(), t.value) - t.domain.begin());
        for (const size_t k : {at - 1, at + 1}) {  // at - 1 wraps past the end when at == 0
            if (k >= t.domain.size()) continue;
            TilingConfig c = original;
            c[t.name] = t.domain[k];
            probes.push_back(c);
            probed.push_back(i);
        }
    }
    auto trials = runner.run(probes, true, false);
    if (!trials) return trials.error();
    std::vector<bool> effect(tunables.size(), false), seen(tunables.size(), false);
    for (size_t k = 0; k < trials->size(); ++k) {
        seen[probed[k]] = true;
        effect[probed[k]] = effect[probed[k]] || (*trials)[k].status != baseline.status || (*trials)[k].latency_us != baseline.latency_us;
    }
    std::vector<Tunable> kept;
    for (size_t i = 0; i < tunables.size(); ++i)
        if (effect[i] || !seen[i] || tunables[i].origin == Tunable::Origin::marked || tunables[i].domain.size() < 2)
            kept.push_back(tunables[i]);
    return kept;
}

}  // namespace

uint64_t soc_ub_bytes(const EvalOptions& eval) { return eval.soc_description["memory"].value("ub", uint64_t(196608)); }

namespace {

// The run a tune spends from: its own run store under out_dir, or a larger run's ledger.
struct OwnOrShared {
    std::optional<RunStore> store;
    std::optional<EvaluationLedger> ledger;
    EvaluationLedger* in_use = nullptr;
    std::filesystem::path store_file;
};

Result<std::unique_ptr<OwnOrShared>> open_run(const OperatorSource& op, const EvalOptions& eval, const TuneOptions& options, SharedRun* shared) {
    auto r = std::make_unique<OwnOrShared>();
    if (shared) {  // the larger run has set what may be spent in all
        r->in_use = &shared->ledger;
        r->store_file = shared->store_file;
        return r;
    }
    r->store_file = options.out_dir / "run.db";
    auto store = RunStore::open(r->store_file);
    if (!store) return store.error();
    r->store.emplace(std::move(*store));
    const nlohmann::json settings = {{"operator", op.root.string()}, {"strategy", options.strategy}, {"seed", options.seed},
                                     {"budget", options.budget}, {"soc", eval.soc}, {"input_seed", eval.seed}};
    auto run = r->store->open_run("tune", settings);
    if (!run) return run.error();
    auto ledger = EvaluationLedger::open(*r->store, *run, options.budget);
    if (!ledger) return ledger.error();
    r->ledger.emplace(std::move(*ledger));
    r->in_use = &*r->ledger;
    return r;
}

}  // namespace

namespace {

// Under --robust (EvalOptions::robust_variants): the best configuration replaces the original
// only when it is faster under every variant of the SoC; otherwise the original stands and
// `result.robust` says why. The re-timings re-simulate two configurations already evaluated:
// they cost no budget.
// A configuration that passed, with its latency on the nominal SoC.
struct Passed {
    TilingConfig config;
    double latency_us = 0;
};

// How many of the fastest configurations --robust checks, fastest first, before the original
// stands: each check re-times two programs under every variant.
constexpr size_t k_robust_tries = 3;

// Under --robust: the fastest configuration that is faster than the original under every SoC
// variant, of the k_robust_tries fastest that are faster on the nominal SoC; else the original.
Status keep_only_robust(Session& session, const std::vector<Tunable>& tunables, std::vector<Passed> passed, TuneResult& result) {
    const auto variants = robust_variants(session.evaluator().options());
    if (variants.empty() || !result.baseline_us || result.best == result.baseline) return ok_status();
    std::stable_sort(passed.begin(), passed.end(), [](const Passed& a, const Passed& b) { return a.latency_us < b.latency_us; });
    std::erase_if(passed, [&](const Passed& p) { return p.config == result.baseline || p.latency_us >= *result.baseline_us; });
    auto base = session.candidate(result.baseline);
    if (!base) return base.error();
    std::string fastest_loses;
    std::vector<TilingConfig> seen;  // a configuration evaluated twice (a replay) is checked once
    size_t tried = 0;
    for (const Passed& p : passed) {
        if (tried == k_robust_tries) break;
        if (std::find(seen.begin(), seen.end(), p.config) != seen.end()) continue;
        seen.push_back(p.config);
        ++tried;
        auto candidate = session.candidate(p.config);
        if (!candidate) return candidate.error();
        auto g = robust_gain({(*base)->op, host_environment(tunables, result.baseline)}, {(*candidate)->op, host_environment(tunables, p.config)},
                             variants, session.evaluator());
        if (g && g->worst > 1) {
            result.robust = "faster everywhere: " + describe_robust(*g);
            if (tried > 1) result.robust += "; the fastest configuration was not (" + fastest_loses + ")";
            result.best = p.config;
            result.best_us = p.latency_us;
            return ok_status();
        }
        if (tried == 1) fastest_loses = g ? describe_robust(*g) : g.error().message;
    }
    result.robust = (tried > 1 ? "the " + std::to_string(tried) + " fastest configurations are" : std::string("the best configuration is")) +
                    " not faster everywhere (the fastest: " + fastest_loses + "): the original configuration stands";
    result.best = result.baseline;
    result.best_us = result.baseline_us;
    return ok_status();
}

}  // namespace

Result<TuneResult> tune(const OperatorSource& op, Evaluator& evaluator, const TuneOptions& options,
                        const std::function<void(const TuneProgress&)>& progress, SharedRun* shared) {
    const auto start = std::chrono::steady_clock::now();
    const EvalOptions& eval = evaluator.options();
    const uint64_t ub = soc_ub_bytes(eval);
    const int64_t cores = eval.soc_description["cores"].value("vector", int64_t(48));
    std::vector<std::string> left_out;
    auto tunables = find_tunables(op, ub, &left_out);
    if (!tunables) return tunables.error();
    if (tunables->empty()) return TuneResult{.op = op.display_name(), .nothing_to_tune = true};
    auto strategy_check = make_strategy(options.strategy, SearchSpace(*tunables), options.seed);
    if (!strategy_check) return strategy_check.error();

    std::error_code ec;
    fs::create_directories(options.out_dir, ec);
    auto opened = open_run(op, eval, options, shared);
    if (!opened) return opened.error();
    EvaluationLedger* ledger = (*opened)->in_use;
    const fs::path store_file = (*opened)->store_file;
    const int64_t spent_before = shared ? ledger->budget().used() : 0;  // by the larger run
    Session session(op, evaluator, options, ledger->store(), *tunables);
    BatchRunner runner(session, *ledger, options, find_constraints(op), {{"UB_BYTES", int64_t(ub)}, {"CORES", cores}});

    TuneResult result;
    result.baseline = SearchSpace(*tunables).original();
    std::vector<Passed> passed;  // for --robust: the next fastest when the fastest is not robust
    TuneProgress p;
    p.budget = options.budget;
    int64_t proposals = 0;
    auto account = [&](const std::vector<Trial>& trials) {
        for (const auto& t : trials) {
            ++proposals;
            if (t.config == result.baseline) result.baseline_us = t.latency_us;
            if (t.status == EvalStatus::ok && t.latency_us) passed.push_back({t.config, *t.latency_us});
            if (t.status == EvalStatus::ok && t.latency_us && (!result.best_us || *t.latency_us < *result.best_us)) {
                result.best_us = t.latency_us;
                result.best = t.config;
            }
        }
        p.used = ledger->budget().used();
        p.cache_hits = runner.cache_hits;
        p.best_us = result.best_us;
        p.baseline_us = result.baseline_us;
        p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        progress(p);
    };

    // The baseline, then screening, then the search over what has an effect.
    auto base = runner.run({result.baseline}, false);
    if (!base) return base.error();
    account(*base);
    std::vector<Tunable> searched = *tunables;
    if (!base->empty() && base->front().status == EvalStatus::ok && tunables->size() > 1) {
        auto kept = screen(*tunables, result.baseline, base->front(), runner);
        if (!kept) return kept.error();
        searched = *kept;
    }
    result.tunables = searched;
    const SearchSpace space(searched);
    auto strategy = make_strategy(options.strategy, space, options.seed);
    if (!strategy) return strategy.error();
    for (;;) {
        auto batch = (*strategy)->ask(k_batch);
        if (batch.empty()) break;
        for (auto& c : batch)
            for (const auto& t : *tunables)
                c.emplace(t.name, t.value);  // screened-out tunables stay at their original value
        auto trials = runner.run(batch);
        if (!trials) return trials.error();
        account(*trials);
        (*strategy)->tell(*trials);
        // Only a proposal that needs a new evaluation ends the search when the budget is spent:
        // a resumed run replays its committed evaluations as free cache hits first.
        if (trials->size() < batch.size()) break;
    }
    result.evaluations = ledger->budget().used() - spent_before;
    result.cache_hits = runner.cache_hits;
    if (!result.best_us) return make_error("no configuration of " + op.display_name() + " passed its cases", "see the run store: " + store_file.string());
    if (auto kept = keep_only_robust(session, *tunables, std::move(passed), result); !kept) return kept.error();

    for (const auto& t : *tunables) result.best.emplace(t.name, t.value);
    auto baked = bake_config(op, *tunables, result.best);
    if (!baked) return baked.error();
    result.tuned_dir = options.out_dir / "tuned" / op.root.filename();
    for (const auto& f : op.all_files) {
        const std::string rel = fs::relative(f, op.root).string();
        fs::create_directories((result.tuned_dir / rel).parent_path());
        if (auto s = write_atomic(result.tuned_dir / rel, baked->at(rel)); !s) return s.error();
    }
    for (const auto& extra : {fs::path("ascendopt.toml"), fs::path("tests")})  // cases travel with the tuned operator
        if (fs::exists(op.root / extra)) fs::copy(op.root / extra, result.tuned_dir / extra, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
    for (const auto& g : fs::directory_iterator(op.root))
        if (g.is_regular_file() && !fs::exists(result.tuned_dir / g.path().filename())) fs::copy_file(g.path(), result.tuned_dir / g.path().filename(), ec);

    nlohmann::json tunables_json = nlohmann::json::array();
    for (const auto& t : *tunables) {
        nlohmann::json j = to_json(t);
        j["searched"] = std::any_of(searched.begin(), searched.end(), [&](const Tunable& s) { return s.name == t.name; });
        tunables_json.push_back(j);
    }
    result.summary = {{"operator", op.display_name()}, {"strategy", options.strategy}, {"seed", options.seed}, {"budget", options.budget},
                      {"evaluations", result.evaluations}, {"cache_hits", result.cache_hits},
                      {"replayed", session.replayed.load()}, {"perf_only", session.perf_only.load()}, {"proposals", proposals},
                      {"rejected_by_constraints", runner.rejected_by_constraints},
                      {"rejected_by_preflight", runner.rejected_by_preflight}, {"preflight_rejections", runner.preflight_rejections},
                      {"baseline_config", to_json(result.baseline)}, {"best_config", to_json(result.best)},
                      {"latency_unit", "us"}, {"latency_source", latency_source_of(evaluator.options().backend)}, {"tunables", tunables_json},
                      {"tuned_operator", result.tuned_dir.string()}, {"run_store", store_file.string()}};
    result.summary["left_out"] = left_out;  // constants not tuned, and why
    if (!result.robust.empty()) result.summary["robust"] = result.robust;
    result.summary["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();  // this invocation
    if (result.baseline_us) result.summary["baseline_latency"] = *result.baseline_us;
    result.summary["best_latency"] = *result.best_us;
    if (result.baseline_us) result.summary["speedup"] = *result.baseline_us / *result.best_us;
    auto latencies = ledger->latencies();
    if (!latencies) return latencies.error();
    result.latencies = std::move(*latencies);
    if (auto s = write_atomic(options.out_dir / "summary.json", result.summary.dump(2)); !s) return s.error();
    return result;
}

}  // namespace ascendopt
