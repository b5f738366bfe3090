// What an output declared with OpParamDef::InitValue holds before the kernel runs
// (ascendopt_twin/host/init_value.h).
#include "ascendopt_twin/host/init_value.h"

#include <cstdint>
#include <cstring>

#include "ascendopt_twin/fp16.h"

namespace ascendopt_twin::host {
namespace {

template <class T>
std::vector<uint8_t> bytes_of(T v) {
    std::vector<uint8_t> out(sizeof(T));
    std::memcpy(out.data(), &v, sizeof(T));
    return out;
}

}  // namespace

std::vector<uint8_t> scalar_var_bytes(const ops::ScalarVar& v) {
    using ops::ScalarType;
    const ops::ScalarNum& n = v.scalar_num;
    switch (v.scalar_type) {
        case ScalarType::UINT64: return bytes_of<uint64_t>(n.value_u64);
        case ScalarType::INT64: return bytes_of<int64_t>(n.value_i64);
        case ScalarType::UINT32: return bytes_of<uint32_t>(uint32_t(n.value_u64));
        case ScalarType::INT32: return bytes_of<int32_t>(int32_t(n.value_i64));
        case ScalarType::UINT16: return bytes_of<uint16_t>(uint16_t(n.value_u64));
        case ScalarType::INT16: return bytes_of<int16_t>(int16_t(n.value_i64));
        case ScalarType::UINT8: return bytes_of<uint8_t>(uint8_t(n.value_u64));
        case ScalarType::INT8: return bytes_of<int8_t>(int8_t(n.value_i64));
        case ScalarType::FLOAT32: return bytes_of<float>(n.value_f32);
        case ScalarType::FLOAT16: return bytes_of<uint16_t>(f32_to_f16_bits(n.value_f32));
        default: return {};
    }
}

std::vector<uint8_t> output_initial_pattern(const ops::InitValueDecl& decl, const std::string& name, size_t column, bool need_atomic,
                                            uint64_t bytes, std::string& error) {
    using Form = ops::InitValueDecl::Form;
    const std::string what = "InitValue: output '" + name + "'";
    std::vector<uint8_t> pattern;
    switch (decl.form) {
        case Form::none: return {};
        case Form::clear:
            if (decl.clear_value != 0) {
                error = what + " is given " + std::to_string(decl.clear_value) +
                        "; the uint64_t form only clears (0), a typed value needs a ScalarVar";
                return {};
            }
            pattern = {0};
            break;
        case Form::scalar: pattern = scalar_var_bytes(decl.values.front()); break;
        case Form::per_combination:
            if (column == SIZE_MAX) {
                error = what + " lists one initial value per dtype combination, and the case's dtypes match none of the OpDef's combinations";
                return {};
            }
            if (column >= decl.values.size()) {
                error = what + " lists " + std::to_string(decl.values.size()) + " initial values, one per dtype combination, but the case uses combination " +
                        std::to_string(column) + " (counting from 0)";
                return {};
            }
            pattern = scalar_var_bytes(decl.values[column]);
            break;
    }
    if (pattern.empty()) {
        error = what + " has an initial value of an invalid ScalarType";
        return {};
    }
    if (bytes % pattern.size() != 0) {
        error = what + " is " + std::to_string(bytes) + " bytes, not a whole number of " + std::to_string(pattern.size()) + "-byte initial values";
        return {};
    }
    // The framework initialises the output only for tilings that ask for it (SetNeedAtomic).
    if (!need_atomic) return {};
    return pattern;
}

}  // namespace ascendopt_twin::host
