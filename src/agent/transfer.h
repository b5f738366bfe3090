// The built-in proposer that needs no LLM ("transfer"): it applies the code diff of a retrieved
// experience record to the target operator with GNU patch (--fuzz=3 --ignore-whitespace), the
// real fuzzy patcher every Linux machine has. The record's files are mapped to the target's by
// role (its one kernel source, its one host source, its tiling header), since another
// operator's file names differ. Where the diff does not apply, the optimization of the record's
// family is applied as a rule when one exists (agent/deopt.h: double buffering, no full
// barriers); otherwise there is no proposal.
#pragma once

#include <optional>

#include "agent/workspace.h"
#include "bank/record.h"

namespace ascendopt {

struct Transferred {
    CandidateFiles files;
    std::vector<std::string> changed;  // target files the diff changed
    std::string how;                   // "the record's diff", or "rule double_buffer" (the family's restore)
};

// nullopt when the diff does not apply (or changes nothing); an error only when patch is missing.
Result<std::optional<Transferred>> transfer_record(const ExperienceRecord& record, const CandidateFiles& target);

}  // namespace ascendopt
