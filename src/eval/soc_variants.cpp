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

// The latency the searches minimise (record_of) of `op` under `soc`, and under each of
// `also` when the run could time them in the same go (else an empty list).
struct Timed {
    double latency = 0;
    std::vector<double> also;
};

// The objective (objective_latency, eval/ledger.h) on `soc`, and under each of `also` when the
// run timed them all; `also` left empty in the result means they need runs of their own.
Result<Timed> time_under(Evaluator& evaluator, const OperatorSource& op, const json& soc, const json& also,
                         const std::map<std::string, std::string>& env) {
    EvalRequest request;
    request.soc_description = soc;
    if (!also.empty()) request.timing_variants = also;
    request.env = env;
    // Perf cases only, as the searches' objective; all cases when none is marked perf.
    if (std::any_of(op.cases.begin(), op.cases.end(), [](const CaseDraft& c) { return c.role == CaseRole::perf; }))
        request.role_filter = CaseRole::perf;
    auto result = evaluator.evaluate(op, request);
    if (!result) return result.error();
    const EvaluationRecord record = record_of(*result);
    if (!record.latency_us) return make_error(op.display_name() + " does not pass under a SoC variant: " + result->reason);
    Timed t{*record.latency_us, {}};
    for (size_t v = 0; v < also.size(); ++v) {
        const auto l = objective_latency(*result, [v](const CaseResult& c) -> std::optional<double> {
            if (c.variant_latency_us.size() <= v) return std::nullopt;
            return c.variant_latency_us[v];
        });
        if (!l) return Timed{t.latency, {}};
        t.also.push_back(*l);
    }
    return t;
}

// The GetCoreMemBw figure host code sees (TimingParams::mte_reported_bytes_per_cycle).
json reported_bandwidth(const json& soc) {
    const json mte = soc.value("mte", json::object());
    return mte.contains("reported_bytes_per_cycle") ? mte["reported_bytes_per_cycle"] : mte.value("bytes_per_cycle", json());
}

}  // namespace

bool same_chip(const json& a, const json& b) {
    for (const char* key : {"name", "short_name", "family", "cores", "memory", "clock"})
        if (a.value(key, json()) != b.value(key, json())) return false;
    return reported_bandwidth(a) == reported_bandwidth(b);
}

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
    for (size_t i = 1; i < out.size(); ++i) out[i].soc = with_nominal_platform_view(std::move(out[i].soc), soc);
    return out;
}

json with_nominal_platform_view(json variant, const json& nominal) {
    if (variant.contains("mte") && !variant["mte"].contains("reported_bytes_per_cycle"))
        variant["mte"]["reported_bytes_per_cycle"] = reported_bandwidth(nominal);
    return variant;
}

Result<std::vector<double>> retime(const OperatorSource& op, const std::vector<SocVariant>& variants, Evaluator& evaluator,
                                   const std::map<std::string, std::string>& env) {
    if (variants.empty()) return std::vector<double>{};
    auto labelled = [&](Error e, size_t i) {
        e.message += " (variant " + variants[i].label + ")";
        return e;
    };
    // One run times the nominal SoC and every variant of the same chip together; a variant that
    // is another chip, or a run whose cores could not follow the variants, costs a run of its own.
    json together = json::array();
    std::vector<size_t> which;
    for (size_t i = 1; i < variants.size(); ++i)
        if (same_chip(variants[0].soc, variants[i].soc)) {
            together.push_back(variants[i].soc);
            which.push_back(i);
        }
    auto first = time_under(evaluator, op, variants[0].soc, together, env);
    if (!first) return labelled(first.error(), 0);
    std::vector<std::optional<double>> latencies(variants.size());
    latencies[0] = first->latency;
    for (size_t k = 0; k < first->also.size(); ++k) latencies[which[k]] = first->also[k];
    std::vector<double> out;
    for (size_t i = 0; i < variants.size(); ++i) {
        if (!latencies[i]) {
            auto alone = time_under(evaluator, op, variants[i].soc, json::array(), env);
            if (!alone) return labelled(alone.error(), i);
            latencies[i] = alone->latency;
        }
        out.push_back(*latencies[i]);
    }
    return out;
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
