#include "eval/inputs.h"

#include <algorithm>
#include <cmath>

#include "util/hash.h"
#include "util/random.h"

namespace ascendopt {

uint64_t tensor_seed(uint64_t run_seed, const std::string& case_name, const std::string& tensor) {
    return stable_hash64(std::to_string(run_seed) + "/" + case_name + "/" + tensor);
}

std::vector<char> generate_input(const TensorSpec& t, uint64_t seed) {
    const size_t n = size_t(t.scalars());
    std::vector<char> out(size_t(t.bytes()));
    Rng rng(seed);
    const bool integral = !dtype_is_float(t.dtype);
    const double lo = integral ? std::ceil(t.low) : t.low;
    const double hi = integral ? std::floor(t.high) : t.high;
    for (size_t i = 0; i < n; ++i) {
        double v;
        if (!t.values.empty()) {
            v = t.values[t.values.size() == 1 ? 0 : i];
        } else if (t.dtype == DType::boolean) {
            v = double(rng.next() & 1u);
        } else if (t.distribution == Distribution::normal) {
            v = std::clamp((lo + hi) / 2 + rng.normal() * (hi - lo) / 6, lo, hi);
        } else if (integral) {
            v = lo + std::floor(rng.uniform01() * (hi - lo + 1));
        } else {
            v = rng.uniform(lo, hi);
        }
        if (!t.int_values.empty() && integral)
            store_integer(t.dtype, out.data(), i, t.int_values[t.int_values.size() == 1 ? 0 : i]);
        else
            store_element(t.dtype, out.data(), i, v);
    }
    return out;
}

}  // namespace ascendopt
