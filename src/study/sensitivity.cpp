#include "study/sensitivity.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "study/metrics.h"

namespace ascendopt {
namespace {

using nlohmann::json;

double median_of(std::vector<double> v) {
    if (v.empty()) return 1;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

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
