#include "eval/hidden_case.h"

#include <algorithm>

#include "util/hash.h"
#include "util/random.h"

namespace ascendopt {
namespace {

// Small enough to cost little next to the perf case; large enough to span several cores.
constexpr int64_t k_most_elements = 1 << 16;

bool elementwise(const Case& c) {
    if (c.inputs.empty()) return false;
    for (const auto* list : {&c.inputs, &c.outputs})
        for (const auto& t : *list)
            if (t.shape != c.inputs.front().shape) return false;
    return true;
}

// Each dimension uniform in 1..its perf size, then the leading ones shrunk to the size cap.
std::vector<int64_t> random_shape(const std::vector<int64_t>& perf, Rng& rng) {
    std::vector<int64_t> shape;
    int64_t total = 1;
    for (const int64_t d : perf) {
        shape.push_back(1 + int64_t(rng.next() % uint64_t(std::max<int64_t>(1, d))));
        total *= shape.back();
    }
    for (auto& d : shape) {
        while (total > k_most_elements && d > 1) {
            total /= d;
            d = std::max<int64_t>(1, d / 2);
            total *= d;
        }
    }
    return shape;
}

}  // namespace

std::optional<Case> hidden_case(const std::vector<Case>& cases, uint64_t seed) {
    const auto perf = std::find_if(cases.begin(), cases.end(), [](const Case& c) { return c.role == CaseRole::perf && elementwise(c); });
    if (perf == cases.end()) return std::nullopt;
    Rng rng(stable_hash64("hidden-case/" + std::to_string(seed) + "/" + perf->name));
    Case hidden = *perf;
    hidden.name = "hidden";
    hidden.role = CaseRole::check;
    const auto shape = random_shape(perf->inputs.front().shape, rng);
    for (auto* list : {&hidden.inputs, &hidden.outputs})
        for (auto& t : *list) t.shape = shape;
    return hidden;
}

}  // namespace ascendopt
