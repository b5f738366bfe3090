// Fitting the timing model's estimated parameters to measured latencies. The model is the
// twin itself: a predictor re-times the microbenchmarks under candidate parameter values
// (EvalRequest::timing_variants), and the fit looks for the values under which the predicted
// latencies match the measured ones. It searches each parameter's factor within its range, in
// log space, by a shrinking grid around the current point (the model is piecewise linear in
// its parameters, max, min and sums, which a grid handles where a gradient would not), then
// settles parameters that trade off against each other with Levenberg-Marquardt steps.
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "eval/soc_params.h"
#include "util/result.h"

namespace ascendopt {

// Predicted latencies of every measurement (in one order) at each point, a point giving one
// factor per parameter of the fit (in fit_factors' order).
using LatencyPredictor = std::function<Result<std::vector<std::vector<double>>>(const std::vector<std::vector<double>>& points)>;

struct FitOptions {
    int grid = 9;           // points per parameter and round
    int max_rounds = 12;    // per phase; each halves the searched width
    double shrink = 0.5;
    int max_refinements = 12;  // Levenberg-Marquardt steps after the grid
    // A fitted parameter is determined when a relative noise of `noise` on every measurement
    // would move it by at most `max_uncertainty` (relative), given how the measurements depend
    // on all the fitted parameters at the solution: two that trade off against each other are
    // fitted, but neither is determined.
    double noise = 0.01;
    double max_uncertainty = 0.05;
    // A parameter that moves no measurement by more than this (relative) across its whole
    // range is not determined by the measurements: it keeps its file value.
    double min_sensitivity = 0.005;
};

struct ParameterFit {
    std::string name;
    double factor = 1;       // fitted value / file value
    double sensitivity = 0;  // largest |log(latency at high / latency at low)| over the measurements
    bool fitted = false;     // sensitive enough to be searched (else it keeps factor 1)
    // Relative deviation of the factor per FitOptions::noise of measurement noise; infinite
    // when the measurements do not tell it from the other fitted parameters.
    double uncertainty = std::numeric_limits<double>::infinity();
    bool determined = false;  // fitted, and uncertainty <= FitOptions::max_uncertainty
};

struct FitResult {
    std::vector<ParameterFit> parameters;
    std::vector<double> predicted;  // at the fitted point
    double rms_log_residual = 0;    // sqrt(mean(log(predicted / measured)^2))
    int rounds = 0;                 // grid rounds
    int refinements = 0;            // Levenberg-Marquardt steps
    int points = 0;                 // predictions made
};

// The factors of `uncertain` (each within [low_factor, high_factor]) under which `predict`
// best matches `measured` (all positive), starting from the file values (factor 1).
Result<FitResult> fit_factors(const std::vector<UncertainParameter>& uncertain, const std::vector<double>& measured,
                              const LatencyPredictor& predict, const FitOptions& options = {});

}  // namespace ascendopt
