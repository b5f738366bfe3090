#include "study/sensitivity.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "eval/ledger.h"
#include "study/metrics.h"
#include "util/random.h"

namespace ascendopt {
namespace {

using nlohmann::json;

// A factor drawn so that halving and doubling are equally likely (ranges span up to 10x).
double log_uniform(Rng& rng, double lo, double hi) {
    if (lo <= 0) return rng.uniform(lo, hi);
    return std::exp(rng.uniform(std::log(lo), std::log(hi)));
}

double median_of(std::vector<double> v) {
    if (v.empty()) return 1;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Result<double> latency_under(Evaluator& evaluator, const OperatorSource& op, const json& soc) {
    EvalRequest request;
    request.soc_description = soc;
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

std::vector<OperatorSensitivity> per_operator(const std::vector<PairSensitivity>& pairs, const std::vector<SocVariant>& variants) {
    std::map<std::string, std::vector<const PairSensitivity*>> by_op;
    for (const auto& p : pairs) by_op[p.op].push_back(&p);
    std::vector<OperatorSensitivity> out;
    for (const auto& [op, jobs] : by_op) {
        OperatorSensitivity s{op};
        std::vector<double> all, nominals;
        s.min = INFINITY;
        s.max = -INFINITY;
        for (const PairSensitivity* p : jobs) {
            if (p->speedups.empty()) continue;
            nominals.push_back(p->speedups.front());
            for (size_t i = 0; i < p->speedups.size(); ++i) {
                const double v = p->speedups[i];
                all.push_back(v);
                if (v < s.min) s.min = v, s.min_at = i < variants.size() ? variants[i].label : "";
                s.max = std::max(s.max, v);
            }
        }
        if (all.empty()) s.min = s.max = 1;
        s.nominal = median_of(nominals);
        s.median = median_of(all);
        out.push_back(std::move(s));
    }
    return out;
}

SensitivitySummary summarize(const std::vector<OperatorSensitivity>& ops) {
    SensitivitySummary s;
    std::vector<double> nominal, minima, without;
    const OperatorSensitivity* largest = nullptr;
    for (const auto& o : ops) {
        nominal.push_back(o.nominal);
        minima.push_back(o.min);
        if (!largest || o.nominal > largest->nominal) largest = &o;
    }
    for (const auto& o : ops)
        if (&o != largest) without.push_back(o.nominal);
    s.gm = geometric_mean(nominal);
    s.robust_gm = geometric_mean(minima);
    s.gm_without_largest = without.empty() ? 1 : geometric_mean(without);
    if (largest) s.largest = largest->op;
    return s;
}

Result<std::vector<double>> retime(const OperatorSource& op, const std::vector<SocVariant>& variants, Evaluator& evaluator) {
    std::vector<double> latencies;
    for (size_t i = 0; i < variants.size(); ++i) {
        auto l = latency_under(evaluator, op, variants[i].soc);
        if (!l) {
            Error e = l.error();
            e.message += " (variant " + variants[i].label + ")";
            return e;
        }
        latencies.push_back(*l);
    }
    return latencies;
}

json sensitivity_json(const std::vector<SocVariant>& variants, const std::vector<std::pair<std::string, std::vector<PairSensitivity>>>& by_method) {
    json labels = json::array();
    for (const auto& v : variants) labels.push_back(v.label);
    json methods = json::object();
    for (const auto& [method, pairs] : by_method) {
        json jobs = json::array(), ops = json::array();
        for (const auto& p : pairs) jobs.push_back({{"op", p.op}, {"seed", p.seed}, {"speedups", p.speedups}});
        const auto per_op = per_operator(pairs, variants);
        for (const auto& o : per_op)
            ops.push_back({{"op", o.op}, {"nominal", o.nominal}, {"median", o.median}, {"min", o.min}, {"max", o.max}, {"min_at", o.min_at}});
        const SensitivitySummary s = summarize(per_op);
        methods[method] = {{"jobs", jobs},
                           {"operators", ops},
                           {"summary", {{"gm", s.gm}, {"robust_gm", s.robust_gm}, {"gm_without_largest", s.gm_without_largest}, {"largest", s.largest}}}};
    }
    return {{"variants", labels}, {"methods", methods}};
}

}  // namespace ascendopt
