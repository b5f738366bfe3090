// Runs one case of a built operator in its own process and checks its outputs.
#pragma once

#include <filesystem>

#include "core/eval_result.h"
#include "eval/builder.h"
#include "eval/evaluator.h"
#include "eval/golden.h"

namespace ascendopt {

// Where the Chrome trace of `case_name` goes under `dir`.
std::filesystem::path trace_path(const std::filesystem::path& dir, const std::string& case_name);

// Latency samples of one run: the model's value, times reproducible noise when asked for
// (seeded by the run seed, the case and the repeat), `repeats` times.
std::vector<double> measure(double model_us, const EvalOptions& options, const std::string& case_name);
double median(std::vector<double> values);

// Fails only when the golden cannot be computed; every operator misbehaviour is a status.
Result<CaseResult> run_case(const Case& c, const KernelBuild& kernel, const std::string& op_type, GoldenRunner& golden,
                            const EvalOptions& options, const std::filesystem::path& work_dir);

}  // namespace ascendopt
