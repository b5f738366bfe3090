#include "study/metrics.h"

#include <algorithm>
#include <cmath>

namespace ascendopt {

double speedup(const OperatorOutcome& o, std::optional<size_t> first_n) {
    const size_t n = std::min(first_n.value_or(o.evaluations.size()), o.evaluations.size());
    double best = o.baseline_us;
    for (size_t i = 0; i < n; ++i)
        if (o.evaluations[i] && *o.evaluations[i] > 0) best = std::min(best, *o.evaluations[i]);
    return o.baseline_us > 0 && best < o.baseline_us ? o.baseline_us / best : 1.0;
}

double geometric_mean(const std::vector<double>& values) {
    if (values.empty()) return 1.0;
    double log_sum = 0;
    for (double v : values) log_sum += std::log(v);
    return std::exp(log_sum / double(values.size()));
}

double fast_p(const std::vector<double>& speedups, double p) {
    if (speedups.empty()) return 0;
    return double(std::count_if(speedups.begin(), speedups.end(), [p](double s) { return s > p; })) / double(speedups.size());
}

const std::vector<double>& default_fast_ps() {
    static const std::vector<double> ps = {1.0, 1.2, 1.4, 1.8, 2.0};
    return ps;
}

namespace {

GroupSummary group(const std::vector<double>& speedups, const std::vector<double>& ps) {
    GroupSummary g;
    g.operators = speedups.size();
    g.gm = geometric_mean(speedups);
    for (double p : ps) g.fast[p] = fast_p(speedups, p);
    return g;
}

}  // namespace

MethodSummary summarize(const std::vector<OperatorOutcome>& outcomes, size_t budget, const std::vector<double>& ps) {
    MethodSummary s;
    std::vector<double> all;
    std::map<std::string, std::vector<double>> levels;
    for (const auto& o : outcomes) {
        all.push_back(speedup(o));
        levels[o.level].push_back(all.back());
    }
    s.all = group(all, ps);
    for (const auto& [level, values] : levels) s.by_level[level] = group(values, ps);
    for (size_t k = 1; k <= budget; ++k) {
        std::vector<double> at_k;
        for (const auto& o : outcomes) at_k.push_back(speedup(o, k));
        s.progress.push_back(geometric_mean(at_k));
    }
    return s;
}

}  // namespace ascendopt
