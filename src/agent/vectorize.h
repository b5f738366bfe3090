// Vector fills against scalar element loops: the de-optimization and the restore of the
// kernel.compute.vectorization family (agent/deopt.h). A fill written as a loop of
// LocalTensor::SetValue runs on the scalar unit one element at a time; Duplicate (a constant)
// and CreateVecIndex (first + i) do it on the vector unit, 256 bytes per repeat.
#pragma once

#include <optional>

#include "eval/candidate_folder.h"

namespace ascendopt {

// Every three-argument Duplicate(dst, value, count) of the kernel files becomes the loop
// `for (int32_t i = 0; i < count; ++i) { dst.SetValue(i, value); }`; nullopt when there is none.
std::optional<CandidateFiles> scalar_fills(const CandidateFiles& files);

// Every counted loop whose only statement is `t.SetValue(i, v)` on a LocalTensor t becomes one
// vector instruction: CreateVecIndex(t, (T)0, n) where v is the index cast to T, Duplicate(t, v, n)
// where v does not depend on the index. The element type is given explicitly (Duplicate<T>) where
// the tensor's declaration names it, as CANN deduces T from both arguments. nullopt when no loop
// has that form.
std::optional<CandidateFiles> vector_fills(const CandidateFiles& files);

}  // namespace ascendopt
