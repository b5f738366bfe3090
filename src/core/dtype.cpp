#include "core/dtype.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ascendopt_twin/fp16.h"

namespace ascendopt {
namespace {

struct Info {
    DType type;
    const char* name;
    const char* cpp;
    int ge;
    size_t size;
};

constexpr Info k_info[] = {
    {DType::f16, "float16", "half", 1, 2},      {DType::bf16, "bfloat16", "bfloat16_t", 27, 2},
    {DType::f32, "float32", "float", 0, 4},     {DType::f64, "double", "double", 11, 8},
    {DType::i8, "int8", "int8_t", 2, 1},        {DType::u8, "uint8", "uint8_t", 4, 1},
    {DType::i16, "int16", "int16_t", 6, 2},     {DType::u16, "uint16", "uint16_t", 7, 2},
    {DType::i32, "int32", "int32_t", 3, 4},     {DType::u32, "uint32", "uint32_t", 8, 4},
    {DType::i64, "int64", "int64_t", 9, 8},     {DType::u64, "uint64", "uint64_t", 10, 8},
    {DType::boolean, "bool", "bool", 12, 1},    {DType::c64, "complex64", "complex64", 16, 8},
};

const Info& info(DType t) { return k_info[static_cast<size_t>(t)]; }

template <class I>
void store_int(void* data, size_t i, double v) {
    I out;
    if (std::isnan(v)) out = 0;
    else if (v <= double(std::numeric_limits<I>::min())) out = std::numeric_limits<I>::min();
    else if (v >= double(std::numeric_limits<I>::max())) out = std::numeric_limits<I>::max();
    else out = static_cast<I>(std::nearbyint(v));
    std::memcpy(static_cast<char*>(data) + i * sizeof(I), &out, sizeof(I));
}

template <class I>
double load_as(const void* data, size_t i) {
    I v;
    std::memcpy(&v, static_cast<const char*>(data) + i * sizeof(I), sizeof(I));
    return static_cast<double>(v);
}

}  // namespace

std::optional<DType> parse_dtype(std::string_view n) {
    struct Alias {
        const char* name;
        DType type;
    };
    static constexpr Alias aliases[] = {
        {"float16", DType::f16}, {"fp16", DType::f16}, {"half", DType::f16},       {"float32", DType::f32},
        {"float", DType::f32},   {"fp32", DType::f32}, {"bfloat16", DType::bf16},  {"bf16", DType::bf16},
        {"double", DType::f64},  {"float64", DType::f64}, {"int8", DType::i8},     {"uint8", DType::u8},
        {"int16", DType::i16},   {"uint16", DType::u16}, {"int32", DType::i32},    {"uint32", DType::u32},
        {"int64", DType::i64},   {"uint64", DType::u64}, {"bool", DType::boolean},
        {"complex64", DType::c64},
    };
    for (const auto& a : aliases)
        if (n == a.name) return a.type;
    return std::nullopt;
}

const char* dtype_name(DType t) { return info(t).name; }
const char* dtype_cpp(DType t) { return info(t).cpp; }
int dtype_ge_code(DType t) { return info(t).ge; }
size_t dtype_size(DType t) { return info(t).size; }
bool dtype_is_float(DType t) {
    return t == DType::f16 || t == DType::bf16 || t == DType::f32 || t == DType::f64 || t == DType::c64;
}
size_t dtype_lanes(DType t) { return t == DType::c64 ? 2 : 1; }
DType dtype_lane_type(DType t) { return t == DType::c64 ? DType::f32 : t; }

std::optional<DType> dtype_from_ge_code(int code) {
    for (const auto& i : k_info)
        if (i.ge == code) return i.type;
    return std::nullopt;
}

double load_element(DType t, const void* data, size_t i) {
    const auto* p = static_cast<const char*>(data);
    switch (t) {
        case DType::f16: {
            uint16_t b;
            std::memcpy(&b, p + 2 * i, 2);
            return ascendopt_twin::f16_bits_to_f32(b);
        }
        case DType::bf16: {
            uint16_t b;
            std::memcpy(&b, p + 2 * i, 2);
            return ascendopt_twin::bf16_bits_to_f32(b);
        }
        case DType::f32: return load_as<float>(data, i);
        case DType::f64: return load_as<double>(data, i);
        case DType::i8: return load_as<int8_t>(data, i);
        case DType::u8: return load_as<uint8_t>(data, i);
        case DType::i16: return load_as<int16_t>(data, i);
        case DType::u16: return load_as<uint16_t>(data, i);
        case DType::i32: return load_as<int32_t>(data, i);
        case DType::u32: return load_as<uint32_t>(data, i);
        case DType::i64: return load_as<int64_t>(data, i);
        case DType::u64: return load_as<uint64_t>(data, i);
        case DType::boolean: return p[i] != 0 ? 1.0 : 0.0;
        case DType::c64: return load_as<float>(data, i);
    }
    return 0;
}

void store_element(DType t, void* data, size_t i, double v) {
    auto* p = static_cast<char*>(data);
    switch (t) {
        case DType::f16: {
            const uint16_t b = ascendopt_twin::f32_to_f16_bits(static_cast<float>(v));
            std::memcpy(p + 2 * i, &b, 2);
            return;
        }
        case DType::bf16: {
            const uint16_t b = ascendopt_twin::f32_to_bf16_bits(static_cast<float>(v));
            std::memcpy(p + 2 * i, &b, 2);
            return;
        }
        case DType::f32:
        case DType::c64: {
            const float f = static_cast<float>(v);
            std::memcpy(p + 4 * i, &f, 4);
            return;
        }
        case DType::f64: std::memcpy(p + 8 * i, &v, 8); return;
        case DType::i8: return store_int<int8_t>(data, i, v);
        case DType::u8: return store_int<uint8_t>(data, i, v);
        case DType::i16: return store_int<int16_t>(data, i, v);
        case DType::u16: return store_int<uint16_t>(data, i, v);
        case DType::i32: return store_int<int32_t>(data, i, v);
        case DType::u32: return store_int<uint32_t>(data, i, v);
        case DType::i64: return store_int<int64_t>(data, i, v);
        case DType::u64: return store_int<uint64_t>(data, i, v);
        case DType::boolean: p[i] = v != 0 ? 1 : 0; return;
    }
}

namespace {

template <class T>
void store_saturated(void* data, size_t i, int64_t v) {
    T out;
    if constexpr (std::is_signed_v<T>)
        out = T(std::clamp<int64_t>(v, int64_t(std::numeric_limits<T>::min()), int64_t(std::numeric_limits<T>::max())));
    else if (v < 0)
        out = 0;
    else
        out = uint64_t(v) > uint64_t(std::numeric_limits<T>::max()) ? std::numeric_limits<T>::max() : T(v);
    std::memcpy(static_cast<char*>(data) + sizeof(T) * i, &out, sizeof(T));
}

}  // namespace

void store_integer(DType t, void* data, size_t i, int64_t v) {
    switch (t) {
        case DType::i8: return store_saturated<int8_t>(data, i, v);
        case DType::u8: return store_saturated<uint8_t>(data, i, v);
        case DType::i16: return store_saturated<int16_t>(data, i, v);
        case DType::u16: return store_saturated<uint16_t>(data, i, v);
        case DType::i32: return store_saturated<int32_t>(data, i, v);
        case DType::u32: return store_saturated<uint32_t>(data, i, v);
        case DType::i64: return store_saturated<int64_t>(data, i, v);
        case DType::u64: return store_saturated<uint64_t>(data, i, v);
        default: return store_element(t, data, i, double(v));
    }
}

}  // namespace ascendopt
