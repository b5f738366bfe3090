// Rewind with an LLM: from the strongest implementation, ask for one named de-optimization at
// a time (then one of the LLM's own choosing). A step is accepted when the candidate is
// correct and slower than the current kernel by more than the noise threshold; the slower
// kernel becomes current, so the steps form a chained trajectory. Each accepted step is a
// record: the LLM writes the mechanism fields (a JSON block in its reply), the numbers come
// only from the two measurements, and the diff is the step undone (slow -> fast).
#pragma once

#include "agent/rewind.h"
#include "llm/proposer.h"
#include "llm/templates.h"

namespace ascendopt {

struct LlmRewindOptions {
    RewindOptions base;
    std::vector<std::string> deoptimizations = {"double buffering", "vectorized data path", "sync elimination",
                                                "tail-loop consolidation", "redundant-write removal"};
    bool open_step = true;  // finally ask for any other optimization the LLM can identify
    GenerationParams params;
};

Result<RewindReport> rewind_with_llm(CandidateRunner& runner, Proposer& proposer, const TemplateStore& templates, Bank& bank,
                                     const LlmRewindOptions& options);

// Fills a record's text fields from the LLM's JSON; a field it lacks keeps `fallback`'s value.
void take_llm_fields(const nlohmann::json& j, ExperienceRecord& r);

}  // namespace ascendopt
