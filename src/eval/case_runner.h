// Runs one case of a built operator in its own process and checks its outputs.
#pragma once

#include <filesystem>

#include "core/eval_result.h"
#include "eval/builder.h"
#include "eval/evaluator.h"
#include "eval/golden.h"

namespace ascendopt {

// Fails only when the golden cannot be computed; every operator misbehaviour is a status.
Result<CaseResult> run_case(const Case& c, const KernelBuild& kernel, const std::string& op_type, GoldenRunner& golden,
                            const EvalOptions& options, const std::filesystem::path& work_dir);

}  // namespace ascendopt
