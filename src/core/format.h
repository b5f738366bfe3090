// Tensor formats (layouts) as CANN numbers them (ge::Format): what a case gives a tensor, what
// tiling sees in its description and what the kernel build defines as FORMAT_<NAME>.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ascendopt {

// The ge::Format code of "ND", "NCHW", "FRACTAL_NZ", "NCDHW", ... (with or without the FORMAT_
// prefix), or nullopt.
std::optional<int> format_code(std::string_view name);
// Every format name (without the prefix) with its code, in code order.
const std::vector<std::pair<std::string, int>>& format_names();

}  // namespace ascendopt
