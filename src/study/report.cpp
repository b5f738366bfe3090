#include "study/report.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "study/metrics.h"
#include "study/results.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace {

using nlohmann::json;

// What a report is made of; rendered once as Markdown and once as HTML.
struct Table {
    std::string id;
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};
struct Diff {
    std::string title, text;
    std::string lang = "diff";  // the Markdown fence's info string
};
struct Section {
    int level = 2;  // heading level
    std::string title, text;
    std::optional<Table> table;
    std::string plot;  // a key of the plots (HTML only)
    std::vector<Diff> diffs;
};

std::vector<std::string> method_order(const json& results) {
    std::vector<std::string> out;
    for (const auto& n : results.value("method_order", json::array())) out.push_back(n.get<std::string>());
    if (out.empty())
        for (const auto& [name, m] : results["methods"].items()) out.push_back(name);
    return out;
}

std::vector<std::string> group_cells(const json& g) {
    std::vector<std::string> row = {std::to_string(g.value("operators", 0)), fmt::format("{:.3f}x", g.value("gm", 1.0))};
    for (double p : default_fast_ps()) row.push_back(fmt::format("{:.2f}", g["fast_p"].value(fast_p_key(p), 0.0)));
    return row;
}

Table results_table(const json& results) {
    Table t{"results", {"method", "level", "operators", "GM speedup"}, {}};
    for (double p : default_fast_ps()) t.header.push_back("fast_" + fast_p_key(p));
    for (const auto& name : method_order(results)) {
        const json& summary = results["methods"][name]["summary"];
        auto add = [&](const std::string& level, const json& g) {
            std::vector<std::string> row = {name, level};
            for (auto& c : group_cells(g)) row.push_back(std::move(c));
            t.rows.push_back(std::move(row));
        };
        add("all", summary["all"]);
        for (const auto& [level, g] : summary["by_level"].items())
            if (level != "all") add(level, g);
    }
    return t;
}

// With several seeds: each method's GM and fast_p as the mean over seeds with its 95% interval.
std::optional<Table> seeds_table(const json& results) {
    Table t{"seeds", {"method", "seeds", "GM speedup", "95% interval", "fast_1.0", "95% interval", "fast_1.2", "95% interval"}, {}};
    for (const auto& name : method_order(results)) {
        const json ci = results["methods"][name]["summary"].value("interval95", json::object());
        if (ci.empty() || ci["gm"].value("seeds", 0) < 2) continue;
        auto range = [](const json& i, const char* f) { return fmt::format(fmt::runtime(f), i.value("low", 0.0), i.value("high", 0.0)); };
        const json& f10 = ci["fast_p"]["1.0"];
        const json& f12 = ci["fast_p"]["1.2"];
        t.rows.push_back({name, std::to_string(ci["gm"].value("seeds", 0)), fmt::format("{:.3f}x", ci["gm"].value("mean", 1.0)),
                          range(ci["gm"], "{:.3f}x - {:.3f}x"), fmt::format("{:.2f}", f10.value("mean", 0.0)), range(f10, "{:.2f} - {:.2f}"),
                          fmt::format("{:.2f}", f12.value("mean", 0.0)), range(f12, "{:.2f} - {:.2f}")});
    }
    if (t.rows.empty()) return std::nullopt;
    return t;
}

// The full method against each ablation present: what each component is worth.
std::optional<Table> ablation_table(const json& results) {
    const json& m = results["methods"];
    if (!m.contains("ascendopt")) return std::nullopt;
    const std::pair<const char*, const char*> variants[] = {{"ascendopt", "full: experience + Stage I + Stage II"},
                                                            {"stage1", "without Stage II (tiling search)"},
                                                            {"stage1-no-experience", "without Stage II and without experience"},
                                                            {"stage2", "without Stage I (kernel rewrites)"}};
    const double full = m["ascendopt"]["summary"]["all"].value("gm", 1.0);
    Table t{"ablation", {"variant", "method", "GM speedup", "change in GM", "fast_1.0", "fast_1.2"}, {}};
    for (const auto& [name, what] : variants) {
        if (!m.contains(name)) continue;
        const json& all = m[name]["summary"]["all"];
        const double gm = all.value("gm", 1.0);
        t.rows.push_back({what, name, fmt::format("{:.3f}x", gm), name == std::string("ascendopt") ? "" : fmt::format("{:+.1f}%", (gm / full - 1) * 100),
                          fmt::format("{:.2f}", all["fast_p"].value("1.0", 0.0)), fmt::format("{:.2f}", all["fast_p"].value("1.2", 0.0))});
    }
    if (t.rows.size() < 2) return std::nullopt;
    return t;
}

// bench --sensitivity (results["sensitivity"], from sensitivity.json): per method the GM, the
// robust GM (of each operator's minimum over the SoC variants) and the GM without the largest.
std::optional<Table> sensitivity_table(const json& results) {
    const json methods = results.value("sensitivity", json::object()).value("methods", json::object());
    Table t{"sensitivity", {"method", "GM (nominal)", "robust GM", "GM without the largest", "largest", "operators slower somewhere"}, {}};
    for (const auto& name : method_order(results)) {
        if (!methods.contains(name)) continue;
        const json s = methods[name].value("summary", json::object());
        int slower = 0;
        for (const auto& o : methods[name].value("operators", json::array())) slower += o.value("min", 1.0) < 1.0;
        t.rows.push_back({name, fmt::format("{:.3f}x", s.value("gm", 1.0)), fmt::format("{:.3f}x", s.value("robust_gm", 1.0)),
                          fmt::format("{:.3f}x", s.value("gm_without_largest", 1.0)), s.value("largest", std::string()), std::to_string(slower)});
    }
    if (t.rows.empty()) return std::nullopt;
    return t;
}

// Each operator's speedup per method as nominal [min, max] over the variants.
std::optional<Table> sensitivity_operators_table(const json& results) {
    const json methods = results.value("sensitivity", json::object()).value("methods", json::object());
    Table t{"sensitivity-operators", {"operator"}, {}};
    std::map<std::string, std::map<std::string, std::string>> cells;  // operator -> method -> cell
    for (const auto& name : method_order(results)) {
        if (!methods.contains(name)) continue;
        t.header.push_back(name + ": nominal [min, max]");
        for (const auto& o : methods[name].value("operators", json::array()))
            cells[o.value("op", std::string("?"))][name] =
                fmt::format("{:.3f}x [{:.3f}, {:.3f}]", o.value("nominal", 1.0), o.value("min", 1.0), o.value("max", 1.0));
    }
    for (const auto& [op, by_method] : cells) {
        std::vector<std::string> row = {op};
        for (const auto& name : method_order(results))
            if (methods.contains(name)) row.push_back(by_method.count(name) ? by_method.at(name) : "");
        t.rows.push_back(std::move(row));
    }
    if (t.rows.empty()) return std::nullopt;
    return t;
}

std::optional<Table> llm_table(const json& results) {
    Table t{"llm", {"method", "calls", "failed", "prompt tokens", "completion tokens", "cost (USD)"}, {}};
    for (const auto& name : method_order(results)) {
        const json llm = results["methods"][name]["summary"].value("llm", json::object());
        if (llm.value("calls", 0) == 0) continue;
        t.rows.push_back({name, std::to_string(llm.value("calls", 0)), std::to_string(llm.value("failed", 0)), std::to_string(llm.value("prompt_tokens", 0)),
                          std::to_string(llm.value("completion_tokens", 0)), fmt::format("{:.4f}", llm.value("cost_usd", 0.0))});
    }
    if (t.rows.empty()) return std::nullopt;
    return t;
}

// The diffs a method kept for one operator: Stage I's accepted rewrites, or the best program.
std::vector<Diff> diffs_of(const std::string& method, const json& entry) {
    std::vector<Diff> out;
    const json detail = entry.value("detail", json::object());
    for (const auto& a : detail.value("accepted_rewrites", json::array()))
        if (!a.value("diff", "").empty())
            out.push_back({fmt::format("{}: accepted rewrite ({}, {:.3f} -> {:.3f} us) from record #{}{}{}", method, a.value("family", "?"),
                                       a.value("before_us", 0.0), a.value("after_us", 0.0), a.value("record", int64_t(0)),
                                       a.value("record_operator", "").empty() ? "" : " of " + a.value("record_operator", ""),
                                       a.value("applied_as", "").empty() ? "" : ", applied as " + a.value("applied_as", "")),
                           a.value("diff", "")});
    if (!detail.value("best_diff", "").empty()) out.push_back({method + ": best program against the baseline", detail.value("best_diff", "")});
    if (detail.contains("best_config") && !detail["best_config"].is_null()) {
        const std::string published = detail.contains("baseline_config") && !detail["baseline_config"].is_null()
                                          ? " (as written: " + detail["baseline_config"].dump() + ")"
                                          : "";
        out.push_back({method + ": best tiling configuration" + published, detail["best_config"].dump(2) + "\n", "json"});
    }
    return out;
}

// One section per operator (in the order of the first method), a row per method and seed.
std::vector<Section> operator_sections(const json& results) {
    std::vector<Section> out;
    const auto methods = method_order(results);
    if (methods.empty()) return out;
    const bool seeded = results.value("seeds", json::array()).size() > 1;
    std::vector<std::pair<std::string, std::string>> ops;  // name, level
    for (const auto& entry : results["methods"][methods.front()]["operators"]) {
        const std::string name = entry.value("operator", "?");
        if (std::none_of(ops.begin(), ops.end(), [&](const auto& o) { return o.first == name; })) ops.push_back({name, entry.value("level", "all")});
    }
    for (const auto& [op, level] : ops) {
        Section s{3, op + " (" + level + ")", "", Table{"", {"method", "baseline us", "best us", "speedup", "evaluations"}, {}}};
        for (const auto& name : methods)
            for (const json& entry : results["methods"][name]["operators"]) {
                if (entry.value("operator", "?") != op) continue;
                const std::string label = seeded ? fmt::format("{} (seed {})", name, entry.value("seed", 0)) : name;
                const json detail = entry.value("detail", json::object());
                if (detail.contains("error")) {
                    s.table->rows.push_back({label, "-", "failed: " + detail.value("error", ""), "1.000x", std::to_string(entry["evaluations_us"].size())});
                    continue;
                }
                const double sp = entry_speedup(entry);
                s.table->rows.push_back({label, fmt::format("{:.3f}", entry.value("baseline_us", 0.0)),
                                         fmt::format("{:.3f}", entry.value("baseline_us", 0.0) / sp), fmt::format("{:.3f}x", sp),
                                         std::to_string(entry["evaluations_us"].size())});
                for (auto& d : diffs_of(label, entry)) s.diffs.push_back(std::move(d));
            }
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<Section> sections(const json& results) {
    std::vector<Section> out;
    out.push_back({2, "Results", "GM: geometric mean over operators of baseline latency / best correct latency (1.0 when nothing better was found); "
                                 "fast_p: share of operators faster than p times.",
                   results_table(results)});
    if (auto t = seeds_table(results))
        out.push_back({2, "Over seeds", "The study repeated with each seed; the mean over seeds and its two-sided 95% confidence interval (Student's t; GM on the log scale).", t});
    if (auto t = ablation_table(results)) out.push_back({2, "Ablation", "Each row leaves out components of the full method, at the same budget.", t});
    if (auto t = sensitivity_table(results)) {
        const size_t variants = results["sensitivity"].value("variants", json::array()).size();
        out.push_back({2, "How far the figures can move",
                       fmt::format("Each job's published and final programs re-timed under {} SoC descriptions: the nominal one, each estimated "
                                   "parameter at both ends of its range, and random draws within all ranges (bench --sensitivity). Robust GM: "
                                   "the GM of each operator's smallest speedup over them.",
                                   variants),
                       t});
        if (auto ops = sensitivity_operators_table(results)) out.push_back({3, "Per operator", "", ops});
    }
    if (auto t = llm_table(results)) out.push_back({2, "LLM calls, tokens and cost", "Calls paid for by this study (replayed replies are not counted again).", t});
    out.push_back({2, "Progress versus budget", "", std::nullopt, "progress"});
    out.push_back({2, "Speedup distribution", "", std::nullopt, "distribution"});
    out.push_back({2, "Speedup per operator", "", std::nullopt, "per_operator"});
    out.push_back({2, "Per operator", "Baseline versus best latency, and what each method changed."});
    for (auto& s : operator_sections(results)) out.push_back(std::move(s));
    return out;
}

std::string intro(const json& results, const std::string& newline) {
    std::string text = fmt::format("Budget {} evaluations per method and operator, seed {}; latencies are {} (the Ascend C twin's model).", results.value("budget", 0),
                                   results.value("seed", 0), results.value("latency_source", "sim") == "sim" ? "simulated" : "measured");
    if (results.value("rewind_share", 0) > 0)
        text += newline + fmt::format("ascendopt and stage1 pay {} of each operator's evaluations for the experience bank (rewind), as the reference study pays 20 of 230.",
                                      results.value("rewind_share", 0));
    return text;
}

// --- Markdown ---

std::string md_table(const Table& t) {
    std::string md = "|";
    for (const auto& h : t.header) md += " " + h + " |";
    md += "\n|";
    for (size_t i = 0; i < t.header.size(); ++i) md += "---|";
    md += "\n";
    for (const auto& row : t.rows) {
        md += "|";
        for (const auto& cell : row) md += " " + cell + " |";
        md += "\n";
    }
    return md + "\n";
}

// --- HTML ---

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

std::string html_table(const Table& t) {
    std::string html = t.id.empty() ? "<table><tr>" : "<table id=\"" + t.id + "\"><tr>";
    for (const auto& h : t.header) html += "<th>" + escape_html(h) + "</th>";
    html += "</tr>\n";
    for (const auto& row : t.rows) {
        html += "<tr>";
        for (const auto& cell : row) html += "<td>" + escape_html(cell) + "</td>";
        html += "</tr>\n";
    }
    return html + "</table>\n";
}

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

// Method names go into gnuplot strings; keep them to characters that need no quoting.
std::string plot_label(const std::string& s) {
    std::string out;
    for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : ' ';
    return out;
}

const char* const k_terminal = "set terminal svg size 720,360 dynamic font 'sans,11'\nset grid\nset key left top noenhanced\n";

Result<std::string> progress_plot(const json& results) {
    std::string script = std::string(k_terminal) + "set title 'Geometric-mean speedup versus evaluations'\nset xlabel 'evaluations per operator'\nset ylabel 'GM speedup (simulated)'\n";
    std::string plots;
    int i = 0;
    for (const auto& name : method_order(results)) {
        script += fmt::format("$m{} << EOD\n", i);
        size_t k = 1;
        for (const auto& v : results["methods"][name]["summary"]["progress_gm"]) script += fmt::format("{} {}\n", k++, v.get<double>());
        script += "EOD\n";
        plots += fmt::format("{}$m{} with lines lw 2 title '{}'", plots.empty() ? "plot " : ", ", i++, plot_label(name));
    }
    return gnuplot_svg(script + plots + "\n");
}

// Each method's speedups sorted from best to worst against the share of operators: the higher
// and longer a curve stays up, the more operators the method made fast.
Result<std::string> distribution_plot(const json& results) {
    std::string script = std::string(k_terminal) + "set title 'Speedup distribution'\nset xlabel 'share of operators'\nset ylabel 'speedup (sorted)'\nset yrange [0.9:*]\n";
    std::string plots;
    int i = 0;
    for (const auto& name : method_order(results)) {
        std::vector<double> s;
        for (const auto& entry : results["methods"][name]["operators"]) s.push_back(entry_speedup(entry));
        std::sort(s.rbegin(), s.rend());
        script += fmt::format("$d{} << EOD\n", i);
        for (size_t k = 0; k < s.size(); ++k) script += fmt::format("{} {}\n{} {}\n", double(k) / double(s.size()), s[k], double(k + 1) / double(s.size()), s[k]);
        script += "EOD\n";
        plots += fmt::format("{}$d{} with lines lw 2 title '{}'", plots.empty() ? "plot " : ", ", i++, plot_label(name));
    }
    return gnuplot_svg(script + plots + "\n");
}

Result<std::string> per_operator_plot(const json& results) {
    const auto methods = method_order(results);
    std::string script = std::string(k_terminal) + "set title 'Speedup per operator'\nset style data histograms\nset style fill solid 0.8\n"
                                                   "set ylabel 'speedup over the baseline'\nset xtics rotate by -40 noenhanced\n$d << EOD\noperator";
    for (const auto& name : methods) script += " " + plot_label(name);
    script += "\n";
    const json& first = results["methods"][methods.front()]["operators"];
    for (size_t i = 0; i < first.size(); ++i) {
        script += plot_label(first[i].value("operator", "?"));
        for (const auto& name : methods) script += fmt::format(" {}", entry_speedup(results["methods"][name]["operators"][i]));
        script += "\n";
    }
    script += "EOD\nplot ";
    for (size_t j = 0; j < methods.size(); ++j) script += fmt::format("{}$d using {}:xtic(1) title '{}'", j ? ", " : "", j + 2, plot_label(methods[j]));
    return gnuplot_svg(script + "\n");
}

}  // namespace

std::string report_markdown(const json& results) {
    std::string md = fmt::format("# ascendopt study: {}\n\n{}\n\n", results.value("suite", "?"), intro(results, "\n"));
    for (const auto& s : sections(results)) {
        md += std::string(size_t(s.level), '#') + " " + s.title + "\n\n";
        if (!s.text.empty()) md += s.text + "\n\n";
        if (!s.plot.empty()) md += "(plot in report.html)\n\n";
        if (s.table) md += md_table(*s.table);
        for (const auto& d : s.diffs) md += "**" + d.title + "**\n\n```" + d.lang + "\n" + d.text + "```\n\n";
    }
    return md;
}

Result<std::string> report_html(const json& results) {
    if (method_order(results).empty()) return make_error("results.json holds no method", "run ascendopt bench with at least one method");
    std::map<std::string, std::string> plots;
    for (const auto& [key, draw] : {std::pair{"progress", &progress_plot}, std::pair{"distribution", &distribution_plot}, std::pair{"per_operator", &per_operator_plot}}) {
        auto svg = draw(results);
        if (!svg) return svg.error();
        plots[key] = std::move(*svg);
    }
    std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>ascendopt study</title>\n<style>"
                       "body{font-family:sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;margin:1em 0}"
                       "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th{background:#f0f0f0}td:first-child,td:nth-child(2){text-align:left}"
                       "pre{background:#f7f7f7;padding:8px;overflow-x:auto}summary{cursor:pointer}"
                       "</style></head><body>\n";
    html += fmt::format("<h1>ascendopt study: {}</h1>\n<p>{}</p>\n", escape_html(results.value("suite", "?")), escape_html(intro(results, " ")));
    for (const auto& s : sections(results)) {
        html += fmt::format("<h{0}>{1}</h{0}>\n", s.level, escape_html(s.title));
        if (!s.text.empty()) html += "<p>" + escape_html(s.text) + "</p>\n";
        if (!s.plot.empty()) html += plots[s.plot] + "\n";
        if (s.table) html += html_table(*s.table);
        for (const auto& d : s.diffs) html += "<details><summary>" + escape_html(d.title) + "</summary><pre>" + escape_html(d.text) + "</pre></details>\n";
    }
    return html + "</body></html>\n";
}

}  // namespace ascendopt
