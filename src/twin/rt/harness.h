// The harness linked into every candidate binary. A candidate builds into two executables, and
// its host code and its kernel never share a process:
//  - the host binary (the twin and the candidate's host code): `--describe FILE` writes the
//    registered OpDefs and tiling classes as JSON; `--tiling JOB` runs each case's tiling
//    function and writes its tiling plan (block dim, tiling key, workspace, tiling data, the
//    OpDef parameters and output fills the launch needs) or a verdict;
//  - the operator binary (the twin and the candidate's kernel): `--job JOB` runs each case from
//    the plan the evaluator checked and put into the job (GM set-up, launch, outputs) and writes
//    a result JSON per case.
// So host code, which is not instrumented, runs and ends before any block is launched and cannot
// reach the timelines, the SoC description or the result files of the launch. A case that ends
// its process (a fatal verdict, a crash, its time limit) leaves the later cases without a
// result; the evaluator runs those again in fresh processes. The evaluator is the only intended
// caller; the file formats are documented in docs/twin.md.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace ascendopt_twin {
class GmSpace;
struct LaunchResult;
struct SocSpec;
}  // namespace ascendopt_twin

namespace ascendopt_twin::harness {

// Exit codes of an operator binary. A crash leaves no result file and ends by signal.
enum ExitCode { k_ok = 0, k_verdict = 3, k_bad_job = 2 };

nlohmann::json describe_registry();

// Runs the case's tiling (host binary); returns its plan (status "ok") or a verdict
// ("tiling_failed", ...).
nlohmann::json tile_case(const nlohmann::json& job);

// Runs the case from its plan (operator binary); returns the result document (status "ok",
// "run_failed", ...). A core's failure in the kernel arrives as an exception that run_cases
// turns into the verdict; other errors go through fail() and never return here.
nlohmann::json run_job(const nlohmann::json& job);

// The "timing" object of a result, and the Chrome trace of a launch.
nlohmann::json timing_json(const LaunchResult& r, const SocSpec& soc);
std::string chrome_trace(const LaunchResult& r, const SocSpec& soc);

// Where fail() and the crash handler write their verdict: the pre-opened result file of the
// case that runs.
void set_result_path(const std::string& path);
[[noreturn]] void finish_with_verdict(const nlohmann::json& result);

// The GM space whose addresses the crash handler names in its report.
void set_crash_report_gm(GmSpace* gm);

}  // namespace ascendopt_twin::harness
