// The harness linked into every operator binary: `--describe FILE` writes the registered
// OpDefs and tiling classes as JSON; `--job FILE` runs the job's cases one after another
// (tiling, launch, outputs) and writes a result JSON per case. A case that ends the process
// (a fatal verdict, a crash, its time limit) leaves the later cases without a result; the
// evaluator runs those again in a fresh process. The evaluator is the only intended caller; the file formats are
// documented in docs/twin.md.
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

// Runs the job; returns the result document (status "ok", "tiling_failed", ...).
// Errors inside the kernel go through fail() and never return here.
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
