#include "core/case.h"

namespace ascendopt {

const char* role_name(CaseRole r) { return r == CaseRole::perf ? "perf" : "check"; }

int64_t TensorSpec::elements() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
}

std::string TensorSpec::label() const { return list_index < 0 ? name : name + "[" + std::to_string(list_index) + "]"; }

std::string TensorSpec::file_stem() const { return list_index < 0 ? name : name + "." + std::to_string(list_index); }

Tolerance default_tolerance(DType t) {
    switch (t) {
        case DType::f16: return {1e-3, 1e-3};
        case DType::bf16: return {8e-3, 8e-3};
        case DType::f32:
        case DType::c64: return {1e-4, 1e-5};
        case DType::f64: return {1e-9, 1e-12};
        default: return {0, 0};
    }
}

std::string Case::dtype_signature() const {
    std::string s;
    for (const auto* list : {&inputs, &outputs})
        for (const auto& t : *list)  // the tensors of a list share one dtype
            if (t.list_index <= 0) s += (s.empty() ? "" : ",") + t.name + ":" + dtype_name(t.dtype) + (t.format == "ND" ? "" : "@" + t.format);
    return s;
}

}  // namespace ascendopt
