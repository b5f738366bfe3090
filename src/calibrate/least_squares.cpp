#include "calibrate/least_squares.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ascendopt {

std::optional<std::vector<double>> damped_step(const std::vector<std::vector<double>>& jac, const std::vector<double>& r, double damping) {
    const size_t n = jac.empty() ? 0 : jac.front().size();
    std::vector<std::vector<double>> a(n, std::vector<double>(n + 1, 0.0));
    for (size_t k = 0; k < jac.size(); ++k)
        for (size_t i = 0; i < n; ++i) {
            for (size_t j = 0; j < n; ++j) a[i][j] += jac[k][i] * jac[k][j];
            a[i][n] -= jac[k][i] * r[k];
        }
    for (size_t i = 0; i < n; ++i) a[i][i] += damping * std::max(a[i][i], 1e-12);
    for (size_t c = 0; c < n; ++c) {
        size_t pivot = c;
        for (size_t i = c + 1; i < n; ++i)
            if (std::fabs(a[i][c]) > std::fabs(a[pivot][c])) pivot = i;
        if (std::fabs(a[pivot][c]) < 1e-300) return std::nullopt;
        std::swap(a[c], a[pivot]);
        for (size_t i = 0; i < n; ++i) {
            if (i == c) continue;
            const double f = a[i][c] / a[c][c];
            for (size_t j = c; j <= n; ++j) a[i][j] -= f * a[c][j];
        }
    }
    std::vector<double> dx(n);
    for (size_t i = 0; i < n; ++i) dx[i] = a[i][n] / a[i][i];
    return dx;
}

void symmetric_eigen(std::vector<std::vector<double>> a, std::vector<double>& values, std::vector<std::vector<double>>& vectors) {
    const size_t n = a.size();
    vectors.assign(n, std::vector<double>(n, 0.0));
    for (size_t i = 0; i < n; ++i) vectors[i][i] = 1;
    for (int sweep = 0; sweep < 100; ++sweep) {
        double off = 0;
        for (size_t p = 0; p < n; ++p)
            for (size_t q = p + 1; q < n; ++q) off += a[p][q] * a[p][q];
        if (off < 1e-30) break;
        for (size_t p = 0; p < n; ++p)
            for (size_t q = p + 1; q < n; ++q) {
                if (a[p][q] == 0) continue;
                const double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                const double t = (theta >= 0 ? 1 : -1) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
                const double c = 1 / std::sqrt(t * t + 1), sn = t * c;
                for (size_t k = 0; k < n; ++k) {
                    const double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - sn * akq;
                    a[k][q] = sn * akp + c * akq;
                }
                for (size_t k = 0; k < n; ++k) {
                    const double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - sn * aqk;
                    a[q][k] = sn * apk + c * aqk;
                }
                for (size_t k = 0; k < n; ++k) {
                    const double vkp = vectors[k][p], vkq = vectors[k][q];
                    vectors[k][p] = c * vkp - sn * vkq;
                    vectors[k][q] = sn * vkp + c * vkq;
                }
            }
    }
    values.resize(n);
    for (size_t i = 0; i < n; ++i) values[i] = a[i][i];
}

std::vector<double> log_factor_deviation(const std::vector<std::vector<double>>& jac, double noise) {
    const size_t n = jac.empty() ? 0 : jac.front().size();
    std::vector<double> sd(n, 0.0);
    std::vector<size_t> seen(n);
    for (size_t i = 0; i < n; ++i) seen[i] = i;
    constexpr double k_blind = 1e-8;  // relative curvature below which a direction is unseen
    constexpr double k_share = 0.1;   // a parameter's share of an unseen direction that makes it unseen
    while (!seen.empty()) {
        const size_t m = seen.size();
        std::vector<std::vector<double>> a(m, std::vector<double>(m, 0.0));
        for (size_t i = 0; i < m; ++i)
            for (size_t j = 0; j < m; ++j)
                for (const auto& row : jac) a[i][j] += row[seen[i]] * row[seen[j]];
        std::vector<double> values;
        std::vector<std::vector<double>> vectors;
        symmetric_eigen(a, values, vectors);
        const double largest = std::max(*std::max_element(values.begin(), values.end()), 1e-300);
        std::vector<char> unseen(m, 0);
        for (size_t k = 0; k < m; ++k) {
            if (values[k] > k_blind * largest) continue;
            size_t top = 0;
            for (size_t i = 0; i < m; ++i) {
                if (vectors[i][k] * vectors[i][k] >= k_share) unseen[i] = 1;
                if (std::fabs(vectors[i][k]) > std::fabs(vectors[top][k])) top = i;
            }
            unseen[top] = 1;
        }
        if (std::none_of(unseen.begin(), unseen.end(), [](char c) { return c != 0; })) {
            for (size_t i = 0; i < m; ++i) {
                double var = 0;
                for (size_t k = 0; k < m; ++k) var += vectors[i][k] * vectors[i][k] / values[k];
                sd[seen[i]] = noise * std::sqrt(var);
            }
            break;
        }
        std::vector<size_t> rest;
        for (size_t i = 0; i < m; ++i) {
            if (unseen[i]) sd[seen[i]] = std::numeric_limits<double>::infinity();
            else rest.push_back(seen[i]);
        }
        seen = std::move(rest);
    }
    return sd;
}

}  // namespace ascendopt
