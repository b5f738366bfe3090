// `ascendopt bench SUITE --methods LIST --budget N --seed S --out DIR`: every method on every
// operator of the suite at the same budget, then the study's metrics. Each (method, operator)
// keeps its run stores under DIR/<method>/<operator>/ and writes result.json when done, so a
// killed bench resumes: finished pairs are read back, unfinished ones resume from their stores.

#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/config.h"
#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "cli/session.h"
#include "study/methods.h"
#include "study/metrics.h"
#include "util/files.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

struct BenchArgs {
    std::string suite;
    std::string methods = "ascendopt,stage2";
    int64_t budget = 20;
    std::string out = "ascendopt-bench";
    std::string bank;
    bool json = false;
    bool quiet = false;
    SettingFlags settings;
    EvalOptions eval;
};

// The operators of the suite, each as the implementation to speed up: OP/baseline/ when the
// folder holds one (the strong version is what rewind mines), else OP itself.
std::vector<fs::path> targets(const fs::path& suite) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(suite, ec)) {
        if (!fs::is_directory(e.path() / "op_host") || !fs::is_directory(e.path() / "op_kernel")) continue;
        out.push_back(fs::is_directory(e.path() / "baseline") ? e.path() / "baseline" : e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string label(const fs::path& target) { return target.filename() == "baseline" ? target.parent_path().filename().string() : target.filename().string(); }

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
            std::cerr << "ascendopt: skipping " << name << ": it needs an LLM (docs/llm.md)\n";
            continue;
        }
        if (!m->built) {
            std::cerr << "ascendopt: skipping " << name << ": not built yet\n";
            continue;
        }
        out.push_back(m);
    }
    return out;
}

nlohmann::json summary_json(const MethodSummary& s) {
    auto group = [](const GroupSummary& g) {
        nlohmann::json fast = nlohmann::json::object();
        for (const auto& [p, share] : g.fast) fast[fmt::format("{:.1f}", p)] = share;
        return nlohmann::json{{"operators", g.operators}, {"gm", g.gm}, {"fast_p", fast}};
    };
    nlohmann::json levels = nlohmann::json::object();
    for (const auto& [level, g] : s.by_level) levels[level] = group(g);
    return {{"all", group(s.all)}, {"by_level", levels}, {"progress_gm", s.progress}};
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
    if (!methods) {
        std::cerr << render_error(methods.error());
        return k_exit_bad_input;
    }
    const auto ops = targets(a.suite);
    if (ops.empty()) {
        std::cerr << render_error(make_error("no operator folder under " + a.suite));
        return k_exit_bad_input;
    }
    auto opened = open_session(a.eval);
    if (auto* code = std::get_if<int>(&opened)) return *code;
    EvalSession& session = std::get<EvalSession>(opened);
    std::optional<Bank> bank;
    if (!a.bank.empty()) {
        auto b = Bank::open(a.bank);
        if (!b) {
            std::cerr << render_error(b.error());
            return k_exit_bad_input;
        }
        bank.emplace(std::move(*b));
    }
    std::optional<TemplateStore> templates;
    if (have_llm) templates.emplace(session.toolchain.share_dir / "templates", settings->get("templates.dir"));
    const size_t total = methods->size() * ops.size();
    size_t done = 0;
    const auto start = std::chrono::steady_clock::now();
    nlohmann::json results = {{"suite", a.suite}, {"budget", a.budget}, {"seed", a.eval.seed}, {"latency_source", "sim"}, {"methods", nlohmann::json::object()}};
    for (const MethodInfo* m : *methods) {
        std::vector<OperatorOutcome> outcomes;
        nlohmann::json per_op = nlohmann::json::array();
        for (const auto& target : ops) {
            const fs::path dir = fs::path(a.out) / m->name / label(target);
            fs::create_directories(dir);
            MethodRun run;
            if (auto saved = read_text(dir / "result.json"); saved) {
                run = method_run_from_json(nlohmann::json::parse(*saved, nullptr, false));
            } else {
                auto op = load_operator(target);
                if (!op) {
                    std::cerr << render_error(op.error());
                    return k_exit_bad_input;
                }
                MethodContext c{*session.builder, *session.golden, a.eval, a.budget, dir, bank ? &*bank : nullptr, a.bank};
                if (have_llm && m->name != "stage2") {
                    auto calls = SqliteCallLog::open(dir / "llm-calls.db");
                    if (!calls) return k_exit_environment;
                    LlmConfig cfg = *config;
                    cfg.resume = dir / "llm-replies.jsonl";
                    std::shared_ptr<CallLog> log = std::move(*calls);
                    c.make_proposer = [cfg, log](int64_t r) { return make_proposer(cfg, log, r); };
                    c.proposer_identity = cfg.kind + ":" + cfg.model;
                    c.templates = &*templates;
                    c.params = cfg.params;
                }
                auto made = run_method(*m, *op, c);
                if (!made) {
                    std::cerr << render_error(made.error());
                    return exit_code_for(made.error());
                }
                run = std::move(*made);
                run.op = label(target);  // folder names: a baseline/ folder is named after its operator
                if (auto w = write_atomic(dir / "result.json", to_json(run).dump(2) + "\n"); !w) return k_exit_environment;
            }
            ++done;
            if (!a.quiet) {
                const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                std::cerr << fmt::format("bench: [{}/{}] {} {} done, ETA {:.0f} s\n", done, total, m->name, run.op,
                                         spent / double(done) * double(total - done));
            }
            outcomes.push_back({run.op, "all", run.baseline_us, run.evaluations});
            per_op.push_back(to_json(run));
        }
        const MethodSummary s = summarize(outcomes, size_t(a.budget));
        results["methods"][m->name] = {{"summary", summary_json(s)}, {"operators", per_op}};
    }
    if (auto w = write_atomic(fs::path(a.out) / "results.json", results.dump(2) + "\n"); !w) return k_exit_environment;
    std::string csv = "method,operator,baseline_us,best_us,speedup,evaluations\n";
    for (const auto& [name, m] : results["methods"].items())
        for (const auto& r : m["operators"]) {
            const MethodRun run = method_run_from_json(r);
            const double s = speedup({run.op, "all", run.baseline_us, run.evaluations});
            csv += fmt::format("{},{},{:.4f},{:.4f},{:.4f},{}\n", name, run.op, run.baseline_us, run.baseline_us / s, s, run.evaluations.size());
        }
    (void)write_atomic(fs::path(a.out) / "results.csv", csv);
    if (a.json) {
        std::cout << results.dump(2) << "\n";
        return k_exit_ok;
    }
    std::cout << fmt::format("{:<22} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}\n", "method", "GM", "fast1.0", "fast1.2", "fast1.4", "fast1.8", "fast2.0");
    for (const auto& [name, m] : results["methods"].items()) {
        const auto& all = m["summary"]["all"];
        std::cout << fmt::format("{:<22} {:>7.3f}x {:>8.2f} {:>8.2f} {:>8.2f} {:>8.2f} {:>8.2f}\n", name, all["gm"].get<double>(),
                                 all["fast_p"]["1.0"].get<double>(), all["fast_p"]["1.2"].get<double>(), all["fast_p"]["1.4"].get<double>(),
                                 all["fast_p"]["1.8"].get<double>(), all["fast_p"]["2.0"].get<double>());
    }
    std::cout << fmt::format("{} operators, budget {} each (simulated latencies)\nresults: {}\n", ops.size(), a.budget,
                             (fs::path(a.out) / "results.json").string());
    return k_exit_ok;
}

}  // namespace

CommandRunner add_bench_command(CLI::App& app) {
    auto a = std::make_shared<BenchArgs>();
    CLI::App* cmd = app.add_subcommand("bench", "The study: methods compared at the same budget per operator");
    cmd->add_option("suite", a->suite, "Folder of operators (OP/baseline/ is the implementation to speed up where present)")->required();
    cmd->add_option("--methods", a->methods, "Comma-separated: ascendopt, stage1, stage1-no-experience, stage2, best-of-n, openevolve")
        ->capture_default_str();
    cmd->add_option("--budget", a->budget, "Unique evaluations per method and operator")->check(CLI::Range(2, 100000))->capture_default_str();
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
