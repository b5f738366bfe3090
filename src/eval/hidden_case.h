// The hidden case: a check case whose shape no candidate can know ahead of time. Derived from
// the evaluation's seed, it repeats a perf case of an elementwise operator (every tensor of one
// shape) with a random smaller shape, so a kernel that special-cases the shapes it was shown
// (the perf shape, the manifest's check shapes) fails it.
#pragma once

#include <optional>
#include <vector>

#include "core/case.h"

namespace ascendopt {

// The hidden case for `cases` under `seed`, or nullopt when no perf case is elementwise (its
// output shape could not be derived without running the operator's shape inference), gives
// exact input values, or has an integer attribute equal to a dimension or the element count
// (the attributes describe the shape, as Eye's num_rows does).
std::optional<Case> hidden_case(const std::vector<Case>& cases, uint64_t seed);

}  // namespace ascendopt
