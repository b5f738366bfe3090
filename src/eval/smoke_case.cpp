#include "eval/smoke_case.h"

#include <algorithm>

namespace ascendopt {
namespace {

TensorSpec smoke_tensor(const ParamInfo& p, size_t column) {
    TensorSpec t;
    t.name = p.name;
    t.dtype = p.dtypes.empty() ? DType::f32 : p.dtypes[std::min(column, p.dtypes.size() - 1)];
    t.shape = k_smoke_shape;
    if (t.dtype == DType::boolean) {
        t.low = 0;
        t.high = 1;
    } else if (!dtype_is_float(t.dtype)) {
        t.low = 0;  // small non-negative integers: valid as indices, counts and divisors alike
        t.high = 3;
    }
    return t;
}

nlohmann::json neutral_value(const std::string& kind) {
    if (kind == "int") return 0;
    if (kind == "float") return 0.0;
    if (kind == "bool") return false;
    if (kind == "str") return "";
    return nlohmann::json::array();
}

}  // namespace

Case smoke_case(const OpDefInfo& op) {
    Case c;
    c.name = "smoke";
    c.origin = "the smoke case ascendopt derives from the OpDef";
    // A dynamic (list) parameter gets two tensors, so that its list really is one.
    for (const auto* params : {&op.inputs, &op.outputs})
        for (const auto& p : *params)
            for (int i = 0; i < (p.dynamic ? 2 : 1); ++i) {
                TensorSpec t = smoke_tensor(p, op.first_supported());
                if (p.dynamic) t.list_index = i;
                (params == &op.inputs ? c.inputs : c.outputs).push_back(std::move(t));
            }
    for (const auto& a : op.attrs) c.attrs[a.name] = a.required || a.default_value.is_null() ? neutral_value(a.kind) : a.default_value;
    return c;
}

}  // namespace ascendopt
