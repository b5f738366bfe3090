// `ascendopt rewind SUITE --bank FILE`: build the experience bank from the suite's
// strong/baseline pairs (agent/rewind.h). Every evaluation goes through one run store per
// output folder, so a killed rewind resumes without repeating or losing an evaluation.
// With --executor slurm each operator is one cluster task (cli/slurm_executor.h) with a folder
// of its own, OUT/operators/NAME/ (run store, bank, candidates, report.json), so that no two
// tasks write one store; the parent then files every operator's records into --bank, in the
// suite's order, as the local executor would have.
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "agent/rewind.h"
#include "agent/rewind_llm.h"
#include "cli/config.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "cli/session.h"
#include "cli/slurm_executor.h"
#include "util/file_lock.h"
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
    ExecutorOptions executor;
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

// What the summary says of one operator; report.json of a cluster task.
nlohmann::json summary_entry(const RewindReport& r) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& s : r.steps) {
        steps.push_back({{"hunks", s.hunks}, {"outcome", s.outcome}});
        if (s.record != 0) steps.back().update({{"record", s.record}, {"ratio", s.ratio}, {"merged", s.merged}});
    }
    return {{"operator", r.op}, {"strong_latency_us", r.strong_latency_us}, {"steps", steps}, {"records", r.records}};
}

void print_entry(const nlohmann::json& e, const std::string& latency) {
    std::cout << fmt::format("{}: strong {:.2f} us ({})\n", e["operator"].get<std::string>(), e["strong_latency_us"].get<double>(), latency);
    for (const auto& s : e["steps"])
        std::cout << fmt::format("  undo {:<40} {}\n", s["hunks"].get<std::string>(), s["outcome"].get<std::string>());
}

// The suite's operators this mode rewinds, or the error that says why there are none.
Result<std::vector<fs::path>> rewound_operators(const RewindArgs& a) {
    const bool every_operator = a.mode != "offline";  // offline mines strong/baseline pairs only
    auto pairs = every_operator ? operators_in(a.suite) : rewind_pairs(a.suite);
    if (!pairs.empty()) return pairs;
    if (every_operator) return make_error("no operator folder under " + a.suite);
    return make_error("no operator under " + a.suite + " holds a baseline/ folder",
                      "offline rewind mines strong/baseline pairs: OP/ is the strong version, OP/baseline/ the "
                      "slower one; with an LLM configured, or with --mode rules, every operator is rewound");
}

void print_summary(const RewindArgs& a, const nlohmann::json& summary, size_t operators) {
    size_t records = 0;
    for (const auto& e : summary) records += e["records"].size();
    if (a.json) {
        std::cout << nlohmann::json{{"bank", a.bank}, {"operators", summary}, {"records", records}}.dump(2) << "\n";
        return;
    }
    for (const auto& e : summary) print_entry(e, a.eval.backend == "npu" ? "measured on the NPU" : "simulated");
    std::cout << fmt::format("{} records from {} {} in {} (run store {})\n", records, operators, a.mode != "offline" ? "operators" : "pairs", a.bank,
                             a.executor.executor == "slurm" ? (fs::path(a.out) / "operators" / "*" / "run.db").string()
                                                            : (fs::path(a.out) / "run.db").string());
}

// --executor local: every operator in turn, one run store and the bank itself.
int rewind_here(RewindArgs& a, EvalSession& session, const std::vector<fs::path>& pairs) {
    auto store = RunStore::open(fs::path(a.out) / "run.db");
    auto bank = Bank::open(a.bank);
    if (!store || !bank) {
        std::cerr << render_error(!store ? store.error() : bank.error());
        return k_exit_environment;
    }
    nlohmann::json summary = nlohmann::json::array();
    for (size_t i = 0; i < pairs.size(); ++i) {
        if (!a.quiet)
            std::cerr << fmt::format("rewind ({}): [{}/{}] {}\n", a.mode, i + 1, pairs.size(), pairs[i].filename().string());
        auto report = rewind_one(pairs[i], a, session, *store, *bank);
        if (!report) {
            std::cerr << render_error(report.error());
            return exit_code_for(report.error());
        }
        summary.push_back(summary_entry(*report));
    }
    print_summary(a, summary, pairs.size());
    return k_exit_ok;
}

// A cluster task's own folder for the operator `name`.
fs::path operator_folder(const fs::path& out, const std::string& name) { return out / "operators" / name; }

// Whether a report holds what the summary and the filing read (a hand-edited or foreign file
// counts as no report, so the operator is rewound again rather than misread).
bool well_formed_report(const nlohmann::json& doc) {
    if (!doc.is_object() || !doc.contains("operator") || !doc["operator"].is_string()) return false;
    if (!doc.contains("strong_latency_us") || !doc["strong_latency_us"].is_number()) return false;
    if (!doc.contains("records") || !doc["records"].is_array() || !doc.contains("steps") || !doc["steps"].is_array()) return false;
    for (const auto& id : doc["records"])
        if (!id.is_number_integer()) return false;
    for (const auto& step : doc["steps"]) {
        if (!step.is_object() || !step.contains("hunks") || !step["hunks"].is_string() || !step.contains("outcome") ||
            !step["outcome"].is_string())
            return false;
        if (step.contains("record") && (!step["record"].is_number_integer() || !step.contains("ratio") || !step["ratio"].is_number() ||
                                        !step.contains("merged") || !step["merged"].is_boolean()))
            return false;
    }
    return true;
}

// The summary entry a cluster task left for its operator, when it finished.
std::optional<nlohmann::json> task_report(const fs::path& folder) {
    auto text = read_text(folder / "report.json");
    if (!text) return std::nullopt;
    auto doc = nlohmann::json::parse(*text, nullptr, false);
    if (!well_formed_report(doc)) return std::nullopt;
    return doc;
}

// A cluster task: the operator on line --task-index of the task list, in its own folder with
// its own run store and bank; report.json last, so that it marks a finished operator.
int rewind_task(RewindArgs& a) {
    auto key = task_job_key(a.executor);
    if (!key) {
        std::cerr << render_error(key.error());
        return k_exit_bad_input;
    }
    const fs::path dir = fs::path(a.suite) / *key;
    if (key->empty() || key->find('/') != std::string::npos || !names_an_operator(dir)) {
        std::cerr << render_error(make_error("the task list names '" + *key + "', which is no operator of " + a.suite,
                                             "the task's command line must be the rewind's own (suite, --out)"));
        return k_exit_bad_input;
    }
    const fs::path folder = operator_folder(a.out, *key);
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) {
        std::cerr << render_error(make_error("cannot create " + folder.string() + ": " + ec.message()));
        return k_exit_environment;
    }
    auto lock = FileLock::try_acquire(folder / ".writer.lock");
    if (!lock || !*lock) {
        std::cerr << render_error(!lock ? lock.error()
                                        : make_error("another process is rewinding " + *key + " in " + folder.string(),
                                                     "one task writes an operator's folder at a time; wait for it, or stop it"));
        return k_exit_environment;
    }
    a.out = folder.string();  // the run store, LLM replies and candidates of this operator alone
    auto opened = open_session(a.eval);
    if (auto* code = std::get_if<int>(&opened)) return *code;
    EvalSession& session = std::get<EvalSession>(opened);
    if (auto mode = choose_mode(a, session.toolchain); !mode) {
        std::cerr << render_error(mode.error());
        return k_exit_bad_input;
    }
    auto store = RunStore::open(folder / "run.db");
    auto bank = Bank::open(folder / "bank.db");
    if (!store || !bank) {
        std::cerr << render_error(!store ? store.error() : bank.error());
        return k_exit_environment;
    }
    auto report = rewind_one(dir, a, session, *store, *bank);
    if (!report) {
        std::cerr << render_error(report.error());
        return exit_code_for(report.error());
    }
    if (auto w = write_atomic(folder / "report.json", summary_entry(*report).dump(2) + "\n"); !w) {
        std::cerr << render_error(w.error());
        return k_exit_environment;
    }
    if (!a.quiet) std::cerr << fmt::format("ascendopt: {} rewound: {} records\n", *key, report->records.size());
    return k_exit_ok;
}

// Files a finished task's records into the bank; its entry then names them by their ids
// there, and says "merged" where the bank had an equivalent record, as a local rewind would.
Status file_task_records(Bank& bank, const fs::path& folder, nlohmann::json& entry) {
    auto own = Bank::open(folder / "bank.db");
    if (!own) return own.error();
    std::map<int64_t, Bank::Put> filed;  // by the task's id
    const auto file = [&](int64_t task_id) -> Result<Bank::Put> {
        if (auto f = filed.find(task_id); f != filed.end()) return Bank::Put{f->second.id, true};
        auto record = own->get(task_id);
        if (!record) return record.error();
        if (!*record) return make_error("record " + std::to_string(task_id) + " of " + (folder / "report.json").string() + " is not in its bank.db");
        auto put = bank.put(**record);
        if (put) filed[task_id] = *put;
        return put;
    };
    for (auto& step : entry["steps"]) {
        if (!step.contains("record")) continue;
        auto put = file(step["record"].get<int64_t>());
        if (!put) return put.error();
        const bool merged = step.value("merged", false) || put->merged;
        step["record"] = put->id;
        step["merged"] = merged;
        step["outcome"] = record_outcome(put->id, step.value("ratio", 0.0), merged);
    }
    nlohmann::json ids = nlohmann::json::array();
    for (const auto& id : entry["records"]) {
        auto put = file(id.get<int64_t>());
        if (!put) return put.error();
        ids.push_back(put->id);
    }
    entry["records"] = ids;
    return ok_status();
}

// --executor slurm: the operators without a report run as Slurm tasks; then every report's
// records are filed into the bank in the suite's order (the bank merges what it had already,
// so a rerun files nothing twice).
int rewind_on_slurm(RewindArgs& a, const std::vector<fs::path>& pairs) {
    auto settings = Settings::resolve(a.settings);
    auto resources = settings ? slurm_resources(*settings) : Result<SlurmResources>(settings.error());
    if (!resources) {
        std::cerr << render_error(resources.error());
        return k_exit_bad_input;
    }
    std::vector<std::string> keys;
    for (const auto& p : pairs) keys.push_back(p.filename().string());
    const fs::path out(a.out);
    const auto finished = [&](const std::string& key) { return task_report(operator_folder(out, key)).has_value(); };
    auto outcome = run_on_slurm({out, "ascendopt-rewind", keys, finished, *resources, task_command(), a.quiet});
    if (!outcome) {
        std::cerr << render_error(outcome.error());
        return exit_code_for(outcome.error());
    }
    auto bank = Bank::open(a.bank);
    if (!bank) {
        std::cerr << render_error(bank.error());
        return k_exit_environment;
    }
    nlohmann::json summary = nlohmann::json::array();
    for (const auto& key : keys) {
        auto entry = task_report(operator_folder(out, key));
        if (!entry) continue;  // a failed task, reported below
        if (auto filed = file_task_records(*bank, operator_folder(out, key), *entry); !filed) {
            std::cerr << render_error(filed.error());
            return k_exit_environment;
        }
        summary.push_back(std::move(*entry));
    }
    print_summary(a, summary, summary.size());
    if (outcome->failed.empty()) return k_exit_ok;
    std::cerr << fmt::format("ascendopt: {} of {} operators were not rewound; their records are missing from {} (rerun to resubmit them):\n",
                             outcome->failed.size(), keys.size(), a.bank);
    for (const auto& f : outcome->failed) std::cerr << "  " << f << "\n";
    return k_exit_failed;
}

int run_rewind(RewindArgs& a) {
    if (a.executor.is_task()) return rewind_task(a);
    auto opened = open_session(a.eval);
    if (auto* code = std::get_if<int>(&opened)) return *code;
    EvalSession& session = std::get<EvalSession>(opened);
    fs::create_directories(a.out);
    if (auto mode = choose_mode(a, session.toolchain); !mode) {
        std::cerr << render_error(mode.error());
        return k_exit_bad_input;
    }
    auto pairs = rewound_operators(a);
    if (!pairs) {
        std::cerr << render_error(pairs.error());
        return k_exit_bad_input;
    }
    if (a.executor.executor == "slurm") return rewind_on_slurm(a, *pairs);
    return rewind_here(a, session, *pairs);
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
    add_executor_options(*cmd, a->executor, "operator");
    add_common_eval_options(*cmd, a->eval);
    add_replay_option(*cmd, a->eval);
    add_setting_flags(*cmd, a->settings);
    cmd->footer(k_exit_codes_help);
    return [a] { return run_rewind(*a); };
}

}  // namespace ascendopt
