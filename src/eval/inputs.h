// Input data for a case: reproducible from (seed, case name, tensor name), in the tensor's
// dtype, as raw little-endian bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/case.h"

namespace ascendopt {

std::vector<char> generate_input(const TensorSpec& t, uint64_t seed);

// The seed of tensor `tensor` of case `case_name` in a run seeded with `run_seed`.
uint64_t tensor_seed(uint64_t run_seed, const std::string& case_name, const std::string& tensor);

}  // namespace ascendopt
