#include "eval/compare.h"

#include <cmath>
#include <cstdio>
#include <string>

namespace ascendopt {
namespace {

std::vector<int64_t> unflatten(int64_t flat, const std::vector<int64_t>& shape) {
    std::vector<int64_t> idx(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
        const int64_t extent = shape[d] > 0 ? shape[d] : 1;
        idx[d] = flat % extent;
        flat /= extent;
    }
    return idx;
}

bool close(double a, double e, const Tolerance& tol) {
    if (std::isnan(a) || std::isnan(e)) return std::isnan(a) && std::isnan(e);
    if (std::isinf(a) || std::isinf(e)) return a == e;
    return std::fabs(a - e) <= tol.atol + tol.rtol * std::fabs(e);
}

// A bool element is one byte holding 0 or 1. Any other byte (the 0xFF fill of an element the
// kernel never wrote, above all) is no bool: reading it as "nonzero is true" would let an
// unwritten element pass wherever the golden is true. Its value as an unsigned byte, or -1 for
// a valid bool.
int invalid_bool_byte(const std::vector<char>& bytes, int64_t i) {
    const auto b = static_cast<unsigned char>(bytes[size_t(i)]);
    return b > 1 ? int(b) : -1;
}

std::string invalid_bool_note(int byte) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", unsigned(byte));
    return std::string(hex) + " is not a valid bool byte (0 or 1)" + (byte == 0xFF ? ": never written?" : "");
}

}  // namespace

Tolerance tolerance_for(const Case& c, const TensorSpec& spec) {
    return spec.tolerance.over(c.tolerance.over(default_tolerance(spec.dtype)));
}

OutputComparison compare_output(const TensorSpec& spec, const std::vector<char>& actual_bytes,
                                const std::vector<double>& golden, const Tolerance& tol) {
    OutputComparison out;
    out.name = spec.label();
    out.elements = spec.scalars();
    const int64_t lanes = int64_t(dtype_lanes(spec.dtype));
    double rounded_slot = 0;
    std::vector<char> rounded(dtype_size(spec.dtype));
    for (int64_t i = 0; i < out.elements; ++i) {
        if (spec.dtype == DType::boolean) {
            if (const int byte = invalid_bool_byte(actual_bytes, i); byte >= 0) {
                if (out.mismatches++ == 0)
                    out.first = Mismatch{spec.label(), i, unflatten(i, spec.shape), "", double(byte), golden[size_t(i)] != 0 ? 1.0 : 0.0,
                                         invalid_bool_note(byte)};
                continue;
            }
        }
        const double actual = load_element(spec.dtype, actual_bytes.data(), size_t(i));
        store_element(spec.dtype, rounded.data(), 0, golden[size_t(i)]);
        rounded_slot = load_element(spec.dtype, rounded.data(), 0);
        const double expected = std::isnan(golden[size_t(i)]) ? golden[size_t(i)] : rounded_slot;
        if (!std::isnan(actual) && !std::isnan(expected) && !std::isinf(actual) && !std::isinf(expected)) {
            const double abs_err = std::fabs(actual - expected);
            out.max_abs_error = std::max(out.max_abs_error, abs_err);
            if (expected != 0) out.max_rel_error = std::max(out.max_rel_error, abs_err / std::fabs(expected));
        }
        if (close(actual, expected, tol)) continue;
        if (out.mismatches++ == 0)
            out.first = Mismatch{spec.label(), i / lanes, unflatten(i / lanes, spec.shape), lanes == 1 ? "" : i % 2 ? "imag" : "real",
                                 actual, expected};
    }
    return out;
}

}  // namespace ascendopt
