#include "search/space.h"

#include <cstdlib>
#include <limits>

namespace ascendopt {

uint64_t SearchSpace::size() const {
    uint64_t n = 1;
    for (const auto& t : m_tunables) {
        const uint64_t d = t.domain.size();
        if (d != 0 && n > std::numeric_limits<uint64_t>::max() / d) return std::numeric_limits<uint64_t>::max();
        n *= d;
    }
    return n;
}

TilingConfig SearchSpace::original() const {
    TilingConfig c;
    for (const auto& t : m_tunables) c[t.name] = t.value;
    return c;
}

TilingConfig SearchSpace::at(uint64_t i) const {
    TilingConfig c;
    for (const auto& t : m_tunables) {
        c[t.name] = t.domain[i % t.domain.size()];
        i /= t.domain.size();
    }
    return c;
}

size_t SearchSpace::index_of(size_t d, int64_t value) const {
    const auto& dom = m_tunables[d].domain;
    size_t best = 0;
    for (size_t k = 1; k < dom.size(); ++k)
        if (std::llabs(dom[k] - value) < std::llabs(dom[best] - value)) best = k;
    return best;
}

nlohmann::json to_json(const TilingConfig& c) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [k, v] : c) j[k] = v;
    return j;
}

}  // namespace ascendopt
