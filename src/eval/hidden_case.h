// The hidden case: a check case whose shape no candidate can know ahead of time. Drawn from a
// nonce of its own evaluation (not from the input seed, which the user sets and a candidate may
// read off a command line or a run's record), it repeats a perf case of an elementwise operator
// (every tensor of one shape) with a random smaller shape, so a kernel that special-cases the
// shapes it was shown (the perf shape, the manifest's check shapes) fails it. The case carries
// its nonce (Case::hidden_nonce), which the result records: ASCENDOPT_HIDDEN_NONCE=<nonce>
// (or --hidden-nonce) draws the same shape again to reproduce a failure.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/case.h"

namespace ascendopt {

// How the shapes of an operator's tensors relate, for a hidden case of an operator that is not
// elementwise (the manifest's [hidden] table): named dimensions, each drawn in 1..its bound, and
// every tensor's shape in terms of them ("m", "k") and literal sizes (1). A matmul says
// dims = {m = 512, k = 256, n = 512}, shapes = {a = ["m", "k"], b = ["k", "n"], c = ["m", "n"]}.
struct HiddenShapes {
    std::map<std::string, int64_t> dims;
    std::map<std::string, std::vector<std::string>> shapes;  // entries: a dim name or a decimal size
};

// The nonce of one evaluation's hidden case: `forced` when the user asked to reproduce one,
// else 64 fresh bits from std::random_device, independent of every setting.
uint64_t hidden_nonce(std::optional<uint64_t> forced);
// The nonce of this run (this ascendopt process): drawn once, so that the evaluations of one run
// (a tune or optimize session's hundreds) share one hidden shape whose inputs and golden the
// case store keeps, and a candidate still cannot know it in advance. `forced` as above.
uint64_t run_hidden_nonce(std::optional<uint64_t> forced);

// "; ASCENDOPT_HIDDEN_NONCE=<nonce> reproduces this shape": appended to a failing hidden case's
// reason, so that whoever reads the failure can run it again.
std::string hidden_reproduction_hint(uint64_t nonce);

// The hidden case for `cases` with its shape drawn from `nonce` (recorded in the case), or
// nullopt when there is none to derive. With
// `shapes`, the first perf case with its tensors reshaped by it (nullopt when the spec does not
// cover a tensor, or a reshaped tensor gives exact values of more than one element). Without,
// the first elementwise perf case reshaped at random; none when no perf case is elementwise (its
// output shape could not be derived without running the operator's shape inference), gives
// exact input values, or has an integer attribute equal to a dimension or the element count
// (the attributes describe the shape, as Eye's num_rows does).
std::optional<Case> hidden_case(const std::vector<Case>& cases, uint64_t nonce, const HiddenShapes* shapes = nullptr);

}  // namespace ascendopt
