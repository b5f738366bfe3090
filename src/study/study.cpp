#include "study/study.h"

#include <chrono>
#include <mutex>
#include <optional>

#include "llm/call_log.h"
#include "util/file_lock.h"
#include "util/files.h"
#include "util/json_bounded.h"
#include "util/parallel.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

// What the job's LLM cost, from its call log (empty when it made no call).
nlohmann::json llm_totals(const fs::path& call_db) {
    if (!fs::exists(call_db)) return nlohmann::json::object();
    auto log = SqliteCallLog::open(call_db);
    if (!log) return nlohmann::json::object();
    auto t = (*log)->totals();
    if (!t) return nlohmann::json::object();
    return {{"calls", t->calls}, {"failed", t->failed}, {"prompt_tokens", t->prompt_tokens}, {"completion_tokens", t->completion_tokens},
            {"cost_usd", t->cost_usd}};
}

// The run of a job done before, when its result.json reads back.
std::optional<MethodRun> saved_run(const StudyJob& job) {
    auto saved = read_text(job.dir / "result.json");
    if (!saved) return std::nullopt;
    const auto j = parse_bounded_json(*saved, "result.json");
    if (!j) return std::nullopt;
    MethodRun run = method_run_from_json(*j);
    run.level = job.target->level;  // suite.toml may have changed since
    run.seed = job.seed;
    return run;
}

// One (method, operator): read back when done before, else run (resuming from its stores).
// One writer per job folder: a job another process is running (a second `bench` on the same
// --out, a cluster task) is refused, never run twice into the same stores.
Result<MethodRun> run_job(const StudyJob& job, const StudyPlan& plan, Evaluator& evaluator) {
    if (auto saved = saved_run(job)) return *saved;
    auto op = load_operator(job.target->dir);
    if (!op) return op.error();
    std::error_code ec;
    fs::create_directories(job.dir, ec);
    if (ec) return make_error("cannot create " + job.dir.string() + ": " + ec.message());
    auto lock = FileLock::try_acquire(job.dir / ".writer.lock");
    if (!lock) return lock.error();
    if (!*lock)
        return make_error("another ascendopt is running this job (it holds " + (job.dir / ".writer.lock").string() + ")",
                          "wait for it to finish; a rerun then reads its result back");
    if (auto saved = saved_run(job)) return *saved;  // it finished while we waited for the folder
    std::optional<Bank> bank;  // one connection per job: jobs run on several threads
    if (!plan.bank.empty()) {
        auto b = Bank::open(plan.bank);
        if (!b) return b.error();
        bank.emplace(std::move(*b));
    }
    // Each study seed measures on inputs of its own (the first, the session's seed, on the
    // session's): the spread over seeds then covers the inputs as well as the search.
    InputSeedEvaluator seeded(evaluator, job.seed);
    MethodContext c{.evaluator = seeded,
                    .search_seed = job.seed,
                    .budget = plan.budget,
                    .rewind_share = plan.rewind_share,
                    .out_dir = job.dir,
                    .bank = bank ? &*bank : nullptr,
                    .bank_path = plan.bank.string()};
    if (job.method->uses_llm && plan.attach_llm)
        if (auto s = plan.attach_llm(job, c); !s) return s.error();
    auto made = run_method(*job.method, *op, c);
    if (!made) return made.error();
    MethodRun run = std::move(*made);
    run.op = job.target->op;
    run.level = job.target->level;
    run.seed = job.seed;
    run.detail["llm"] = llm_totals(job.dir / "llm-calls.db");
    if (auto w = write_atomic(job.dir / "result.json", to_json(run).dump(2) + "\n"); !w) return w.error();
    return run;
}

// A job whose method failed on its operator (it does not build, a stage refused it).
MethodRun failed_run(const StudyJob& job, const Error& e) {
    MethodRun r;
    r.method = job.method->name;
    r.op = job.target->op;
    r.level = job.target->level;
    r.seed = job.seed;
    r.detail = {{"error", e.message}, {"hint", e.hint}};
    return r;
}

}  // namespace

fs::path study_job_dir(const fs::path& out, const std::string& method, uint64_t seed, bool several_seeds, const std::string& op) {
    const fs::path method_dir = out / method;
    return (several_seeds ? method_dir / ("seed-" + std::to_string(seed)) : method_dir) / op;
}

std::vector<StudyJob> study_jobs(const StudyPlan& plan) {
    std::vector<StudyJob> jobs;
    for (const MethodInfo* m : plan.methods)
        for (uint64_t seed : plan.seeds)
            for (const auto& t : plan.targets) jobs.push_back({m, &t, seed, study_job_dir(plan.out, m->name, seed, plan.seeds.size() > 1, t.op)});
    return jobs;
}

std::string study_job_key(const StudyPlan& plan, const StudyJob& job) { return job.dir.lexically_relative(plan.out).generic_string(); }

bool study_job_finished(const StudyJob& job) { return saved_run(job).has_value(); }

Result<StudyOutcome> run_study(const StudyPlan& plan, Evaluator& evaluator) {
    const std::vector<StudyJob> jobs = study_jobs(plan);
    // Run seed by seed, and within a seed operator by operator with every method on it, so that
    // a study stopped part way has each method on the same operators (and the jobs running side
    // by side share the operator's builds). Results are still filed by (method, seed, target).
    std::vector<size_t> order;
    const size_t per_method = plan.seeds.size() * plan.targets.size();
    for (size_t s = 0; s < plan.seeds.size(); ++s)
        for (size_t t = 0; t < plan.targets.size(); ++t)
            for (size_t m = 0; m < plan.methods.size(); ++m) order.push_back(m * per_method + s * plan.targets.size() + t);
    std::vector<std::optional<MethodRun>> runs(jobs.size());
    std::mutex mutex;
    std::optional<Error> fatal;
    StudyOutcome out;
    size_t done = 0;
    const auto start = std::chrono::steady_clock::now();
    for_each_parallel(order.size(), plan.parallel, [&](size_t k) {
        const size_t i = order[k];
        {
            std::lock_guard lock(mutex);
            if (fatal) return;
        }
        const bool ours = !plan.runs_only || plan.runs_only->count(study_job_key(plan, jobs[i]));
        auto saved = ours ? std::nullopt : saved_run(jobs[i]);
        auto r = ours ? run_job(jobs[i], plan, evaluator) : saved ? Result<MethodRun>(*saved) : Result<MethodRun>(make_error(plan.not_run_reason));
        std::lock_guard lock(mutex);
        const std::string what = jobs[i].method->name + " on " + jobs[i].target->op +
                                 (plan.seeds.size() == 1 ? "" : " (seed " + std::to_string(jobs[i].seed) + ")");
        if (!r && r.error().missing_tool) {
            if (!fatal) {
                fatal = r.error();
                fatal->message = what + ": " + fatal->message;
            }
            return;
        }
        if (!r) out.failures.push_back(what + ": " + r.error().message);
        runs[i] = r ? std::move(*r) : failed_run(jobs[i], r.error());
        ++done;
        if (plan.on_done) plan.on_done(done, jobs.size(), *runs[i], std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    });
    if (fatal) return *fatal;
    // Filed by (method, seed, target), whatever order the jobs ended in.
    size_t i = 0;
    for (const MethodInfo* m : plan.methods) {
        out.by_method.push_back({m->name, {}});
        for (size_t k = 0; k < plan.seeds.size() * plan.targets.size(); ++k, ++i) out.by_method.back().second.push_back(std::move(*runs[i]));
    }
    return out;
}

}  // namespace ascendopt
