// Element types of operator tensors: names as msopst writes them, sizes, ge::DataType codes,
// and conversion of raw element bytes to and from double.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ascendopt {

enum class DType { f16, bf16, f32, f64, i8, u8, i16, u16, i32, u32, i64, u64, boolean, c64 };

// Accepts msopst and numpy spellings ("float16", "fp16", "float", "float32", "bf16", "bool", ...).
std::optional<DType> parse_dtype(std::string_view name);
// The canonical msopst name ("float16", "float32", "bfloat16", ...).
const char* dtype_name(DType t);
// The C++ type a kernel uses for it (DTYPE_<NAME>): "half", "float", "bfloat16_t", "int32_t", ...
const char* dtype_cpp(DType t);
// ge::DataType value.
int dtype_ge_code(DType t);
std::optional<DType> dtype_from_ge_code(int code);
size_t dtype_size(DType t);
bool dtype_is_float(DType t);
// Scalars per element: 2 for complex64 (real, imaginary), 1 otherwise. Inputs, goldens and
// comparisons work on scalars, so a complex64 tensor of n elements is 2n float32 scalars.
size_t dtype_lanes(DType t);
// The type of one scalar lane: float32 for complex64, the type itself otherwise.
DType dtype_lane_type(DType t);

// Reads scalar i of a raw buffer as double; writes a double with round-to-nearest-even
// (saturating for integers). For complex64, scalar 2k is the real and 2k+1 the imaginary part
// of element k.
double load_element(DType t, const void* data, size_t i);
void store_element(DType t, void* data, size_t i, double v);
// Writes an integer exactly into an integer dtype (saturating at its range, as store_element
// does); other dtypes get store_element(double(v)).
void store_integer(DType t, void* data, size_t i, int64_t v);

}  // namespace ascendopt
