// OpParamDef::InitValue: the value an output's GM holds before the kernel starts. The device
// framework clears the output (InitValue(0)) or runs a memset-like operator of a given type and
// value over it (InitValue(ScalarVar), or one ScalarVar per dtype combination), and does so only
// for operators whose tiling sets SetNeedAtomic(true): kernels that accumulate into an output
// with atomic adds rely on it. Outputs without an initial value keep the twin's poison.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ops {

enum class ScalarType : uint32_t {
    UINT64 = 0,
    INT64 = 1,
    UINT32 = 2,
    INT32 = 3,
    UINT16 = 4,
    INT16 = 5,
    UINT8 = 6,
    INT8 = 7,
    FLOAT32 = 8,
    FLOAT16 = 9,
    INVALID_DTYPE = static_cast<uint32_t>(-1),
};

union ScalarNum {
    uint64_t value_u64;
    int64_t value_i64;
    float value_f32;
    ScalarNum() : value_u64(0) {}
    explicit ScalarNum(uint64_t value) : value_u64(value) {}
    explicit ScalarNum(int64_t value) : value_i64(value) {}
    explicit ScalarNum(float value) : value_f32(value) {}
};

// A typed initial value. The number is kept in the member that matches the type: value_f32 for
// FLOAT32 and FLOAT16 (an integer given for a float type is converted), value_i64 for the
// signed integer types and value_u64 for the unsigned ones (a float given for an integer type
// is truncated toward zero, as a C++ conversion does).
struct ScalarVar {
    ScalarType scalar_type = ScalarType::INVALID_DTYPE;
    ScalarNum scalar_num;

    ScalarVar() = default;
    ScalarVar(ScalarType type, uint64_t num) : scalar_type(type), scalar_num(make(type, double(num), num, int64_t(num))) {}
    ScalarVar(ScalarType type, int64_t num) : scalar_type(type), scalar_num(make(type, double(num), uint64_t(num), num)) {}
    ScalarVar(ScalarType type, int num) : ScalarVar(type, int64_t(num)) {}
    ScalarVar(ScalarType type, unsigned int num) : ScalarVar(type, uint64_t(num)) {}
    ScalarVar(ScalarType type, float num) : scalar_type(type), scalar_num(make(type, num, uint64_t(int64_t(num)), int64_t(num))) {}
    ScalarVar(ScalarType type, double num) : ScalarVar(type, float(num)) {}

private:
    static ScalarNum make(ScalarType type, double as_float, uint64_t as_unsigned, int64_t as_signed) {
        switch (type) {
            case ScalarType::FLOAT32:
            case ScalarType::FLOAT16: return ScalarNum(float(as_float));
            case ScalarType::INT64:
            case ScalarType::INT32:
            case ScalarType::INT16:
            case ScalarType::INT8: return ScalarNum(as_signed);
            default: return ScalarNum(as_unsigned);
        }
    }
};

// What OpParamDef::InitValue recorded: nothing, the clearing form (its uint64_t argument, which
// the documentation allows to be 0 only), one typed value, or one per dtype combination.
struct InitValueDecl {
    enum class Form { none, clear, scalar, per_combination } form = Form::none;
    uint64_t clear_value = 0;
    std::vector<ScalarVar> values;  // one for Form::scalar, one per combination otherwise
};

}  // namespace ops

namespace ascendopt_twin::host {

// The bytes one element of `v` occupies in GM (little-endian; FLOAT16 rounded to nearest even
// from value_f32); empty for INVALID_DTYPE or an unknown type.
std::vector<uint8_t> scalar_var_bytes(const ops::ScalarVar& v);

// What output `name`, declared with `decl`, holds before the kernel runs, as the repeating byte
// pattern the runtime writes over its whole buffer: empty when it keeps the poison (no
// InitValue, or the tiling did not set SetNeedAtomic(true)). `column` is the dtype combination
// of the case (index into the per-combination list). A declaration the documentation does not
// allow (a nonzero clearing value, a list without an entry for `column`, an invalid type) or a
// buffer of `bytes` that is not a whole number of values sets `error` naming the output.
std::vector<uint8_t> output_initial_pattern(const ops::InitValueDecl& decl, const std::string& name, size_t column, bool need_atomic,
                                            uint64_t bytes, std::string& error);

}  // namespace ascendopt_twin::host
