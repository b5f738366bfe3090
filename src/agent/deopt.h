// De-optimizations: named source transformations that undo one optimization of an unmodified
// operator, so that rewind can mine operators that come without a slower sibling (the
// published cann-ops ones; docs/cann-ops-deopt-survey.md maps where each applies there). The
// reverse of each is the optimization an experience record teaches, under its family.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "eval/candidate_folder.h"

namespace ascendopt {

struct Deoptimization {
    std::string name;    // "single_buffer"
    std::string family;  // the bank family its reverse demonstrates (bank/record.h)
    std::string undoes;  // the optimization it takes away, in words
    // The files with the de-optimization applied everywhere it can be; nullopt where it cannot.
    std::function<std::optional<CandidateFiles>(const CandidateFiles&)> apply;
    // The optimization itself, on any operator that lacks it (what offline Stage I transfers
    // when a record's diff does not apply to another operator); empty where no general form exists.
    std::function<std::optional<CandidateFiles>(const CandidateFiles&)> restore;
    std::string restore_name;  // "double_buffer"; empty without a restore
};

// `files` with `edit` applied to every file whose path starts with `folder` ("op_kernel/");
// nullopt when it changed none.
std::optional<CandidateFiles> edit_files_under(const CandidateFiles& files, const char* folder,
                                               const std::function<std::string(const std::string&)>& edit);

// In the order rule-based rewind tries them.
const std::vector<Deoptimization>& deoptimizations();

// The rule whose reverse demonstrates `family`, or null.
const Deoptimization* deoptimization_for_family(const std::string& family);

}  // namespace ascendopt
