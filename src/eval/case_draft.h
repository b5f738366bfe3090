// Cases as written in a manifest or msopst file, before they are checked against the OpDef.
// A draft either lists every tensor (msopst) or uses shorthand (one shape and dtype for all
// tensors, with per-tensor overrides), which needs the OpDef's names to expand.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/case.h"
#include "eval/opdef.h"
#include "util/result.h"

namespace ascendopt {

struct TensorOverride {
    std::optional<std::vector<int64_t>> shape;
    // A dynamic (list) parameter: one shape per tensor of the list.
    std::optional<std::vector<std::vector<int64_t>>> list_shapes;
    ToleranceOverride tolerance;  // an output's own
    std::optional<DType> dtype;
    std::optional<Distribution> distribution;
    std::optional<std::pair<double, double>> range;
    std::optional<std::vector<double>> values;  // exact contents (TensorSpec::values)
    std::optional<std::vector<int64_t>> int_values;  // the same, when all integers (TensorSpec::int_values)
    std::optional<std::string> format;          // TensorSpec::format
};

struct CaseDraft {
    std::string name;
    std::string origin;  // "file.toml" or "file.json", for messages
    CaseRole role = CaseRole::check;
    nlohmann::json attrs = nlohmann::json::object();
    ToleranceOverride tolerance;
    GoldenSpec golden;
    std::string known_defect;  // Case::known_defect
    // Inputs the operator updates in place without an OpDef output for them: each becomes an
    // output (TensorSpec::inplace) whose final contents are checked.
    std::vector<std::string> inplace;

    // Explicit form (msopst): complete tensors in OpDef-independent order.
    bool explicit_tensors = false;
    std::vector<TensorSpec> inputs, outputs;

    // Shorthand form: defaults for every tensor, expanded once per dtype in `dtypes`.
    std::optional<std::vector<int64_t>> shape;
    // The shapes of the tensors of every dynamic (list) parameter that sets none of its own.
    std::optional<std::vector<std::vector<int64_t>>> list_shapes;
    std::vector<DType> dtypes;
    Distribution distribution = Distribution::uniform;
    std::pair<double, double> range{-1.0, 1.0};
    std::map<std::string, TensorOverride> overrides;
};

// Turns drafts into cases ordered as the OpDef orders its parameters. Fails, naming the case
// and its file, on unknown tensor names, missing inputs, shapes or goldens, unsupported dtype
// combinations, and duplicate case names.
Result<std::vector<Case>> resolve_cases(const std::vector<CaseDraft>& drafts, const OpDefInfo& op);

Result<Distribution> parse_distribution(const std::string& s);

}  // namespace ascendopt
