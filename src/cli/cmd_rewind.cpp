// `ascendopt rewind SUITE --bank FILE`: build the experience bank from the suite's
// strong/baseline pairs (agent/rewind.h). Every evaluation goes through one run store per
// output folder, so a killed rewind resumes without repeating or losing an evaluation.
#include <algorithm>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "agent/rewind.h"
#include "agent/rewind_llm.h"
#include "cli/config.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "cli/session.h"
#include "util/files.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

struct RewindArgs {
    std::string suite;
    std::string bank;
    std::string out = "ascendopt-rewind";
    int64_t budget = 20;
    double noise = 0.02;
    bool json = false;
    bool quiet = false;
    std::string mode = "auto";  // after choose_mode: the mode in use, "offline", "rules" or "llm"
    SettingFlags settings;
    EvalOptions eval;
    // Filled by run_rewind when the LLM mode is on.
    std::optional<LlmConfig> llm;
    std::optional<TemplateStore> templates;
    std::shared_ptr<CallLog> calls;
};

// Every operator of the suite (names_an_operator). LLM and rule-based rewind start from each as
// the strong version.
std::vector<fs::path> operators_in(const fs::path& suite) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(suite, ec))
        if (names_an_operator(e.path())) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

Result<RewindReport> rewind_one(const fs::path& dir, RewindArgs& a, EvalSession& s, RunStore& store, Bank& bank) {
    auto strong = load_operator(dir);
    if (!strong) return strong.error();
    const std::string method = "rewind-" + a.mode;
    nlohmann::json settings = {{"operator", strong->display_name()}, {"seed", a.eval.seed}, {"soc", a.eval.soc}, {"noise", a.noise}, {"budget", a.budget}};
    if (a.llm) settings["model"] = a.llm->model;
    auto run = store.open_run(method, settings);
    if (!run) return run.error();
    auto session = CandidateSession::open(*strong, *s.evaluator, {store, *run, a.budget, fs::path(a.out)});
    if (!session) return session.error();
    CandidateRunner& runner = (*session)->runner();
    const RewindOptions base{.noise_threshold = a.noise, .soc = a.eval.soc, .run = *run};
    if (a.llm) {
        auto proposer = make_proposer(*a.llm, a.calls, *run);
        if (!proposer) return proposer.error();
        LlmRewindOptions o;
        o.base = base;
        o.params = a.llm->params;
        return rewind_with_llm(runner, **proposer, *a.templates, bank, o);
    }
    if (a.mode == "rules") return rewind_by_rules(runner, bank, base);  // a.mode is settled (choose_mode)
    auto baseline = load_operator(dir / "baseline");
    if (!baseline) return baseline.error();
    baseline->cases = strong->cases;  // one set of cases judges both versions
    return rewind_pair(runner, *baseline, bank, base);
}

// Settles a.mode ("auto" becomes llm when an LLM is configured, else offline); on LLM, loads
// the configuration and templates.
Status choose_mode(RewindArgs& a, const Toolchain& tc) {
    auto settings = Settings::resolve(a.settings);
    if (!settings) return settings.error();
    auto config = llm_config(*settings);
    if (!config) return config.error();
    if (a.mode == "auto") a.mode = config->kind.empty() ? "offline" : "llm";
    if (a.mode != "llm") return ok_status();
    if (config->kind.empty()) return make_error("--mode llm needs an LLM", "set ASCENDOPT_LLM_BASE_URL and ASCENDOPT_LLM_MODEL (see docs/llm.md)");
    a.llm = *config;
    a.llm->resume = fs::path(a.out) / "llm-replies.jsonl";  // a resumed rewind sees the same replies
    a.templates.emplace(tc.share_dir / "templates", settings->get("templates.dir"));
    auto log = SqliteCallLog::open(fs::path(a.out) / "run.db");
    if (!log) return log.error();
    a.calls = std::move(*log);
    return ok_status();
}

int run_rewind(RewindArgs& a) {
    auto opened = open_session(a.eval);
    if (auto* code = std::get_if<int>(&opened)) return *code;
    EvalSession& session = std::get<EvalSession>(opened);
    fs::create_directories(a.out);
    if (auto mode = choose_mode(a, session.toolchain); !mode) {
        std::cerr << render_error(mode.error());
        return k_exit_bad_input;
    }
    const bool every_operator = a.mode != "offline";  // offline mines strong/baseline pairs only
    const auto pairs = every_operator ? operators_in(a.suite) : rewind_pairs(a.suite);
    if (pairs.empty()) {
        std::cerr << render_error(every_operator ? make_error("no operator folder under " + a.suite)
                                        : make_error("no operator under " + a.suite + " holds a baseline/ folder",
                                                     "offline rewind mines strong/baseline pairs: OP/ is the strong version, OP/baseline/ the "
                                                     "slower one; with an LLM configured, or with --mode rules, every operator is rewound"));
        return k_exit_bad_input;
    }
    auto store = RunStore::open(fs::path(a.out) / "run.db");
    auto bank = Bank::open(a.bank);
    if (!store || !bank) {
        std::cerr << render_error(!store ? store.error() : bank.error());
        return k_exit_environment;
    }
    nlohmann::json summary = nlohmann::json::array();
    size_t records = 0;
    for (size_t i = 0; i < pairs.size(); ++i) {
        if (!a.quiet)
            std::cerr << fmt::format("rewind ({}): [{}/{}] {}\n", a.mode, i + 1, pairs.size(), pairs[i].filename().string());
        auto report = rewind_one(pairs[i], a, session, *store, *bank);
        if (!report) {
            std::cerr << render_error(report.error());
            return exit_code_for(report.error());
        }
        records += report->records.size();
        nlohmann::json steps = nlohmann::json::array();
        for (const auto& s : report->steps) steps.push_back({{"hunks", s.hunks}, {"outcome", s.outcome}});
        summary.push_back({{"operator", report->op}, {"strong_latency_us", report->strong_latency_us}, {"steps", steps}, {"records", report->records}});
        if (a.json) continue;
        std::cout << fmt::format("{}: strong {:.2f} us (simulated)\n", report->op, report->strong_latency_us);
        for (const auto& s : report->steps) std::cout << fmt::format("  undo {:<40} {}\n", s.hunks, s.outcome);
    }
    if (a.json) {
        std::cout << nlohmann::json{{"bank", a.bank}, {"operators", summary}, {"records", records}}.dump(2) << "\n";
        return k_exit_ok;
    }
    std::cout << fmt::format("{} records from {} {} in {} (run store {})\n", records, pairs.size(), every_operator ? "operators" : "pairs", a.bank,
                             (fs::path(a.out) / "run.db").string());
    return k_exit_ok;
}

}  // namespace

CommandRunner add_rewind_command(CLI::App& app) {
    auto a = std::make_shared<RewindArgs>();
    CLI::App* cmd = app.add_subcommand("rewind", "Build the experience bank by undoing the optimizations of strong operators");
    cmd->add_option("suite", a->suite, "Folder of operators; OP/baseline/ marks a strong/baseline pair")->required();
    cmd->add_option("--bank", a->bank, "Experience bank to add records to (created if missing)")->required();
    cmd->add_option("--out", a->out, "Run folder (run store, candidates); rerun to resume")->capture_default_str();
    cmd->add_option("--budget", a->budget, "Evaluations per operator")->check(CLI::Range(1, 100000))->capture_default_str();
    cmd->add_option("--noise", a->noise, "A reversion counts when it is slower by more than this fraction")
        ->check(CLI::Range(0.0, 1.0))
        ->capture_default_str();
    cmd->add_option("--mode", a->mode,
                    "offline (strong/baseline pairs), rules (rule-based de-optimizations of every operator, no LLM), llm (named "
                    "de-optimizations by the LLM), auto (llm when one is configured, else offline)")
        ->check(CLI::IsMember({"auto", "offline", "rules", "llm"}))
        ->capture_default_str();
    cmd->add_flag("--json", a->json, "Print the summary as JSON");
    cmd->add_flag("--quiet,-q", a->quiet, "No progress on stderr");
    add_common_eval_options(*cmd, a->eval);
    add_replay_option(*cmd, a->eval);
    add_setting_flags(*cmd, a->settings);
    cmd->footer(k_exit_codes_help);
    return [a] { return run_rewind(*a); };
}

}  // namespace ascendopt
