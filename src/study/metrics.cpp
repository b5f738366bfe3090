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

Interval mean_interval95(const std::vector<double>& values) {
    Interval r;
    r.n = values.size();
    if (values.empty()) return r;
    double sum = 0;
    for (double v : values) sum += v;
    r.mean = r.low = r.high = sum / double(r.n);
    if (r.n < 2) return r;
    double squares = 0;
    for (double v : values) squares += (v - r.mean) * (v - r.mean);
    // Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom; the normal beyond.
    static const double t975[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                  2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                  2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    const size_t df = r.n - 1;
    const double t = df <= 30 ? t975[df - 1] : 1.960;
    const double half = t * std::sqrt(squares / double(df)) / std::sqrt(double(r.n));
    r.low = r.mean - half;
    r.high = r.mean + half;
    return r;
}

namespace {

Interval geometric_interval95(const std::vector<double>& gms) {
    std::vector<double> logs;
    for (double g : gms) logs.push_back(std::log(g));
    Interval l = mean_interval95(logs);
    return {std::exp(l.mean), std::exp(l.low), std::exp(l.high), l.n};
}

GroupSummary combine(const std::vector<const GroupSummary*>& groups, const std::vector<double>& ps) {
    GroupSummary g;
    std::vector<double> gms;
    for (const auto* s : groups) {
        gms.push_back(s->gm);
        g.operators = std::max(g.operators, s->operators);
    }
    g.gm = geometric_mean(gms);
    for (double p : ps) {
        double sum = 0;
        for (const auto* s : groups) sum += s->fast.at(p);
        g.fast[p] = groups.empty() ? 0 : sum / double(groups.size());
    }
    return g;
}

}  // namespace

SeededSummary summarize_seeds(const std::vector<std::vector<OperatorOutcome>>& by_seed, size_t budget, const std::vector<double>& ps) {
    SeededSummary out;
    for (const auto& outcomes : by_seed) out.per_seed.push_back(summarize(outcomes, budget, ps));
    std::vector<const GroupSummary*> alls;
    std::map<std::string, std::vector<const GroupSummary*>> levels;
    for (const auto& s : out.per_seed) {
        alls.push_back(&s.all);
        for (const auto& [level, g] : s.by_level) levels[level].push_back(&g);
    }
    out.combined.all = combine(alls, ps);
    for (const auto& [level, gs] : levels) out.combined.by_level[level] = combine(gs, ps);
    for (size_t k = 0; k < budget; ++k) {
        std::vector<double> at_k;
        for (const auto& s : out.per_seed)
            if (k < s.progress.size()) at_k.push_back(s.progress[k]);
        out.combined.progress.push_back(geometric_mean(at_k));
    }
    std::vector<double> gms;
    for (const auto* g : alls) gms.push_back(g->gm);
    out.gm = geometric_interval95(gms);
    for (double p : ps) {
        std::vector<double> shares;
        for (const auto* g : alls) shares.push_back(g->fast.at(p));
        out.fast[p] = mean_interval95(shares);
    }
    return out;
}

}  // namespace ascendopt
