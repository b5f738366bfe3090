#include "study/report.h"

#include <fmt/format.h>

#include "study/methods.h"
#include "study/metrics.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace {

using nlohmann::json;

const char* const k_ps[] = {"1.0", "1.2", "1.4", "1.8", "2.0"};

std::string escape_html(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '&': out += "&amp;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

// The one definition of speedup (metrics.h), over a per-operator entry of results.json.
double op_speedup(const json& op) {
    const MethodRun run = method_run_from_json(op);
    return speedup({run.op, "all", run.baseline_us, run.evaluations});
}

// Rows of the results table: one per method and level ("all" first).
std::vector<std::vector<std::string>> table_rows(const json& results) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& [name, m] : results["methods"].items()) {
        auto add = [&](const std::string& level, const json& g) {
            std::vector<std::string> row = {name, level, std::to_string(g.value("operators", 0)), fmt::format("{:.3f}x", g.value("gm", 1.0))};
            for (const char* p : k_ps) row.push_back(fmt::format("{:.2f}", g["fast_p"].value(p, 0.0)));
            rows.push_back(row);
        };
        add("all", m["summary"]["all"]);
        for (const auto& [level, g] : m["summary"]["by_level"].items())
            if (level != "all") add(level, g);
    }
    return rows;
}

const std::vector<std::string> k_header = {"method", "level", "operators", "GM speedup", "fast_1.0", "fast_1.2", "fast_1.4", "fast_1.8", "fast_2.0"};

Result<std::string> gnuplot_svg(const std::string& script) {
    if (!find_program("gnuplot"))
        return Error{"gnuplot is not installed (the report's plots are drawn with it)", "apt-get install gnuplot-nox", "", true};
    ProcessOptions o;
    o.stdin_data = script;
    o.separate_stderr = true;
    o.timeout_seconds = 60;
    o.keep_bytes = 16 << 20;
    const ProcessResult r = run_process({"gnuplot"}, o);
    if (!r.succeeded()) return make_error("gnuplot failed (" + r.describe_end() + ")", "", r.error_output);
    const size_t at = r.output.find("<svg");
    return at == std::string::npos ? r.output : r.output.substr(at);  // drop the XML prologue: the SVG goes inline
}

Result<std::string> progress_plot(const json& results) {
    std::string script = "set terminal svg size 720,360 dynamic font 'sans,11'\nset title 'Geometric-mean speedup versus evaluations'\n"
                         "set xlabel 'evaluations per operator'\nset ylabel 'GM speedup (simulated)'\nset key left top\nset grid\n";
    std::string plots;
    int i = 0;
    for (const auto& [name, m] : results["methods"].items()) {
        script += fmt::format("$m{} << EOD\n", i);
        size_t k = 1;
        for (const auto& v : m["summary"]["progress_gm"]) script += fmt::format("{} {}\n", k++, v.get<double>());
        script += "EOD\n";
        plots += fmt::format("{}$m{} with lines lw 2 title '{}'", plots.empty() ? "plot " : ", ", i++, name);
    }
    return gnuplot_svg(script + plots + "\n");
}

Result<std::string> speedup_plot(const json& results) {
    std::string script = "set terminal svg size 720,360 dynamic font 'sans,11'\nset title 'Speedup per operator'\nset style data histograms\n"
                         "set style fill solid 0.8\nset ylabel 'speedup over the baseline'\nset xtics rotate by -40\nset grid ytics\nset key left top\n"
                         "$d << EOD\noperator";
    std::vector<std::string> methods;
    for (const auto& [name, m] : results["methods"].items()) methods.push_back(name), script += " " + name;
    script += "\n";
    const auto& first = results["methods"].begin().value()["operators"];
    for (size_t i = 0; i < first.size(); ++i) {
        script += first[i].value("operator", "?");
        for (const auto& name : methods) script += fmt::format(" {}", op_speedup(results["methods"][name]["operators"][i]));
        script += "\n";
    }
    script += "EOD\nplot ";
    for (size_t j = 0; j < methods.size(); ++j) script += fmt::format("{}$d using {}:xtic(1) title '{}'", j ? ", " : "", j + 2, methods[j]);
    return gnuplot_svg(script + "\n");
}

}  // namespace

std::string report_markdown(const json& results) {
    std::string md = fmt::format("# ascendopt study: {}\n\nBudget {} evaluations per method and operator, seed {}; latencies are {} (the Ascend C twin's model).\n\n",
                                 results.value("suite", "?"), results.value("budget", 0), results.value("seed", 0),
                                 results.value("latency_source", "sim") == "sim" ? "simulated" : "measured");
    md += "## Results\n\n|";
    for (const auto& h : k_header) md += " " + h + " |";
    md += "\n|";
    for (size_t i = 0; i < k_header.size(); ++i) md += "---|";
    md += "\n";
    for (const auto& row : table_rows(results)) {
        md += "|";
        for (const auto& cell : row) md += " " + cell + " |";
        md += "\n";
    }
    md += "\n## Per operator\n\n| method | operator | baseline us | best us | speedup | evaluations |\n|---|---|---|---|---|---|\n";
    for (const auto& [name, m] : results["methods"].items())
        for (const auto& op : m["operators"]) {
            const double s = op_speedup(op);
            md += fmt::format("| {} | {} | {:.3f} | {:.3f} | {:.3f}x | {} |\n", name, op.value("operator", "?"), op.value("baseline_us", 0.0),
                              op.value("baseline_us", 0.0) / s, s, op["evaluations_us"].size());
        }
    return md;
}

Result<std::string> report_html(const json& results) {
    auto progress = progress_plot(results);
    if (!progress) return progress.error();
    auto speedups = speedup_plot(results);
    if (!speedups) return speedups.error();
    std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ascendopt study</title>\n<style>"
                       "body{font-family:sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;margin:1em 0}"
                       "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th{background:#f0f0f0}td:first-child,td:nth-child(2){text-align:left}"
                       "</style></head><body>\n";
    html += fmt::format("<h1>ascendopt study: {}</h1>\n<p>Budget {} evaluations per method and operator, seed {}; latencies are simulated by the Ascend C twin.</p>\n",
                        escape_html(results.value("suite", "?")), results.value("budget", 0), results.value("seed", 0));
    html += "<h2>Results</h2>\n<table id=\"results\"><tr>";
    for (const auto& h : k_header) html += "<th>" + escape_html(h) + "</th>";
    html += "</tr>\n";
    for (const auto& row : table_rows(results)) {
        html += "<tr>";
        for (const auto& cell : row) html += "<td>" + escape_html(cell) + "</td>";
        html += "</tr>\n";
    }
    html += "</table>\n<h2>Progress versus budget</h2>\n" + *progress + "\n<h2>Speedup per operator</h2>\n" + *speedups;
    html += "\n<h2>Per operator</h2>\n<table id=\"operators\"><tr><th>method</th><th>operator</th><th>baseline us</th><th>best us</th><th>speedup</th></tr>\n";
    for (const auto& [name, m] : results["methods"].items())
        for (const auto& op : m["operators"]) {
            const double s = op_speedup(op);
            html += fmt::format("<tr><td>{}</td><td>{}</td><td>{:.3f}</td><td>{:.3f}</td><td>{:.3f}x</td></tr>\n", escape_html(name),
                                escape_html(op.value("operator", "?")), op.value("baseline_us", 0.0), op.value("baseline_us", 0.0) / s, s);
        }
    return html + "</table>\n</body></html>\n";
}

}  // namespace ascendopt
