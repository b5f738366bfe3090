// Runs one case of a built operator in its own process and checks its outputs.
#pragma once

#include <filesystem>

#include "core/eval_result.h"
#include "eval/builder.h"
#include "eval/case_data.h"
#include "eval/evaluator.h"
#include "eval/golden.h"

namespace ascendopt {

// Where the Chrome trace of `case_name` goes under `dir`.
std::filesystem::path trace_path(const std::filesystem::path& dir, const std::string& case_name);

// Latency samples of one run: the model's value, times reproducible noise when asked for
// (seeded by the run seed, the case and the repeat), `repeats` times.
std::vector<double> measure(double model_us, const EvalOptions& options, const std::string& case_name);
double median(std::vector<double> values);

// Runs `c` on its prepared inputs and compares with its expected outputs. Fails only when the
// job file cannot be written; every operator misbehaviour is a status.
Result<CaseResult> run_case(const Case& c, const CaseData& data, const KernelBuild& kernel, const std::string& op_type,
                            const EvalOptions& options, const std::filesystem::path& work_dir);

// Runs `c` up to each block's first data access (the twin's preflight): the tiling, the block
// dim and every InitBuffer, without inputs, golden or outputs. The verdict is in `status`; the
// twin's report (block_dim, ub_bytes) in `twin`.
Result<CaseResult> preflight_case(const Case& c, const KernelBuild& kernel, const std::string& op_type, const EvalOptions& options,
                                  const std::filesystem::path& work_dir);

}  // namespace ascendopt
