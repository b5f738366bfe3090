#include "eval/soc_variants.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "eval/ledger.h"
#include "util/random.h"

namespace ascendopt {
namespace {

using nlohmann::json;

// A factor drawn so that halving and doubling are equally likely (ranges span up to 10x).
double log_uniform(Rng& rng, double lo, double hi) {
    if (lo <= 0) return rng.uniform(lo, hi);
    return std::exp(rng.uniform(std::log(lo), std::log(hi)));
}

Result<double> latency_under(Evaluator& evaluator, const OperatorSource& op, const json& soc, const std::map<std::string, std::string>& env) {
    EvalRequest request;
    request.soc_description = soc;
    request.env = env;
    // Perf cases only, as the searches' objective; all cases when none is marked perf.
    if (std::any_of(op.cases.begin(), op.cases.end(), [](const CaseDraft& c) { return c.role == CaseRole::perf; }))
        request.role_filter = CaseRole::perf;
    auto result = evaluator.evaluate(op, request);
    if (!result) return result.error();
    const EvaluationRecord record = record_of(*result);
    if (!record.latency_us) return make_error(op.display_name() + " does not pass under a SoC variant: " + result->reason);
    return *record.latency_us;
}

}  // namespace

std::vector<SocVariant> sensitivity_variants(const json& soc, const std::vector<SocParameter>& params, int samples, uint64_t seed) {
    std::vector<SocVariant> out{{"nominal", soc}};
    std::vector<UncertainParameter> uncertain;
    for (auto& u : uncertain_parameters(params))
        if (u.low_factor < u.high_factor) uncertain.push_back(std::move(u));  // a zero-width range moves nothing
    for (const auto& u : uncertain) {  // an end at the file's own value would repeat the nominal
        if (u.low_factor != 1) out.push_back({u.name + "=low", scaled_soc(soc, params, u, u.low_factor)});
        if (u.high_factor != 1) out.push_back({u.name + "=high", scaled_soc(soc, params, u, u.high_factor)});
    }
    for (int k = 0; k < samples && !uncertain.empty(); ++k) {
        Rng rng(seed * 1000003 + uint64_t(k));
        json doc = soc;
        for (const auto& u : uncertain) doc = scaled_soc(std::move(doc), params, u, log_uniform(rng, u.low_factor, u.high_factor));
        out.push_back({"sample-" + std::to_string(k + 1), std::move(doc)});
    }
    return out;
}

Result<std::vector<double>> retime(const OperatorSource& op, const std::vector<SocVariant>& variants, Evaluator& evaluator,
                                   const std::map<std::string, std::string>& env) {
    std::vector<double> latencies;
    for (size_t i = 0; i < variants.size(); ++i) {
        auto l = latency_under(evaluator, op, variants[i].soc, env);
        if (!l) {
            Error e = l.error();
            e.message += " (variant " + variants[i].label + ")";
            return e;
        }
        latencies.push_back(*l);
    }
    return latencies;
}

Result<RobustGain> robust_gain(const TimedProgram& before, const TimedProgram& after, const std::vector<SocVariant>& variants,
                               Evaluator& evaluator) {
    auto b = retime(before.op, variants, evaluator, before.env);
    if (!b) return b.error();
    auto a = retime(after.op, variants, evaluator, after.env);
    if (!a) return a.error();
    RobustGain g;
    for (size_t i = 0; i < variants.size(); ++i) {
        const double ratio = (*b)[i] / (*a)[i];
        if (i == 0) g.nominal = ratio;
        if (i == 0 || ratio < g.worst) {
            g.worst = ratio;
            g.worst_at = variants[i].label;
        }
    }
    return g;
}

nlohmann::json to_json(const std::vector<SocVariant>& variants) {
    json out = json::array();
    for (const auto& v : variants) out.push_back({{"label", v.label}, {"soc", v.soc}});
    return out;
}

std::vector<SocVariant> robust_variants(const EvalOptions& options) {
    std::vector<SocVariant> out;
    if (!options.robust || !options.robust_variants.is_array()) return out;
    for (const auto& v : options.robust_variants) out.push_back({v.value("label", std::string()), v.value("soc", json::object())});
    return out;
}

std::string describe_robust(const RobustGain& g) {
    char text[160];
    std::snprintf(text, sizeof text, "%.3fx on the nominal SoC, %.3fx at %s", g.nominal, g.worst, g.worst_at.c_str());
    return text;
}

}  // namespace ascendopt
