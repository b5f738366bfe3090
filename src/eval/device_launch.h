// The launch of planned cases through something other than the twin's own operator process:
// for --backend twin-acl, the npu backend's invoker calling the operator's aclnn API on the
// twin's ACL runtime (npu/twin_acl_launcher.h, docs/npu.md "The twin behind aclnn"). Whatever
// carries the cases, each one's kernel still runs in the operator binary, started through
// `run_operator` with the sandbox and limits of the twin backend, and each case's result
// document and outputs end up where the operator process would have written them, so that the
// judging is the twin backend's.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>

#include <nlohmann/json.hpp>

#include "eval/builder.h"
#include "eval/opdef.h"
#include "eval/operator_source.h"
#include "util/result.h"
#include "util/subprocess.h"

namespace ascendopt {

struct DeviceLaunch {
    // The operator job the twin backend would run: the shared fields and "cases", each with its
    // plan, attributes, input files, output files, "result" path and poison.
    nlohmann::json job;
    std::vector<std::filesystem::path> work_dirs;  // per case, as in job["cases"]
    const KernelBuild* kernel = nullptr;
    std::shared_ptr<const OpDefInfo> opdef;
    // The operator's sources, for a launcher that builds them for a device of its own (npu).
    std::shared_ptr<const OperatorSource> source;
    std::filesystem::path job_dir;  // writable: the launch's own files go under it
    // Runs a one-case operator job (written to `job_file`) in the kernel's operator binary, as
    // the twin backend runs its jobs.
    std::function<Result<ProcessResult>(const nlohmann::json& job, const std::filesystem::path& job_file)> run_operator;
};

// Returns the process result of whatever carried the cases: a case without a result file is
// judged by it, as a case the operator process never finished.
using DeviceLauncher = std::function<Result<ProcessResult>(const DeviceLaunch&)>;

}  // namespace ascendopt
