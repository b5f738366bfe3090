// What an operator's OpDef declares, as reported by its host binary (`--describe`).
#pragma once

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/dtype.h"
#include "util/result.h"

namespace ascendopt {

struct ParamInfo {
    std::string name;
    bool optional = false;
    std::vector<DType> dtypes;  // index i of every param together forms supported combination i
    bool dynamic = false;  // a list of tensors (ParamType DYNAMIC): one kernel argument for all of them
    bool shape_from_kernel = false;  // an output whose shape the kernel computes (OutputShapeDependOnCompute)
    // Columns where this parameter's dtype is one ascendopt cannot represent (DT_INT4, ...): a
    // case may still use the column when it leaves this (optional) parameter out.
    std::set<size_t> unsupported_columns;
};

struct AttrInfo {
    std::string name;
    std::string kind;  // int, float, bool, str, list_int, list_float
    bool required = false;
    nlohmann::json default_value;  // null when required
};

struct OpDefInfo {
    std::string type;
    std::vector<ParamInfo> inputs;
    std::vector<ParamInfo> outputs;
    std::vector<AttrInfo> attrs;
    std::string tiling_class;  // qualified C++ name, empty if none registered
    bool has_tiling = false;
    // Dtype combinations (columns of the dtype lists) that name a dtype ascendopt does not
    // support (DT_INT4, ...) for some parameter: a case can use such a column only by leaving
    // those (optional) parameters out (ParamInfo::unsupported_columns says which). Their entries
    // in ParamInfo::dtypes are placeholders; unsupported_names says what they were.
    std::set<size_t> unsupported_columns;
    std::string unsupported_names;  // e.g. "ge:29 (DT_INT4)"

    const ParamInfo* find_param(const std::string& name) const;
    size_t combinations() const;
    bool supported(size_t column) const { return !unsupported_columns.count(column); }
    // The first combination every dtype of which ascendopt supports (combinations() if none).
    size_t first_supported() const;
};

// Picks the operator named `type` (or the only one) from a describe document. `soc` is the
// SoC's short name (as AddConfig names it): when the OpDef gives that SoC a configuration with
// its own parameters, those are the operator's inputs and outputs (dtype lists included).
Result<OpDefInfo> parse_opdef(const nlohmann::json& describe, const std::string& type, const std::string& soc = "");

}  // namespace ascendopt
