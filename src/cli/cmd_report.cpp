// `ascendopt report DIR`: report.md and report.html from the results of `ascendopt bench`.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "study/report.h"
#include "util/files.h"
#include "util/json_bounded.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

int run_report(const std::string& dir) {
    auto text = read_text(fs::path(dir) / "results.json");
    if (!text) {
        std::cerr << render_error(make_error("no results.json in " + dir, "run `ascendopt bench SUITE --out " + dir + "` first"));
        return k_exit_bad_input;
    }
    const auto parsed = parse_bounded_json(*text, "results.json");
    nlohmann::json results = parsed ? *parsed : nlohmann::json();
    if (!results.is_object() || !results.contains("methods") || !results["methods"].is_object() || results["methods"].empty()) {
        std::cerr << render_error(make_error(dir + "/results.json is not a bench result", "it is written by `ascendopt bench`"));
        return k_exit_bad_input;
    }
    // bench --sensitivity's re-timing, when the folder has one: the report says how far each figure moves.
    if (auto s = read_text(fs::path(dir) / "sensitivity.json")) {
        const auto doc = parse_bounded_json(*s, "sensitivity.json");
        if (!doc || !doc->is_object() || !doc->contains("methods") || !(*doc)["methods"].is_object()) {
            std::cerr << render_error(make_error(dir + "/sensitivity.json is not a sensitivity result",
                                                 "it is written by `ascendopt bench --sensitivity`; rerun that, or remove the file"));
            return k_exit_bad_input;
        }
        results["sensitivity"] = *doc;
    }
    auto html = report_html(results);
    if (!html) {
        std::cerr << render_error(html.error());
        return html.error().missing_tool ? k_exit_environment : k_exit_failed;
    }
    if (!write_atomic(fs::path(dir) / "report.md", report_markdown(results)) || !write_atomic(fs::path(dir) / "report.html", *html))
        return k_exit_environment;
    std::cout << "report: " << (fs::absolute(dir) / "report.html").string() << "\n        " << (fs::absolute(dir) / "report.md").string() << "\n";
    return k_exit_ok;
}

}  // namespace

CommandRunner add_report_command(CLI::App& app) {
    auto dir = std::make_shared<std::string>();
    CLI::App* cmd = app.add_subcommand("report", "Markdown and self-contained HTML report of a bench folder");
    cmd->add_option("dir", *dir, "The --out folder of ascendopt bench")->required();
    cmd->footer(k_exit_codes_help);
    return [dir] { return run_report(*dir); };
}

}  // namespace ascendopt
