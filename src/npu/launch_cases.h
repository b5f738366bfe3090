// The cases of a device launch (eval/device_launch.h) in the invoker's terms, shared by every
// launcher that runs them through the invoker (twin-acl and the npu backend): each case's aclnn
// parameters with the files the judge reads, and the result documents the judge expects when the
// invoker, not the twin, reports a case.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "eval/device_launch.h"
#include "npu/aclnn_signature.h"
#include "npu/invoker_job.h"

namespace ascendopt {

// "x", or "x[2]" for an element of a tensor list: how a case names one of its tensors.
std::string tensor_label(const nlohmann::json& tensor);

// A case's tensors by label: its inputs, and its outputs (an input the operator updates in
// place is in both). The pointers are into the case's document.
struct CaseTensors {
    std::map<std::string, const nlohmann::json*> inputs, outputs;
};
CaseTensors tensors_of(const nlohmann::json& job_case);

// The invoker job for every case of `launch`: each aclnn parameter of `sig` from the case's
// tensors (outputs written to the case's output files, starting as the case's poison) and
// attributes (the OpDef default when the case gives none).
Result<InvokerJob> invoker_job_of(const DeviceLaunch& launch, const AclnnSignature& sig, int warmup, int repeats);

// Each case's result document path, by case name.
std::map<std::string, std::filesystem::path> result_paths(const DeviceLaunch& launch);

// The result document of a case the invoker reports failed: the judge reads it as a run that
// failed in `api` with `message`.
void write_invoker_failure(const std::filesystem::path& result, const std::string& api, const std::string& message);

}  // namespace ascendopt
