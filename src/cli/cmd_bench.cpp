// `ascendopt bench SUITE --methods LIST --budget N --seed S --out DIR`: every method on every
// operator of the suite at the same budget, then the study's metrics. Each (method, operator)
// is a job with its own folder DIR/<method>/<operator>/ (run stores, LLM cassette and call log)
// and writes result.json when done, so a killed bench resumes: finished jobs are read back,
// unfinished ones resume from their stores. Jobs run --parallel at a time; results are filed
// by position, so they do not depend on which job finished first. A job that fails is
// reported, counts as finding nothing, and is retried by the next run (exit code 1).

#include <atomic>
#include <chrono>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/config.h"
#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "cli/run_llm.h"
#include "cli/session.h"
#include "study/methods.h"
#include "study/metrics.h"
#include "study/results.h"
#include "study/suite.h"
#include "util/files.h"
#include "util/json_bounded.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

struct BenchArgs {
    std::string suite;
    std::string methods = "ascendopt,stage2";
    int64_t budget = 20;
    int64_t rewind_share = -1;  // -1: 20/230 of the budget, as the reference study
    int parallel = int(std::max(1u, std::thread::hardware_concurrency()));
    std::string out = "ascendopt-bench";
    std::string bank;
    bool json = false;
    bool quiet = false;
    SettingFlags settings;
    EvalOptions eval;
};

Result<std::vector<const MethodInfo*>> chosen_methods(const std::string& list, bool have_llm) {
    std::vector<const MethodInfo*> out;
    std::stringstream ss(list);
    for (std::string name; std::getline(ss, name, ',');) {
        const MethodInfo* m = find_method(name);
        if (!m) {
            std::string known;
            for (const auto& x : study_methods()) known += (known.empty() ? "" : ", ") + x.name;
            return make_error("unknown method '" + name + "'", "the methods: " + known);
        }
        if (m->needs_llm && !have_llm) {
            std::cerr << "ascendopt: skipping " << name << ": it needs an LLM (set ASCENDOPT_LLM_BASE_URL and ASCENDOPT_LLM_MODEL; docs/llm.md)\n";
            continue;
        }
        out.push_back(m);
    }
    return out;
}

// The evaluations the experience bank costs each operator (the reference study: 20 of 230).
int64_t rewind_share_of(const BenchArgs& a) { return a.rewind_share >= 0 ? a.rewind_share : int64_t(double(a.budget) * 20.0 / 230.0 + 0.5); }

struct Job {
    const MethodInfo* method;
    const StudyTarget* target;
    fs::path dir;
};

// What every job shares; read-only while jobs run, except through the session's thread-safe
// builder and golden runner.
struct Shared {
    const BenchArgs& args;
    EvalSession& session;
    const LlmConfig& llm;
    const TemplateStore* templates;
    int64_t rewind_share;
};

nlohmann::json llm_totals(const fs::path& call_db) {
    if (!fs::exists(call_db)) return nlohmann::json::object();
    auto log = SqliteCallLog::open(call_db);
    if (!log) return nlohmann::json::object();
    auto t = (*log)->totals();
    if (!t) return nlohmann::json::object();
    return {{"calls", t->calls}, {"failed", t->failed}, {"prompt_tokens", t->prompt_tokens}, {"completion_tokens", t->completion_tokens}, {"cost_usd", t->cost_usd}};
}

// One (method, operator): read back when done before, else run (resuming from its stores).
Result<MethodRun> run_job(const Job& job, const Shared& s) {
    if (auto saved = read_text(job.dir / "result.json"); saved) {
        if (const auto j = parse_bounded_json(*saved, "result.json")) {
            MethodRun run = method_run_from_json(*j);
            run.level = job.target->level;  // suite.toml may have changed since
            return run;
        }
    }
    auto op = load_operator(job.target->dir);
    if (!op) return op.error();
    std::error_code ec;
    fs::create_directories(job.dir, ec);
    if (ec) return make_error("cannot create " + job.dir.string() + ": " + ec.message());
    std::optional<Bank> bank;  // one connection per job: jobs run on several threads
    if (!s.args.bank.empty()) {
        auto b = Bank::open(s.args.bank);
        if (!b) return b.error();
        bank.emplace(std::move(*b));
    }
    MethodContext c{*s.session.evaluator, s.args.budget, s.rewind_share, job.dir, bank ? &*bank : nullptr, s.args.bank};
    if (job.method->uses_llm) {
        auto llm = run_llm(s.llm, job.dir, job.dir / "llm-calls.db");
        if (!llm) return llm.error();
        c.make_proposer = llm->make_proposer;
        c.proposer_identity = llm->identity;
        c.templates = s.templates;
        c.params = llm->params;
    }
    auto made = run_method(*job.method, *op, c);
    if (!made) return made.error();
    MethodRun run = std::move(*made);
    run.op = job.target->op;
    run.level = job.target->level;
    run.detail["llm"] = llm_totals(job.dir / "llm-calls.db");
    if (auto w = write_atomic(job.dir / "result.json", to_json(run).dump(2) + "\n"); !w) return w.error();
    return run;
}

// "bench: [#####-----] 5/10 stage2 add_custom 1.21x, ETA 40 s"; one line per finished job.
void report_done(size_t done, size_t total, const MethodRun& r, double seconds) {
    const size_t width = 20, filled = total ? done * width / total : width;
    const double s = run_speedup(r);
    std::cerr << fmt::format("bench: [{}{}] {}/{} {} {} {:.2f}x, ETA {:.0f} s\n", std::string(filled, '#'), std::string(width - filled, '-'), done, total,
                             r.method, r.op, s, seconds / double(done) * double(total - done));
}

// A job whose method failed on its operator (it does not build, a stage refused it): filed as
// finding nothing (speedup 1.0) with the reason, and not saved, so the next run retries it.
MethodRun failed_run(const Job& job, const Error& e) {
    MethodRun r;
    r.method = job.method->name;
    r.op = job.target->op;
    r.level = job.target->level;
    r.detail = {{"error", e.message}, {"hint", e.hint}};
    return r;
}

// Runs every job on `parallel` threads. A job that fails is filed by failed_run() and the
// others go on; a missing tool stops the hand-out of jobs (every job would fail the same way)
// and is returned. Jobs already running finish, and their results are kept for the resume.
Result<std::vector<MethodRun>> run_jobs(const std::vector<Job>& jobs, const Shared& s) {
    std::vector<MethodRun> runs(jobs.size());
    std::atomic<size_t> next{0};
    std::mutex mutex;
    std::optional<Error> fatal;
    size_t done = 0;
    const auto start = std::chrono::steady_clock::now();
    auto work = [&] {
        for (size_t i = next++; i < jobs.size(); i = next++) {
            {
                std::lock_guard lock(mutex);
                if (fatal) return;
            }
            auto r = run_job(jobs[i], s);
            std::lock_guard lock(mutex);
            const std::string what = jobs[i].method->name + " on " + jobs[i].target->op;
            if (!r && r.error().missing_tool) {
                if (!fatal) {
                    fatal = r.error();
                    fatal->message = what + ": " + fatal->message;
                }
                return;
            }
            if (!r) std::cerr << "ascendopt: warning: " << what << " failed: " << r.error().message << "\n";
            runs[i] = r ? std::move(*r) : failed_run(jobs[i], r.error());
            ++done;
            if (!s.args.quiet)
                report_done(done, jobs.size(), runs[i], std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
    };
    std::vector<std::thread> threads;
    for (int t = 1; t < std::min<int>(s.args.parallel, int(jobs.size())); ++t) threads.emplace_back(work);
    work();
    for (auto& t : threads) t.join();
    if (fatal) return *fatal;
    return runs;
}

void print_table(const nlohmann::json& results, size_t operators, const BenchArgs& a) {
    std::cout << fmt::format("{:<22} {:>8}", "method", "GM");
    for (double p : default_fast_ps()) std::cout << fmt::format(" {:>8}", "fast" + fast_p_key(p));
    std::cout << "\n";
    for (const auto& name : results["method_order"]) {
        const auto& all = results["methods"][name.get<std::string>()]["summary"]["all"];
        std::cout << fmt::format("{:<22} {:>7.3f}x", name.get<std::string>(), all["gm"].get<double>());
        for (double p : default_fast_ps()) std::cout << fmt::format(" {:>8.2f}", all["fast_p"][fast_p_key(p)].get<double>());
        std::cout << "\n";
    }
    std::cout << fmt::format("{} operators, budget {} each (simulated latencies)\nresults: {}\n", operators, a.budget,
                             (fs::path(a.out) / "results.json").string());
}

int run_bench(BenchArgs& a) {
    auto settings = Settings::resolve(a.settings);
    auto config = settings ? llm_config(*settings) : Result<LlmConfig>(settings.error());
    if (!config) {
        std::cerr << render_error(config.error());
        return k_exit_bad_input;
    }
    const bool have_llm = !config->kind.empty();
    auto methods = chosen_methods(a.methods, have_llm);
    auto targets = study_targets(a.suite);
    if (!methods || !targets) {
        std::cerr << render_error(!methods ? methods.error() : targets.error());
        return k_exit_bad_input;
    }
    if (targets->empty()) {
        std::cerr << render_error(make_error("no operator folder under " + a.suite, "a suite holds folders with op_host/ and op_kernel/"));
        return k_exit_bad_input;
    }
    const int64_t share = rewind_share_of(a);
    for (const MethodInfo* m : *methods)
        if (auto ok = check_budget(*m, a.budget, share); !ok) {
            std::cerr << render_error(ok.error());
            return k_exit_bad_input;
        }
    if (!a.bank.empty() && !fs::exists(a.bank)) {
        std::cerr << render_error(make_error("no experience bank at " + a.bank, "build one first: ascendopt rewind " + a.suite + " --bank " + a.bank));
        return k_exit_bad_input;
    }
    auto opened = open_session(a.eval);
    if (auto* code = std::get_if<int>(&opened)) return *code;
    EvalSession& session = std::get<EvalSession>(opened);
    std::optional<TemplateStore> templates;
    if (have_llm) templates.emplace(session.toolchain.share_dir / "templates", settings->get("templates.dir"));
    std::vector<Job> jobs;
    for (const MethodInfo* m : *methods)
        for (const auto& t : *targets) jobs.push_back({m, &t, fs::path(a.out) / m->name / t.op});
    const Shared shared{a, session, *config, templates ? &*templates : nullptr, share};
    auto runs = run_jobs(jobs, shared);
    if (!runs) {
        std::cerr << render_error(runs.error());
        return exit_code_for(runs.error());
    }
    std::vector<std::string> failures;
    for (const auto& r : *runs)
        if (r.detail.contains("error")) failures.push_back(r.method + " on " + r.op + ": " + r.detail["error"].get<std::string>());
    std::vector<std::pair<std::string, std::vector<MethodRun>>> by_method;
    for (size_t i = 0; i < runs->size(); ++i) {
        if (i % targets->size() == 0) by_method.push_back({jobs[i].method->name, {}});
        by_method.back().second.push_back(std::move((*runs)[i]));
    }
    const auto results = study_results({a.suite, a.budget, a.eval.seed, share}, by_method);
    if (auto w = write_atomic(fs::path(a.out) / "results.json", results.dump(2) + "\n"); !w) return k_exit_environment;
    if (auto w = write_atomic(fs::path(a.out) / "results.csv", study_csv(results)); !w) return k_exit_environment;
    if (a.json)
        std::cout << results.dump(2) << "\n";
    else
        print_table(results, targets->size(), a);
    if (failures.empty()) return k_exit_ok;
    std::cerr << fmt::format("ascendopt: {} of {} jobs failed; they count as finding nothing and are retried on the next run:\n", failures.size(), jobs.size());
    for (const auto& f : failures) std::cerr << "  " << f << "\n";
    return k_exit_failed;
}

}  // namespace

CommandRunner add_bench_command(CLI::App& app) {
    auto a = std::make_shared<BenchArgs>();
    CLI::App* cmd = app.add_subcommand("bench", "The study: methods compared at the same budget per operator");
    cmd->add_option("suite", a->suite, "Folder of operators (OP/baseline/ is the implementation to speed up where present; levels from suite.toml)")
        ->required();
    cmd->add_option("--methods", a->methods, "Comma-separated: ascendopt, stage1, stage1-no-experience, stage2, best-of-n, openevolve")
        ->capture_default_str();
    cmd->add_option("--budget", a->budget, "Unique evaluations per method and operator")->check(CLI::Range(2, 100000))->capture_default_str();
    cmd->add_option("--rewind-share", a->rewind_share,
                    "Evaluations of each operator's budget charged to building the bank (ascendopt, stage1); default 20/230 of --budget")
        ->check(CLI::Range(0, 100000));
    cmd->add_option("--parallel", a->parallel, "(method, operator) jobs run at once")->check(CLI::Range(1, 256))->capture_default_str();
    cmd->add_option("--out", a->out, "Output folder; rerun to resume")->capture_default_str();
    cmd->add_option("--bank", a->bank, "Experience bank for ascendopt and stage1 (ascendopt rewind builds one)");
    cmd->add_flag("--json", a->json, "Print results.json");
    cmd->add_flag("--quiet,-q", a->quiet, "No progress on stderr");
    add_common_eval_options(*cmd, a->eval);
    add_setting_flags(*cmd, a->settings);
    cmd->footer(k_exit_codes_help);
    return [a] { return run_bench(*a); };
}

}  // namespace ascendopt
