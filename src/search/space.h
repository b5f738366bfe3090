// The search space of Stage II: one dimension per tunable, its domain as the values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "search/tunables.h"

namespace ascendopt {

class SearchSpace {
public:
    explicit SearchSpace(std::vector<Tunable> tunables) : m_tunables(std::move(tunables)) {}

    const std::vector<Tunable>& tunables() const { return m_tunables; }
    size_t dimensions() const { return m_tunables.size(); }
    // Number of configurations, saturating at UINT64_MAX.
    uint64_t size() const;
    TilingConfig original() const;
    // The configuration with mixed-radix index `i` (i < size()), for exhaustive enumeration.
    TilingConfig at(uint64_t i) const;
    // Index of `value` in dimension d's domain (nearest when absent).
    size_t index_of(size_t d, int64_t value) const;

private:
    std::vector<Tunable> m_tunables;
};

nlohmann::json to_json(const TilingConfig& c);

}  // namespace ascendopt
