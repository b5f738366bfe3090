// The small dense linear algebra the fit needs (one row or column per fitted parameter, a few
// dozen at most): a damped least-squares step, and how well least squares determines each
// parameter. No library: Debian's would be a new dependency for three functions.
#pragma once

#include <optional>
#include <vector>

namespace ascendopt {

// The step dx minimising |r + J dx|^2 + damping * sum(diag(J^T J) dx^2) (Levenberg-Marquardt),
// or nothing when the normal equations are singular. `jac` has one row per residual.
std::optional<std::vector<double>> damped_step(const std::vector<std::vector<double>>& jac, const std::vector<double>& r, double damping);

// Eigenvalues and eigenvectors (columns of `vectors`) of the symmetric matrix `a`.
void symmetric_eigen(std::vector<std::vector<double>> a, std::vector<double>& values, std::vector<std::vector<double>>& vectors);

// The standard deviation of each parameter that a noise of `noise` on every residual gives a
// least-squares fit with Jacobian `jac`: noise * sqrt(diag((J^T J)^-1)). A direction of J^T J
// with almost no curvature is one the residuals do not see: the parameters that make up a tenth
// of it or more (the largest, at least) cannot be told apart along it and get infinity, and the
// others are judged without them.
std::vector<double> log_factor_deviation(const std::vector<std::vector<double>>& jac, double noise);

}  // namespace ascendopt
