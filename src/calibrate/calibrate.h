// `ascendopt calibrate`: the microbenchmarks of share/calibrate/ measured on a backend, and the
// SoC file's estimated parameters fitted to them (calibrate/fit.h), with the twin as the model.
// On an NPU that gives a SoC description with measured values; on the twin, with `self_test`,
// the measurements are taken under a SoC whose estimates were drawn within their ranges, and
// the fit must find those values again (docs/calibrate.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "calibrate/fit.h"
#include "eval/evaluator.h"
#include "eval/soc_loader.h"

namespace ascendopt {

struct CalibrationOptions {
    // Measure under a SoC whose every estimate is drawn (log-uniform) within its range from this
    // seed, instead of the session's: the twin's self-consistency test.
    std::optional<uint64_t> self_test_seed;
    FitOptions fit;
};

struct Measurement {
    std::string case_name;
    double measured_us = 0;
    double predicted_us = 0;  // by the model at the fitted values
};

struct CalibrationReport {
    std::vector<UncertainParameter> uncertain;
    std::vector<double> truth;  // self-test: the factors the measurements were taken under
    std::vector<Measurement> measurements;
    FitResult fit;
    };

// Measures the perf cases of `probe` on `backend` and fits `soc`'s estimates with `model` (a
// twin evaluator: it re-times the same cases under candidate values in one run each).
Result<CalibrationReport> calibrate(const OperatorSource& probe, const SocWithParameters& soc, Evaluator& backend, Evaluator& model,
                                    const CalibrationOptions& options, const ProgressFn& progress);

// The SoC description with every fitted parameter of `report` at its fitted value: a determined
// one with provenance "measured", naming `how` (the backend and date) and the fit's residual; one
// fitted only together with others stays an estimate, its source saying so.
nlohmann::json fitted_soc_description(const SocWithParameters& soc, const CalibrationReport& report, const std::string& how);

// `doc` as a TOML file's text (the SoC loader reads it back).
std::string soc_toml(const nlohmann::json& doc, const std::string& header_comment);

}  // namespace ascendopt
