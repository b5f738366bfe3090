// A candidate (the original operator with some of its files changed) as an operator folder:
// <out>/candidates/<hash prefix>/<operator folder name>/, written once (a .complete marker makes
// a rerun reuse it) and loaded with the original's cases. Stage I, rewind and Stage II all
// evaluate candidates this way.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "eval/operator_source.h"

namespace ascendopt {

// The files a candidate may change, relative path -> content: everything under op_host/ and op_kernel/.
using CandidateFiles = std::map<std::string, std::string>;

// The files of `op` that go into a build, as CandidateFiles.
Result<CandidateFiles> read_candidate_files(const OperatorSource& op);

// Writes `files` (whose content hash is `hash`) under `out_dir` unless they are there already,
// and loads the folder with the cases, type and manifest of `original`.
Result<OperatorSource> materialize_candidate(const OperatorSource& original, const CandidateFiles& files, const std::string& hash,
                                             const std::filesystem::path& out_dir);

}  // namespace ascendopt
