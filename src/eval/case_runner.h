// Runs the cases of a built operator (tiling in the host binary, launch in the operator binary)
// and checks their outputs.
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

// One case to run: its prepared data (none for a preflight) and its own work folder, where its
// outputs and result go.
struct CaseRun {
    const Case* c = nullptr;
    std::shared_ptr<const CaseData> data;
    std::filesystem::path work_dir;
};

// Runs `runs`, all built into `kernel`: first their tiling, one after another in one process of
// the host binary, then their launch from the checked tiling plans in one operator process (the
// job files go to `job_dir`), and checks each against its golden. A case that ends its process
// (crash, fatal verdict, time limit) gets that verdict and the cases after it run in a fresh
// process. With `preflight`, each case runs only up to its blocks' first data access (see
// LaunchOptions::preflight) and nothing is compared. Fails only when a job file cannot be
// written; every operator misbehaviour is a status.
// `env` is added to the operator processes' environment (host tunables). `tile_ahead` are cases
// of a later evaluation of the same build (a preflight's full evaluation): the tiling process
// tiles them too, after `runs`, for TilingPlanCache only; nothing of them is launched or judged.
Result<std::vector<CaseResult>> run_cases(const std::vector<CaseRun>& runs, const KernelBuild& kernel, const std::string& op_type,
                                          const EvalOptions& options, const std::map<std::string, std::string>& env,
                                          const std::filesystem::path& job_dir, bool preflight = false,
                                          const std::vector<CaseRun>& tile_ahead = {});

}  // namespace ascendopt
