#include "eval/hidden_case.h"

#include <algorithm>
#include <cctype>
#include <random>

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
            if (t.shape != c.inputs.front().shape || !t.values.empty()) return false;
    return true;
}

// An integer attribute equal to a dimension or to the element count describes the shape (Eye's
// num_rows, a BLAS n): a re-shaped copy of the case would contradict it.
bool attribute_shaped(const Case& c) {
    const auto& shape = c.inputs.front().shape;
    int64_t count = 1;
    for (int64_t d : shape) count *= d;
    auto describes_shape = [&](const nlohmann::json& v) {
        if (!v.is_number_integer()) return false;
        const int64_t x = v.get<int64_t>();
        return x > 1 && (x == count || std::find(shape.begin(), shape.end(), x) != shape.end());
    };
    for (const auto& [name, value] : c.attrs.items()) {
        if (describes_shape(value)) return true;
        if (value.is_array())
            for (const auto& e : value)
                if (describes_shape(e)) return true;
    }
    return false;
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

// The perf case reshaped by the manifest's spec.
std::optional<Case> reshaped(const Case& perf, const HiddenShapes& spec, Rng& rng) {
    std::map<std::string, int64_t> drawn;
    for (const auto& [name, bound] : spec.dims) drawn[name] = 1 + int64_t(rng.next() % uint64_t(std::max<int64_t>(1, bound)));
    Case hidden = perf;
    for (auto* list : {&hidden.inputs, &hidden.outputs})
        for (auto& t : *list) {
            const auto it = spec.shapes.find(t.name);
            if (it == spec.shapes.end()) return std::nullopt;
            std::vector<int64_t> shape;
            for (const auto& e : it->second) {
                const auto d = drawn.find(e);
                if (d != drawn.end()) shape.push_back(d->second);
                else if (!e.empty() && std::all_of(e.begin(), e.end(), ::isdigit)) shape.push_back(std::stoll(e));
                else return std::nullopt;
            }
            if (t.values.size() > 1 && shape != t.shape) return std::nullopt;
            t.shape = shape;
        }
    return hidden;
}

uint64_t hidden_nonce(std::optional<uint64_t> forced) {
    if (forced) return *forced;
    std::random_device device;  // 32 bits a call
    return (uint64_t(device()) << 32) | uint64_t(device());
}

uint64_t run_hidden_nonce(std::optional<uint64_t> forced) {
    static const uint64_t drawn = hidden_nonce(std::nullopt);
    return forced ? *forced : drawn;
}

std::string hidden_reproduction_hint(uint64_t nonce) {
    return "; ASCENDOPT_HIDDEN_NONCE=" + std::to_string(nonce) + " reproduces this shape";
}

std::optional<Case> hidden_case(const std::vector<Case>& cases, uint64_t nonce, const HiddenShapes* spec) {
    if (spec) {
        const auto perf = std::find_if(cases.begin(), cases.end(), [](const Case& c) { return c.role == CaseRole::perf; });
        if (perf == cases.end()) return std::nullopt;
        Rng rng(stable_hash64("hidden-case/" + std::to_string(nonce) + "/" + perf->name));
        auto hidden = reshaped(*perf, *spec, rng);
        if (!hidden) return std::nullopt;
        hidden->name = "hidden";
        hidden->role = CaseRole::check;
        hidden->hidden_nonce = nonce;
        return hidden;
    }
    const auto perf = std::find_if(cases.begin(), cases.end(), [](const Case& c) {
        return c.role == CaseRole::perf && elementwise(c) && !attribute_shaped(c);
    });
    if (perf == cases.end()) return std::nullopt;
    Rng rng(stable_hash64("hidden-case/" + std::to_string(nonce) + "/" + perf->name));
    Case hidden = *perf;
    hidden.name = "hidden";
    hidden.role = CaseRole::check;
    hidden.hidden_nonce = nonce;
    const auto shape = random_shape(perf->inputs.front().shape, rng);
    for (auto* list : {&hidden.inputs, &hidden.outputs})
        for (auto& t : *list) t.shape = shape;
    return hidden;
}

}  // namespace ascendopt
