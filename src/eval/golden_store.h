// How the golden cache keeps a golden's expected values. A golden writes float64, one double per
// scalar, but most outputs hold values a narrower type gives back exactly: bool and integer
// outputs, and float32 or float16 results that numpy computed in their own dtype. Each output is
// kept in the narrowest of u8, i32, f32 and f64 that returns every value unchanged (a NaN stays a
// NaN of the same sign; comparisons do not look at its payload), which cuts the cache several
// times over for comparison operators and in half for most float outputs.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "util/result.h"

namespace ascendopt {

// Replaces `<stem>.f64` in `dir` by the narrowest exact encoding (`<stem>.u8`, `.i32`, `.f32`),
// or leaves it where no narrower one is exact.
Status compact_golden_output(const std::filesystem::path& dir, const std::string& stem);

// The values of output `stem` in `dir`, in whichever encoding compact_golden_output chose (an
// entry from before it, with only `.f64`, reads the same).
Result<std::vector<double>> read_golden_output(const std::filesystem::path& dir, const std::string& stem);

}  // namespace ascendopt
