// `ascendopt calibrate`: the timing model's estimated parameters fitted to the microbenchmarks
// of share/calibrate/ measured on the session's backend (calibrate/calibrate.h).
#include <cmath>
#include <ctime>
#include <iostream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "calibrate/calibrate.h"
#include "calibrate/compare.h"
#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "cli/session.h"
#include "util/files.h"

namespace ascendopt {
namespace {

struct CalibrateArgs {
    bool compare = false;
    std::vector<std::string> operators;  // --compare's
    std::optional<uint64_t> self_test;
    std::string out;
    double tolerance_pct = 5;
    bool json = false;
    bool quiet = false;
    EvalOptions options;
};

std::string today() {
    const std::time_t now = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
    return buf;
}

// The file value an entry stands for: its first parameter's, or "table" for a whole table.
std::string file_value(const SocWithParameters& soc, const UncertainParameter& u) {
    if (u.keys.size() != 1) return "x1 (" + std::to_string(u.keys.size()) + " values)";
    for (const auto& p : soc.parameters)
        if (p.key == u.keys.front()) return p.shown;
    return "?";
}

double error_pct(double fitted, double truth) { return 100 * std::fabs(fitted / truth - 1); }

nlohmann::json report_json(const CalibrationReport& r, const CalibrateArgs& args) {
    nlohmann::json j = {{"rms_log_residual", r.fit.rms_log_residual}, {"rounds", r.fit.rounds}, {"model_points", r.fit.points},
                        {"parameters", nlohmann::json::array()}, {"measurements", nlohmann::json::array()}};
    for (size_t i = 0; i < r.fit.parameters.size(); ++i) {
        const auto& p = r.fit.parameters[i];
        nlohmann::json e = {{"name", p.name}, {"factor", p.factor}, {"sensitivity", p.sensitivity}, {"fitted", p.fitted},
                            {"determined", p.determined}};
        if (p.fitted && std::isfinite(p.uncertainty)) e["uncertainty"] = p.uncertainty;
        if (!r.truth.empty()) {
            e["truth"] = r.truth[i];
            e["error_pct"] = error_pct(p.factor, r.truth[i]);
        }
        j["parameters"].push_back(e);
    }
    for (const auto& m : r.measurements)
        j["measurements"].push_back({{"case", m.case_name}, {"measured_us", m.measured_us}, {"predicted_us", m.predicted_us}});
    if (args.self_test) j["self_test_seed"] = *args.self_test;
    return j;
}

std::string report_text(const CalibrationReport& r, const SocWithParameters& soc, const CalibrateArgs& args) {
    std::ostringstream out;
    const bool self = !r.truth.empty();
    out << fmt::format("{:<32} {:>14} {:>9} {:>9} {:>8}  {}\n", "parameter", "file value", "fitted", self ? "truth" : "", self ? "error" : "",
                       "what the measurements say of it");
    for (size_t i = 0; i < r.fit.parameters.size(); ++i) {
        const auto& p = r.fit.parameters[i];
        const std::string fitted = p.fitted ? fmt::format("x{:.4f}", p.factor) : "(kept)";
        const std::string truth = self ? fmt::format("x{:.4f}", r.truth[i]) : "";
        const std::string err = self && p.fitted ? fmt::format("{:.2f}%", error_pct(p.factor, r.truth[i])) : "";
        std::string verdict;
        if (!p.fitted) verdict = fmt::format("nothing: it moves them by {:.2f}% at most", 100 * (std::exp(p.sensitivity) - 1));
        else if (p.determined) verdict = fmt::format("determined: +-{:.2f}% per 1% of measurement noise", 100 * p.uncertainty);
        else verdict = "not told apart from the others it trades off against";
        out << fmt::format("{:<32} {:>14} {:>9} {:>9} {:>8}  {}\n", p.name, file_value(soc, r.uncertain[i]), fitted, truth, err, verdict);
    }
    out << fmt::format("\n{:<16} {:>14} {:>14} {:>9}\n", "measurement", "measured us", "model us", "residual");
    for (const auto& m : r.measurements)
        out << fmt::format("{:<16} {:>14.3f} {:>14.3f} {:>8.2f}%\n", m.case_name, m.measured_us, m.predicted_us,
                           100 * (m.predicted_us / m.measured_us - 1));
    out << fmt::format("\nrms residual {:.3f}% after {} grid rounds and {} refinements ({} model timings)\n", 100 * r.fit.rms_log_residual,
                       r.fit.rounds, r.fit.refinements, r.fit.points);
    return out.str();
}

// Self-test: every determined parameter within the tolerance of the truth (one the measurements
// do not tell from others is fitted, but no value of it alone is claimed).
std::vector<std::string> missed(const CalibrationReport& r, double tolerance_pct) {
    std::vector<std::string> out;
    for (size_t i = 0; i < r.fit.parameters.size(); ++i) {
        const auto& p = r.fit.parameters[i];
        if (p.determined && error_pct(p.factor, r.truth[i]) > tolerance_pct)
            out.push_back(fmt::format("{} (x{:.4f}, truth x{:.4f})", p.name, p.factor, r.truth[i]));
    }
    return out;
}

// The model is always the twin's own timing, whatever the measurements run on: the session's
// evaluator on the twin backend, else a twin evaluator of the same session kept in `owned`.
Evaluator* twin_model(EvalSession& session, const EvalOptions& options, std::unique_ptr<Evaluator>& owned) {
    if (options.backend == "twin") return session.evaluator.get();
    EvalOptions twin_options = options;
    twin_options.backend = "twin";
    twin_options.device_launcher = {};
    owned = make_twin_evaluator(*session.builder, *session.golden, twin_options);
    return owned.get();
}

std::string rho_text(const std::optional<double>& rho, size_t n, const char* what) {
    if (!rho) return fmt::format("{}: not enough to rank ({} with distinct values needed, {} given)", what, 3, n);
    return fmt::format("{}: Spearman rho {:.3f} over {}", what, *rho, n);
}

void print_comparison(const Comparison& c, const std::string& backend) {
    std::cout << fmt::format("{:<28} {:<28} {:>12} {:>12} {:>8}\n", "operator", "perf case", "model us", backend + " us", "ratio");
    for (const auto& k : c.cases)
        std::cout << fmt::format("{:<28} {:<28} {:>12.3f} {:>12.3f} {:>7.2f}x\n", k.op, k.name, k.model_us, k.machine_us, k.machine_us / k.model_us);
    if (!c.speedups.empty()) {
        std::cout << fmt::format("\n{:<28} {:>14} {:>14} {:>6}\n", "operator (vs baseline/)", "model speedup", backend + " speedup", "cases");
        for (const auto& s : c.speedups) std::cout << fmt::format("{:<28} {:>13.3f}x {:>13.3f}x {:>6}\n", s.op, s.model, s.machine, s.cases);
    }
    for (const auto& s : c.skipped) std::cout << "skipped " << s << "\n";
    std::cout << "\n" << rho_text(c.latency_rho, c.cases.size(), "latencies") << " perf cases\n"
              << rho_text(c.speedup_rho, c.speedups.size(), "speedups") << " operators\n";
}

nlohmann::json comparison_json(const Comparison& c) {
    nlohmann::json j = {{"cases", nlohmann::json::array()}, {"speedups", nlohmann::json::array()}, {"skipped", c.skipped}};
    for (const auto& k : c.cases) j["cases"].push_back({{"operator", k.op}, {"case", k.name}, {"model_us", k.model_us}, {"machine_us", k.machine_us}});
    for (const auto& s : c.speedups)
        j["speedups"].push_back({{"operator", s.op}, {"model", s.model}, {"machine", s.machine}, {"cases", s.cases}});
    j["latency_spearman"] = c.latency_rho ? nlohmann::json(*c.latency_rho) : nlohmann::json();
    j["speedup_spearman"] = c.speedup_rho ? nlohmann::json(*c.speedup_rho) : nlohmann::json();
    return j;
}

// --compare: the perf cases of the operators on the backend and on the twin's model, ranked.
int run_compare(const CalibrateArgs& args) {
    EvalOptions options = args.options;
    if (options.backend == "twin") {
        std::cerr << "ascendopt: error: --compare ranks a machine's latencies against the twin's model; pass --backend npu "
                     "(or twin-acl, which must agree with the model exactly)\n";
        return k_exit_bad_input;
    }
    if (args.self_test) {
        std::cerr << "ascendopt: error: --compare and --self-test are two different runs; pass one\n";
        return k_exit_bad_input;
    }
    if (args.operators.empty()) {
        std::cerr << "ascendopt: error: --compare needs the operator folders to run, as in: ascendopt calibrate --compare ops/*\n";
        return k_exit_bad_input;
    }
    options.hidden_case = false;
    auto opened = open_session(options);
    if (auto* code = std::get_if<int>(&opened)) return *code;
    EvalSession& session = std::get<EvalSession>(opened);
    std::unique_ptr<Evaluator> twin;
    Evaluator* model = twin_model(session, options, twin);
    Progress progress(args.quiet);
    auto compared = compare_backends(args.operators, *session.evaluator, *model, progress.callback());
    progress.clear();
    if (!compared) {
        std::cerr << render_error(compared.error());
        return exit_code_for(compared.error());
    }
    if (args.json) std::cout << comparison_json(*compared).dump(2) << "\n";
    else print_comparison(*compared, options.backend);
    if (compared->cases.empty()) {
        std::cerr << "ascendopt: error: --compare: no perf case ran on both the " << options.backend << " backend and the model\n";
        return k_exit_failed;
    }
    return k_exit_ok;
}

int run_calibrate(const CalibrateArgs& args) {
    if (args.compare) return run_compare(args);
    if (!args.operators.empty()) {
        std::cerr << "ascendopt: error: calibrate takes operator folders only with --compare\n";
        return k_exit_bad_input;
    }
    EvalOptions options = args.options;
    if (!options.timing) {
        std::cerr << "ascendopt: error: calibrate fits the timing model; --no-timing turns it off\n";
        return k_exit_bad_input;
    }
    if (args.self_test && options.backend != "twin" && options.backend != "twin-acl") {
        std::cerr << "ascendopt: error: --self-test measures on the twin; it needs --backend twin or twin-acl\n";
        return k_exit_bad_input;
    }
    options.hidden_case = false;
    auto opened = open_session(options);
    if (auto* code = std::get_if<int>(&opened)) return *code;
    EvalSession& session = std::get<EvalSession>(opened);
    auto soc = load_soc_parameters(options.soc, session.toolchain.share_dir);
    if (!soc) {
        std::cerr << render_error(soc.error());
        return k_exit_bad_input;
    }
    auto probe = load_operator(session.toolchain.share_dir / "calibrate" / "probe");
    if (!probe) {
        std::cerr << render_error(probe.error());
        return k_exit_bad_input;
    }
    std::unique_ptr<Evaluator> twin;
    Evaluator* model = twin_model(session, options, twin);
    Progress progress(args.quiet);
    CalibrationOptions copts;
    copts.self_test_seed = args.self_test;
    auto report = calibrate(*probe, *soc, *session.evaluator, *model, copts, progress.callback());
    progress.clear();
    if (!report) {
        std::cerr << render_error(report.error());
        return exit_code_for(report.error());
    }
    if (args.json) std::cout << report_json(*report, args).dump(2) << "\n";
    else std::cout << report_text(*report, *soc, args);
    const std::string how = options.backend + (args.self_test ? " self-test seed " + std::to_string(*args.self_test) : "") + ", " + today();
    const std::string out = !args.out.empty() ? args.out : args.self_test ? "" : options.soc + "-calibrated.toml";
    if (!out.empty()) {
        const auto doc = fitted_soc_description(*soc, *report, how);
        if (auto s = write_atomic(out, soc_toml(doc, "SoC description fitted by ascendopt calibrate (" + how + ").\n"
                                                     "Every parameter the microbenchmarks determine is \"measured\"; "
                                                     "docs/calibrate.md says how.")); !s) {
            std::cerr << render_error(s.error());
            return k_exit_environment;
        }
        if (!args.json) std::cout << "wrote " << out << " (use it with --soc " << out << ")\n";
    }
    if (!args.self_test) return k_exit_ok;
    const auto off = missed(*report, args.tolerance_pct);
    if (off.empty()) {
        if (!args.json) std::cout << "self-test: every determined parameter within " << args.tolerance_pct << "% of the value it was measured under\n";
        return k_exit_ok;
    }
    std::cerr << "ascendopt: error: self-test: " << off.size() << " parameter(s) fitted more than " << args.tolerance_pct
              << "% from the values measured under:";
    for (const auto& o : off) std::cerr << " " << o;
    std::cerr << "\n";
    return k_exit_failed;
}

}  // namespace

CommandRunner add_calibrate_command(CLI::App& app) {
    auto args = std::make_shared<CalibrateArgs>();
    CLI::App* cmd = app.add_subcommand("calibrate", "Fit the timing model's estimated parameters to microbenchmarks measured on the backend");
    cmd->add_flag("--compare", args->compare,
                  "Instead of fitting: run the perf cases of OPERATORS on the backend and on the twin's model, and print the Spearman "
                  "correlation of their latencies and of their speedups over <op>/baseline/ (the figure to send back)");
    cmd->add_option("operators", args->operators, "--compare: the operator folders to run")->type_name("OPERATOR...");
    cmd->add_option("--self-test", args->self_test,
                    "Measure on the twin under estimates drawn within their ranges from this seed, and check that the fit finds them");
    cmd->add_option("--tolerance", args->tolerance_pct, "Self-test: the largest error allowed, in percent (default 5)");
    cmd->add_option("--out", args->out, "The fitted SoC description to write (default <soc>-calibrated.toml; none for --self-test)");
    cmd->add_flag("--json", args->json, "Print the fit as JSON");
    cmd->add_flag("--quiet,-q", args->quiet, "No progress on stderr");
    add_common_eval_options(*cmd, args->options);
    cmd->footer(k_exit_codes_help);
    return [args] { return run_calibrate(*args); };
}

}  // namespace ascendopt
