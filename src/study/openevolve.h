// The openevolve method: evolutionary search over whole kernels, in the style of OpenEvolve,
// built on our program database (study/program_db.h). Each step takes the next island in
// turn, samples a parent and inspirations there, asks the model for a diff (SEARCH/REPLACE
// blocks) to the parent, evaluates the child and files it in the island's MAP-Elites grid when
// it is correct. Every `migration_interval` evaluations the islands exchange their best.
// Deterministic for a seed and the same replies, so a resumed run (replies replayed from the
// run's cassette, evaluations from its store) takes the same path.
#pragma once

#include "study/methods.h"
#include "study/program_db.h"

namespace ascendopt {

Result<MethodRun> run_openevolve(const OperatorSource& op, MethodContext& context, const EvolveConfig& config = {});

}  // namespace ascendopt
