#include "calibrate/calibrate.h"

#include <toml++/toml.h>

#include <cmath>
#include <map>
#include <sstream>

#include "eval/soc_variants.h"
#include "util/random.h"

namespace ascendopt {
namespace {

using nlohmann::json;

// Estimates calibrate leaves as they are: l2.resident_fraction says how warm the L2 is when a
// launch is timed, which the measurement protocol decides (warm-up, then repeats: resident),
// not the chip; the microbenchmarks are timed under that same protocol.
bool held(const std::string& name) { return name == "l2.resident_fraction"; }

std::vector<UncertainParameter> moving_parameters(const std::vector<SocParameter>& params) {
    std::vector<UncertainParameter> out;
    for (auto& u : uncertain_parameters(params))
        if (u.low_factor < u.high_factor && !held(u.name)) out.push_back(std::move(u));
    return out;
}

json scaled_by(const SocWithParameters& soc, const std::vector<UncertainParameter>& u, const std::vector<double>& factors) {
    json doc = soc.doc;
    for (size_t i = 0; i < u.size(); ++i)
        if (factors[i] != 1) doc = scaled_soc(std::move(doc), soc.parameters, u[i], factors[i]);
    return with_nominal_platform_view(std::move(doc), soc.doc);
}

// The perf cases' latencies of one evaluation, by case name; every case must pass.
Result<std::map<std::string, const CaseResult*>> passing_cases(const EvalResult& r) {
    std::map<std::string, const CaseResult*> out;
    for (const auto& c : r.cases) {
        if (c.status != EvalStatus::ok || !c.latency_us)
            return make_error("calibration case " + c.name + " did not pass (" + status_name(c.status) + ": " + c.reason + ")",
                              "the microbenchmarks must run correctly before they can be timed");
        out[c.name] = &c;
    }
    if (out.empty()) return make_error("the calibration operator has no perf case");
    return out;
}

EvalRequest perf_request() {
    EvalRequest r;
    r.role_filter = CaseRole::perf;
    return r;
}

// The model's latencies of `names` at each point, from one evaluation timing them all.
Result<std::vector<std::vector<double>>> model_latencies(const OperatorSource& probe, const SocWithParameters& soc,
                                                         const std::vector<UncertainParameter>& u, const std::vector<std::string>& names,
                                                         Evaluator& model, const std::vector<std::vector<double>>& points) {
    EvalRequest request = perf_request();
    request.soc_description = soc.doc;
    json variants = json::array();
    for (const auto& p : points) variants.push_back(scaled_by(soc, u, p));
    request.timing_variants = variants;
    auto result = model.evaluate(probe, request);
    if (!result) return result.error();
    auto cases = passing_cases(*result);
    if (!cases) return cases.error();
    std::vector<std::vector<double>> rows(points.size(), std::vector<double>(names.size()));
    for (size_t m = 0; m < names.size(); ++m) {
        const auto it = cases->find(names[m]);
        if (it == cases->end()) return make_error("the model did not run calibration case " + names[m]);
        if (it->second->variant_latency_us.size() != points.size())
            return make_error("the model could not time calibration case " + names[m] + " under the candidate values in one run");
        for (size_t p = 0; p < points.size(); ++p) rows[p][m] = it->second->variant_latency_us[p];
    }
    return rows;
}

// Each estimate's factor drawn within its range from `seed`.
std::vector<double> drawn_factors(const std::vector<UncertainParameter>& u, uint64_t seed) {
    Rng rng(seed * 7919 + 17);
    std::vector<double> f;
    for (const auto& p : u) {
        // A range from zero (l2.resident_fraction) is drawn uniformly, as the sensitivity pass does.
        if (p.low_factor <= 0) f.push_back(rng.uniform(p.low_factor, p.high_factor));
        else f.push_back(std::exp(rng.uniform(std::log(p.low_factor), std::log(p.high_factor))));
    }
    return f;
}

toml::table toml_table(const json& j);

toml::array toml_array(const json& j);

// Calls `put` with `j` as a TOML value; a null is left out (TOML has none).
template <class Put>
void as_toml(const json& j, Put&& put) {
    if (j.is_object()) put(toml_table(j));
    else if (j.is_array()) put(toml_array(j));
    else if (j.is_boolean()) put(j.get<bool>());
    else if (j.is_number_integer()) put(j.get<int64_t>());
    else if (j.is_number()) put(j.get<double>());
    else if (j.is_string()) put(j.get<std::string>());
}

toml::table toml_table(const json& j) {
    toml::table t;
    for (const auto& [k, v] : j.items()) as_toml(v, [&](auto&& value) { t.insert(k, std::forward<decltype(value)>(value)); });
    return t;
}

toml::array toml_array(const json& j) {
    toml::array a;
    for (const auto& v : j) as_toml(v, [&](auto&& value) { a.push_back(std::forward<decltype(value)>(value)); });
    return a;
}

}  // namespace

Result<CalibrationReport> calibrate(const OperatorSource& probe, const SocWithParameters& soc, Evaluator& backend, Evaluator& model,
                                    const CalibrationOptions& options, const ProgressFn& progress) {
    CalibrationReport report;
    report.uncertain = moving_parameters(soc.parameters);
    EvalRequest measure = perf_request();
    if (options.self_test_seed) {
        report.truth = drawn_factors(report.uncertain, *options.self_test_seed);
        measure.soc_description = scaled_by(soc, report.uncertain, report.truth);
    }
    progress("calibrate", "measuring the microbenchmarks");
    auto measured = backend.evaluate(probe, measure, progress);
    if (!measured) return measured.error();
    auto cases = passing_cases(*measured);
    if (!cases) return cases.error();
    std::vector<std::string> names;
    std::vector<double> latencies;
    for (const auto& [name, c] : *cases) {
        names.push_back(name);
        latencies.push_back(*c->latency_us);
    }
    int calls = 0;
    const LatencyPredictor predict = [&](const std::vector<std::vector<double>>& points) {
        progress("calibrate", "fitting: model run " + std::to_string(++calls) + " (" + std::to_string(points.size()) + " candidate SoCs)");
        return model_latencies(probe, soc, report.uncertain, names, model, points);
    };
    auto fit = fit_factors(report.uncertain, latencies, predict, options.fit);
    if (!fit) return fit.error();
    report.fit = std::move(*fit);
    for (size_t m = 0; m < names.size(); ++m) report.measurements.push_back({names[m], latencies[m], report.fit.predicted[m]});
    return report;
}

json fitted_soc_description(const SocWithParameters& soc, const CalibrationReport& report, const std::string& how) {
    json doc = soc.doc;
    for (size_t i = 0; i < report.uncertain.size(); ++i)
        if (report.fit.parameters[i].fitted && report.fit.parameters[i].factor != 1)
            doc = scaled_soc(std::move(doc), soc.parameters, report.uncertain[i], report.fit.parameters[i].factor);
    char residual[64];
    std::snprintf(residual, sizeof residual, "%.2f%%", 100 * report.fit.rms_log_residual);
    doc["provenance"] = soc.provenance;
    for (const auto& p : report.fit.parameters) {
        if (!p.fitted || !doc["provenance"].contains(p.name)) continue;
        json& entry = doc["provenance"][p.name];
        char factor[64];
        std::snprintf(factor, sizeof factor, "%.4g", p.factor);
        const std::string was = entry.value("source", "");
        if (p.determined) {
            // Measured: its uncertainty is the fit's now, not the estimate's range.
            for (const char* gone : {"range", "range_factor", "reason"}) entry.erase(gone);
            entry["kind"] = "measured";
            entry["source"] = "ascendopt calibrate, " + how + ": " + factor + " x the value it replaced (" + was +
                              "); the fit's rms residual over the microbenchmarks " + residual;
        } else {
            // Fitted together with parameters it trades off against: the set reproduces the
            // measurements, this one alone is still an estimate.
            entry["source"] = was + "; ascendopt calibrate (" + how + ") moved it by " + factor +
                              " x together with others the microbenchmarks do not tell it from";
        }
    }
    return doc;
}

std::string soc_toml(const json& doc, const std::string& header_comment) {
    std::ostringstream out;
    std::istringstream lines(header_comment);
    for (std::string line; std::getline(lines, line);) out << "# " << line << "\n";
    out << toml_table(doc) << "\n";
    return out.str();
}

}  // namespace ascendopt
