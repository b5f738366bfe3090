#include "calibrate/fit.h"

#include "calibrate/least_squares.h"

#include <algorithm>
#include <cmath>

namespace ascendopt {
namespace {

struct Axis {
    double lo = 0, hi = 0;  // log factor bounds
};

double objective(const std::vector<double>& predicted, const std::vector<double>& measured) {
    double sum = 0;
    for (size_t i = 0; i < measured.size(); ++i) {
        const double r = std::log(predicted[i] / measured[i]);
        sum += r * r;
    }
    return sum;
}

std::vector<double> factors_of(const std::vector<double>& logs) {
    std::vector<double> f;
    for (const double l : logs) f.push_back(std::exp(l));
    return f;
}

// Checks a predictor's answer: one row per point, one positive latency per measurement.
Status check_predictions(const std::vector<std::vector<double>>& rows, size_t points, size_t measurements) {
    if (rows.size() != points) return make_error("the predictor answered " + std::to_string(rows.size()) + " of " + std::to_string(points) + " points");
    for (const auto& row : rows) {
        if (row.size() != measurements) return make_error("the predictor gave " + std::to_string(row.size()) + " latencies for " + std::to_string(measurements) + " measurements");
        for (const double v : row)
            if (!(v > 0) || !std::isfinite(v)) return make_error("the predictor gave a latency of " + std::to_string(v));
    }
    return ok_status();
}

class Search {
public:
    Search(const std::vector<UncertainParameter>& u, const std::vector<double>& measured, const LatencyPredictor& predict)
        : m_measured(measured), m_predict(predict) {
        // A range from zero (l2.resident_fraction) is searched from a thousandth of its top.
        for (const auto& p : u) m_axes.push_back({std::log(std::max(p.low_factor, p.high_factor * 1e-3)), std::log(p.high_factor)});
        m_x.assign(u.size(), 0.0);
        for (size_t i = 0; i < u.size(); ++i) m_x[i] = std::clamp(0.0, m_axes[i].lo, m_axes[i].hi);
    }

    Result<std::vector<std::vector<double>>> predict(const std::vector<std::vector<double>>& log_points) {
        std::vector<std::vector<double>> points;
        for (const auto& p : log_points) points.push_back(factors_of(p));
        auto rows = m_predict(points);
        if (!rows) return rows.error();
        if (auto s = check_predictions(*rows, points.size(), m_measured.size()); !s) return s.error();
        m_points += int(points.size());
        return rows;
    }

    // How far each parameter alone moves the predictions across its range.
    Result<std::vector<double>> sensitivities() {
        std::vector<std::vector<double>> pts;
        for (size_t i = 0; i < m_x.size(); ++i)
            for (const double end : {m_axes[i].lo, m_axes[i].hi}) {
                auto p = m_x;
                p[i] = end;
                pts.push_back(p);
            }
        auto rows = predict(pts);
        if (!rows) return rows.error();
        std::vector<double> s(m_x.size(), 0.0);
        for (size_t i = 0; i < m_x.size(); ++i)
            for (size_t m = 0; m < m_measured.size(); ++m)
                s[i] = std::max(s[i], std::fabs(std::log((*rows)[2 * i + 1][m] / (*rows)[2 * i][m])));
        return s;
    }

    // One round: a grid of `grid` points over [x - w, x + w] for each free parameter, all in one
    // prediction; then the best of: every parameter at its best point together, or the single
    // best move. Returns the objective reached; `at_edge[i]` says whether parameter i's best
    // point was an end of its grid inside its range (its optimum may lie further out).
    Result<double> round(const std::vector<size_t>& free, const std::vector<double>& half_width, int grid, double current,
                         std::vector<char>& at_edge) {
        std::vector<std::vector<double>> pts;
        std::vector<std::pair<size_t, double>> where;  // (parameter, value) per point
        std::vector<char> edge_point;
        for (const size_t i : free) {
            const double lo = std::max(m_axes[i].lo, m_x[i] - half_width[i]), hi = std::min(m_axes[i].hi, m_x[i] + half_width[i]);
            for (int g = 0; g < grid; ++g) {
                auto p = m_x;
                p[i] = lo + (hi - lo) * g / (grid - 1);
                pts.push_back(p);
                where.push_back({i, p[i]});
                edge_point.push_back((g == 0 && lo > m_axes[i].lo) || (g == grid - 1 && hi < m_axes[i].hi));
            }
        }
        auto rows = predict(pts);
        if (!rows) return rows.error();
        std::vector<double> best_value = m_x, best_obj(m_x.size(), current);
        double single_obj = current;
        size_t single = free.empty() ? 0 : free.front();
        at_edge.assign(m_x.size(), 0);
        for (size_t k = 0; k < pts.size(); ++k) {
            const auto [i, v] = where[k];
            const double o = objective((*rows)[k], m_measured);
            if (o < best_obj[i]) {
                best_obj[i] = o;
                best_value[i] = v;
                at_edge[i] = edge_point[k];
            }
            if (o < single_obj) {
                single_obj = o;
                single = i;
            }
        }
        if (single_obj >= current) return current;
        auto together = predict({best_value});
        if (!together) return together.error();
        const double together_obj = objective(together->front(), m_measured);
        if (together_obj <= single_obj) {
            m_x = best_value;
            return together_obj;
        }
        m_x[single] = best_value[single];
        return single_obj;
    }

    // One Levenberg-Marquardt step on the free parameters from the current point: the residuals'
    // Jacobian by central differences (one model run), then steps of decreasing damping until
    // one lowers the objective (one run each). Returns the objective reached.
    Result<double> refine(const std::vector<size_t>& free, double current, double& damping) {
        auto jac = jacobian(free);
        if (!jac) return jac.error();
        auto here = predict({m_x});
        if (!here) return here.error();
        const size_t n = free.size(), m = m_measured.size();
        std::vector<double> r(m);
        for (size_t k = 0; k < m; ++k) r[k] = std::log(here->front()[k] / m_measured[k]);
        for (int attempt = 0; attempt < 6; ++attempt, damping *= 10) {
            const auto step = damped_step(*jac, r, damping);
            if (!step) break;
            auto p = m_x;
            for (size_t j = 0; j < n; ++j) p[free[j]] = std::clamp(p[free[j]] + (*step)[j], m_axes[free[j]].lo, m_axes[free[j]].hi);
            auto at = predict({p});
            if (!at) return at.error();
            const double o = objective(at->front(), m_measured);
            if (o < current) {
                m_x = p;
                damping = std::max(damping / 10, 1e-9);
                return o;
            }
        }
        return current;
    }

    // d log(latency_k) / d log(factor_j) at the current point, by central differences (one run).
    Result<std::vector<std::vector<double>>> jacobian(const std::vector<size_t>& free) {
        constexpr double h = 1e-3;
        std::vector<std::vector<double>> pts;
        for (const size_t i : free)
            for (const double d : {-h, h}) {
                auto p = m_x;
                p[i] += d;
                pts.push_back(p);
            }
        auto rows = predict(pts);
        if (!rows) return rows.error();
        std::vector<std::vector<double>> jac(m_measured.size(), std::vector<double>(free.size()));
        for (size_t j = 0; j < free.size(); ++j)
            for (size_t k = 0; k < m_measured.size(); ++k) jac[k][j] = std::log((*rows)[2 * j + 1][k] / (*rows)[2 * j][k]) / (2 * h);
        return jac;
    }

    Result<std::vector<double>> predicted_here() {
        auto rows = predict({m_x});
        if (!rows) return rows.error();
        return rows->front();
    }

    const std::vector<Axis>& axes() const { return m_axes; }
    const std::vector<double>& x() const { return m_x; }
    int points() const { return m_points; }

private:
    const std::vector<double>& m_measured;
    const LatencyPredictor& m_predict;
    std::vector<Axis> m_axes;
    std::vector<double> m_x;
    int m_points = 0;
};

}  // namespace

Result<FitResult> fit_factors(const std::vector<UncertainParameter>& uncertain, const std::vector<double>& measured,
                              const LatencyPredictor& predict, const FitOptions& options) {
    if (measured.empty()) return make_error("no measurement to fit");
    for (const double m : measured)
        if (!(m > 0) || !std::isfinite(m)) return make_error("a measured latency of " + std::to_string(m) + " cannot be fitted");
    if (options.grid < 3) return make_error("the fit's grid needs at least 3 points");
    Search search(uncertain, measured, predict);
    auto sens = search.sensitivities();
    if (!sens) return sens.error();
    FitResult out;
    std::vector<size_t> free;
    std::vector<double> half_width(uncertain.size(), 0.0);
    for (size_t i = 0; i < uncertain.size(); ++i) {
        ParameterFit f{uncertain[i].name, 1.0, (*sens)[i]};
        f.fitted = (*sens)[i] > options.min_sensitivity;
        if (f.fitted) {
            free.push_back(i);
            half_width[i] = search.axes()[i].hi - search.axes()[i].lo;
        }
        out.parameters.push_back(f);
    }
    auto start = search.predicted_here();
    if (!start) return start.error();
    double current = objective(*start, measured);
    // Grid rounds; then the parameters that were not sensitive at the file's values are looked at
    // again where the grid arrived (a bandwidth the file's L2 hid), and the grid runs once more
    // with those that matter there.
    for (int phase = 0; phase < 2; ++phase) {
        if (phase == 1) {
            auto again = search.sensitivities();
            if (!again) return again.error();
            bool added = false;
            for (size_t i = 0; i < uncertain.size(); ++i) {
                auto& f = out.parameters[i];
                f.sensitivity = std::max(f.sensitivity, (*again)[i]);
                if (f.fitted || (*again)[i] <= options.min_sensitivity) continue;
                f.fitted = true;
                free.push_back(i);
                half_width[i] = search.axes()[i].hi - search.axes()[i].lo;
                added = true;
            }
            if (!added) break;
            // The others may have to move with the newcomers: an eighth of their range at least.
            for (const size_t i : free) half_width[i] = std::max(half_width[i], (search.axes()[i].hi - search.axes()[i].lo) / 8);
        }
        std::vector<char> at_edge;
        for (int r = 0; r < options.max_rounds && !free.empty() && current > 1e-14; ++r) {
            auto reached = search.round(free, half_width, options.grid, current, at_edge);
            if (!reached) return reached.error();
            current = *reached;
            // A parameter whose best point was an end of its grid keeps its width: its optimum may
            // lie beyond, where another parameter's move has taken it.
            for (const size_t i : free)
                if (!at_edge[i]) half_width[i] *= options.shrink;
            ++out.rounds;
        }
    }
    // The grid finds the basin; Levenberg-Marquardt settles parameters that trade off against
    // each other (the same measurements depend on both), which a grid does slowly.
    double damping = 1e-3;
    for (int r = 0; r < options.max_refinements && !free.empty() && current > 1e-14; ++r) {
        auto reached = search.refine(free, current, damping);
        if (!reached) return reached.error();
        const bool stalled = *reached >= current * (1 - 1e-6);
        current = *reached;
        ++out.refinements;
        if (stalled) break;
    }
    if (!free.empty()) {
        auto jac = search.jacobian(free);
        if (!jac) return jac.error();
        const auto sd = log_factor_deviation(*jac, options.noise);
        for (size_t j = 0; j < free.size(); ++j) {
            auto& p = out.parameters[free[j]];
            p.uncertainty = std::exp(sd[j]) - 1;
            p.determined = p.uncertainty <= options.max_uncertainty;
        }
    }
    auto at = search.predicted_here();
    if (!at) return at.error();
    out.predicted = *at;
    out.rms_log_residual = std::sqrt(objective(*at, measured) / double(measured.size()));
    for (size_t i = 0; i < uncertain.size(); ++i) out.parameters[i].factor = std::exp(search.x()[i]);
    out.points = search.points();
    return out;
}

}  // namespace ascendopt
