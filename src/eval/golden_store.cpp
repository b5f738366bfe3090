#include "eval/golden_store.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "util/files.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

enum class Encoding { u8, i32, f32, f64 };

struct EncodingInfo {
    Encoding encoding;
    const char* suffix;
    size_t bytes;
};

// Narrowest first: compaction takes the first that fits, reading the first that exists.
constexpr EncodingInfo k_encodings[] = {
    {Encoding::u8, ".u8", 1}, {Encoding::i32, ".i32", 4}, {Encoding::f32, ".f32", 4}, {Encoding::f64, ".f64", 8}};

// Whether `v` is an integer in [lo, hi] that converts back to the same double: -0.0 is not,
// since the integer keeps no sign.
bool exact_integer(double v, double lo, double hi) { return v >= lo && v <= hi && v == std::trunc(v) && !(v == 0 && std::signbit(v)); }

bool exact_float(double v) {
    if (std::isnan(v) || std::isinf(v)) return true;  // a NaN stays a NaN of the same sign
    if (std::fabs(v) > std::numeric_limits<float>::max()) return false;
    return static_cast<double>(static_cast<float>(v)) == v;
}

bool fits(Encoding e, double v) {
    switch (e) {
        case Encoding::u8: return exact_integer(v, 0, 255);
        case Encoding::i32: return exact_integer(v, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
        case Encoding::f32: return exact_float(v);
        case Encoding::f64: return true;
    }
    return false;
}

template <typename T>
std::string encode_as(const std::vector<double>& values) {
    std::string out(values.size() * sizeof(T), '\0');
    for (size_t i = 0; i < values.size(); ++i) {
        const T narrow = static_cast<T>(values[i]);
        std::memcpy(out.data() + i * sizeof(T), &narrow, sizeof(T));
    }
    return out;
}

template <typename T>
std::vector<double> decode_as(const std::vector<char>& bytes) {
    std::vector<double> out(bytes.size() / sizeof(T));
    for (size_t i = 0; i < out.size(); ++i) {
        T narrow;
        std::memcpy(&narrow, bytes.data() + i * sizeof(T), sizeof(T));
        out[i] = static_cast<double>(narrow);
    }
    return out;
}

std::string encode(Encoding e, const std::vector<double>& values) {
    switch (e) {
        case Encoding::u8: return encode_as<uint8_t>(values);
        case Encoding::i32: return encode_as<int32_t>(values);
        case Encoding::f32: return encode_as<float>(values);
        case Encoding::f64: break;
    }
    return encode_as<double>(values);
}

std::vector<double> decode(Encoding e, const std::vector<char>& bytes) {
    switch (e) {
        case Encoding::u8: return decode_as<uint8_t>(bytes);
        case Encoding::i32: return decode_as<int32_t>(bytes);
        case Encoding::f32: return decode_as<float>(bytes);
        case Encoding::f64: break;
    }
    return decode_as<double>(bytes);
}

}  // namespace

Status compact_golden_output(const fs::path& dir, const std::string& stem) {
    const fs::path wide = dir / (stem + ".f64");
    auto bytes = read_bytes(wide);
    if (!bytes) return bytes.error();
    if (bytes->size() % sizeof(double) != 0) return ok_status();  // read_golden_output reports the size
    const std::vector<double> values = decode(Encoding::f64, *bytes);
    for (const auto& info : k_encodings) {
        if (info.encoding == Encoding::f64) break;
        bool exact = true;
        for (const double v : values) exact = exact && fits(info.encoding, v);
        if (!exact) continue;
        if (auto s = write_bytes_atomic(dir / (stem + info.suffix), encode(info.encoding, values)); !s) return s;
        std::error_code ec;
        fs::remove(wide, ec);
        return ok_status();
    }
    return ok_status();
}

Result<std::vector<double>> read_golden_output(const fs::path& dir, const std::string& stem) {
    std::error_code ec;
    for (const auto& info : k_encodings) {
        const fs::path file = dir / (stem + info.suffix);
        if (!fs::is_regular_file(file, ec)) continue;
        auto bytes = read_bytes(file);
        if (!bytes) return bytes.error();
        if (bytes->size() % info.bytes != 0)
            return make_error("the golden's output " + file.string() + " holds " + std::to_string(bytes->size()) +
                              " bytes, not a whole number of values");
        return decode(info.encoding, *bytes);
    }
    return make_error("the golden wrote no output '" + stem + "' in " + dir.string());
}

}  // namespace ascendopt
