// `ascendopt bench SUITE --methods LIST --budget N --seed S --out DIR`: every method on every
// operator of the suite at the same budget (study/study.h runs the jobs, resumes and files
// them), then the study's metrics. This file parses the options, sets up each job's LLM and
// prints; a job that failed makes the exit code 1.

#include <chrono>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/bench_sensitivity.h"
#include "cli/slurm_executor.h"
#include "cli/config.h"
#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "cli/run_llm.h"
#include "cli/session.h"
#include "study/methods.h"
#include "study/metrics.h"
#include "study/results.h"
#include "study/study.h"
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
    int seeds = 1;
    bool json = false;
    bool quiet = false;
    bool sensitivity = false;
    int sensitivity_samples = 8;
    ExecutorOptions executor;
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

// --seeds N: the study seeds --seed, --seed + 1, ..., each a full repetition of the study.
std::vector<uint64_t> study_seeds(const BenchArgs& a) {
    std::vector<uint64_t> out;
    for (int k = 0; k < a.seeds; ++k) out.push_back(a.eval.seed + uint64_t(k));
    return out;
}

// The evaluations the experience bank costs each operator (the reference study: 20 of 230).
int64_t rewind_share_of(const BenchArgs& a) { return a.rewind_share >= 0 ? a.rewind_share : int64_t(double(a.budget) * 20.0 / 230.0 + 0.5); }

// "bench: [#####-----] 5/10 stage2 add_custom 1.21x, ETA 40 s"; one line per finished job.
void report_done(size_t done, size_t total, const MethodRun& r, bool several_seeds, double seconds) {
    const size_t width = 20, filled = total ? done * width / total : width;
    const double s = run_speedup(r);
    std::cerr << fmt::format("bench: [{}{}] {}/{} {}{} {} {:.2f}x, ETA {:.0f} s\n", std::string(filled, '#'), std::string(width - filled, '-'), done,
                             total, r.method, several_seeds ? fmt::format(" seed {}", r.seed) : "", r.op, s,
                             seconds / double(done) * double(total - done));
}

// One row per method; with several seeds each figure is the mean over seeds followed by its 95%
// confidence interval.
void print_table(const nlohmann::json& results, size_t operators, const BenchArgs& a) {
    const bool seeded = a.seeds > 1;
    // With intervals the rows grow wide: fast_1.0 and fast_1.2 only (results.json has the rest).
    const std::vector<double> ps = seeded ? std::vector<double>{1.0, 1.2} : default_fast_ps();
    std::cout << fmt::format("{:<22} {:>{}}", "method", "GM", seeded ? 26 : 9);
    for (double p : ps) std::cout << fmt::format(" {:>{}}", "fast" + fast_p_key(p), seeded ? 21 : 8);
    std::cout << "\n";
    for (const auto& name : results["method_order"]) {
        const auto& summary = results["methods"][name.get<std::string>()]["summary"];
        const auto& all = summary["all"];
        const auto& ci = summary["interval95"];
        std::cout << fmt::format("{:<22} {:>8.3f}x", name.get<std::string>(), all["gm"].get<double>());
        if (seeded) std::cout << fmt::format(" [{:.3f}, {:.3f}]", ci["gm"]["low"].get<double>(), ci["gm"]["high"].get<double>());
        for (double p : ps) {
            std::cout << fmt::format(" {:>8.2f}", all["fast_p"][fast_p_key(p)].get<double>());
            const auto& i = ci["fast_p"][fast_p_key(p)];
            if (seeded) std::cout << fmt::format(" [{:.2f}, {:.2f}]", i["low"].get<double>(), i["high"].get<double>());
        }
        std::cout << "\n";
    }
    std::cout << fmt::format("{} operators, budget {} each{} ({})\nresults: {}\n", operators, a.budget,
                             seeded ? fmt::format(", {} seeds, [95% interval]", a.seeds) : "",
                             a.eval.backend == "npu" ? "latencies measured on the NPU" : "simulated latencies", (fs::path(a.out) / "results.json").string());
}

// One job of the study, as a cluster task runs it: the others are not touched, and results.json
// is left to the process that merges the tasks' results. Exit 0 when the job finished.
int run_task(const BenchArgs& a, StudyPlan plan, Evaluator& evaluator) {
    auto key = task_job_key(a.executor);
    if (!key) {
        std::cerr << render_error(key.error());
        return k_exit_bad_input;
    }
    const auto jobs = study_jobs(plan);
    size_t at = jobs.size();
    for (size_t i = 0; i < jobs.size(); ++i)
        if (study_job_key(plan, jobs[i]) == *key) at = i;
    if (at == jobs.size()) {
        std::cerr << render_error(make_error("the task list names the job '" + *key + "', which this study does not have",
                                             "the task's command line must be the study's own (suite, methods, seeds, --out)"));
        return k_exit_bad_input;
    }
    plan.runs_only = std::set<std::string>{*key};
    plan.on_done = {};
    auto study = run_study(plan, evaluator);
    if (!study) {
        std::cerr << render_error(study.error());
        return exit_code_for(study.error());
    }
    const size_t per_method = plan.seeds.size() * plan.targets.size();
    const MethodRun& run = study->by_method[at / per_method].second[at % per_method];
    if (run.detail.contains("error")) {
        std::cerr << "ascendopt: error: " << *key << ": " << run.detail["error"].get<std::string>() << "\n";
        return k_exit_failed;
    }
    if (!a.quiet) std::cerr << "ascendopt: " << *key << " done: " << fmt::format("{:.3f}x", run_speedup(run)) << "\n";
    return k_exit_ok;
}

// --executor slurm: the unfinished jobs run as Slurm tasks; this process then files only what
// they finished (a job without a result is reported with its task and log).
Result<std::vector<std::string>> run_jobs_on_slurm(const BenchArgs& a, const Settings& settings, StudyPlan& plan) {
    auto resources = slurm_resources(settings);
    if (!resources) return resources.error();
    std::map<std::string, StudyJob> jobs;
    std::vector<std::string> keys;
    for (const auto& job : study_jobs(plan)) {
        keys.push_back(study_job_key(plan, job));
        jobs.emplace(keys.back(), job);
    }
    const auto finished = [&](const std::string& key) {
        const auto job = jobs.find(key);
        return job != jobs.end() && study_job_finished(job->second);
    };
    auto outcome = run_on_slurm({plan.out, "ascendopt-bench", keys, finished, *resources, task_command(), a.quiet});
    if (!outcome) return outcome.error();
    plan.runs_only = std::set<std::string>{};
    plan.not_run_reason = "its Slurm task ended without a result";
    return outcome->failed;
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
    StudyPlan plan{*methods, *targets, fs::path(a.out), a.budget, share, fs::path(a.bank), a.parallel, study_seeds(a), {}, {}};
    if (have_llm)
        plan.attach_llm = [&](const StudyJob& job, MethodContext& c) -> Status {
            auto llm = run_llm(*config, job.dir, job.dir / "llm-calls.db");
            if (!llm) return llm.error();
            c.make_proposer = llm->make_proposer;
            c.proposer_identity = llm->identity;
            c.templates = &*templates;
            c.params = llm->params;
            return ok_status();
        };
    plan.on_done = [&](size_t done, size_t total, const MethodRun& r, double seconds) {
        if (r.detail.contains("error"))
            std::cerr << "ascendopt: warning: " << r.method << " on " << r.op << " failed: " << r.detail["error"].get<std::string>() << "\n";
        if (!a.quiet) report_done(done, total, r, a.seeds > 1, seconds);
    };
    if (a.executor.is_task()) return run_task(a, plan, *session.evaluator);
    std::vector<std::string> cluster_failures;
    if (a.executor.executor == "slurm") {
        auto failed = run_jobs_on_slurm(a, *settings, plan);
        if (!failed) {
            std::cerr << render_error(failed.error());
            return exit_code_for(failed.error());
        }
        cluster_failures = std::move(*failed);
    }
    auto study = run_study(plan, *session.evaluator);
    if (!study) {
        std::cerr << render_error(study.error());
        return exit_code_for(study.error());
    }
    const auto& failures = study->failures;
    const auto& by_method = study->by_method;
    const auto results = study_results({a.suite, a.budget, a.eval.seed, plan.seeds, share, latency_source_of(a.eval.backend)}, by_method);
    if (auto w = write_atomic(fs::path(a.out) / "results.json", results.dump(2) + "\n"); !w) return k_exit_environment;
    if (auto w = write_atomic(fs::path(a.out) / "results.csv", study_csv(results)); !w) return k_exit_environment;
    if (a.json)
        std::cout << results.dump(2) << "\n";
    else
        print_table(results, targets->size(), a);
    if (a.sensitivity) {
        const SensitivityRequest request{fs::path(a.out), a.sensitivity_samples, a.eval.seed, plan.seeds.size() > 1, a.parallel, a.quiet, !a.json};
        if (const int code = run_bench_sensitivity(request, *targets, *study, session); code != k_exit_ok) return code;
    }
    if (failures.empty()) return k_exit_ok;
    std::cerr << fmt::format("ascendopt: {} of {} jobs failed; they count as finding nothing and are retried on the next run:\n", failures.size(), methods->size() * targets->size() * plan.seeds.size());
    for (const auto& f : failures) std::cerr << "  " << f << "\n";
    for (const auto& f : cluster_failures) std::cerr << "  " << f << "\n";
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
    cmd->add_option("--seeds", a->seeds,
                    "Repeat the study with this many seeds (--seed, --seed+1, ...: each method's random choices; the inputs stay "
                    "those of --seed); GM and fast_p are reported with 95% confidence intervals over them")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    cmd->add_flag("--json", a->json, "Print results.json");
    cmd->add_flag("--sensitivity", a->sensitivity,
                  "Then re-time each job's published and final programs across the SoC file's estimated ranges (ascendopt soc): "
                  "each operator's speedup as median [min, max], robust GM, GM without the largest; writes sensitivity.json");
    cmd->add_option("--sensitivity-samples", a->sensitivity_samples, "Random SoC variants drawn within the ranges, besides each range's ends")
        ->check(CLI::Range(0, 1000))
        ->capture_default_str();
    cmd->add_flag("--quiet,-q", a->quiet, "No progress on stderr");
    add_executor_options(*cmd, a->executor, "(method, operator, seed) job");
    add_common_eval_options(*cmd, a->eval);
    add_replay_option(*cmd, a->eval);
    add_robust_option(*cmd, a->eval);
    add_setting_flags(*cmd, a->settings);
    cmd->footer(k_exit_codes_help);
    return [a] { return run_bench(*a); };
}

}  // namespace ascendopt
