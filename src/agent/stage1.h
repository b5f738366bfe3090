// Stage I: diagnose -> retrieve -> rewrite -> evaluate -> accept only if correct and faster.
// The diagnosis is rule-based (the profile's bound and pipe utilizations, plus the structural
// cues of the source: single-buffered queues, full barriers, scalar element access, DMA set-up
// dominance), extended by the LLM's own reading of the profile and code when one is given;
// it is written as symptoms that retrieval matches against the bank. The
// rewrite comes from the LLM, or from the transfer proposer (a retrieved record's diff, fuzzily
// patched in, or its family's rule): a record that yields no candidate for this operator costs
// no evaluation, so the transfer proposer walks the ranking until top_k records have yielded one.
// Every evaluation goes through the run's ledger, so Stage I resumes after kill -9.
#pragma once

#include "agent/workspace.h"
#include "bank/retrieval.h"
#include "llm/proposer.h"
#include "llm/templates.h"

namespace ascendopt {

struct Stage1Options {
    int64_t budget = 10;           // evaluations Stage I may spend (the baseline's included)
    size_t top_k = 5;              // records retrieved per round (the transfer proposer: records that yield a candidate)
    size_t transfer_depth = 64;    // the transfer proposer: how far down the ranking it looks for them
    double noise_threshold = 0.02;  // a rewrite must be this much faster to be accepted
    EmbeddingsClient* embeddings = nullptr;
    Proposer* proposer = nullptr;            // null: the transfer proposer
    const TemplateStore* templates = nullptr;  // required with a proposer
    int max_repairs = 2;                     // repair prompts per rewrite
    GenerationParams params;
    std::string soc;
};

struct AcceptedRewrite {
    int64_t record = 0;        // the experience record that inspired it (the first, for an LLM rewrite)
    std::vector<int64_t> inspired_by;  // every record the rewrite was shown
    std::string record_operator;       // the operator `record` was mined from
    std::string applied_as;            // "the record's diff", "rule double_buffer", "an LLM rewrite"
    std::string family;
    double before_us = 0, after_us = 0;
    std::vector<std::string> files;
    std::string diff;  // unified diff of the rewrite (empty when GNU diff could not run)
};

struct Stage1Attempt {
    int64_t record = 0;
    std::string outcome;  // "accepted (1.31x)", "not faster (0.998x)", "wrong_result: ...", "does not apply"
};

struct Stage1Result {
    CandidateFiles best;            // the accepted version (the input when nothing was accepted)
    double baseline_us = 0, best_us = 0;
    std::vector<AcceptedRewrite> accepted;
    std::vector<Stage1Attempt> attempts;
    std::vector<std::string> diagnoses;  // one per round
    std::vector<std::string> episode;    // what was tried and what happened (the LLM's memory)
};

// The symptoms of `files` as measured by `profile` (a compact profile from record_of()).
std::string diagnose(const nlohmann::json& profile, const CandidateFiles& files);

Result<Stage1Result> run_stage1(CandidateRunner& runner, Bank& bank, const Stage1Options& options);

}  // namespace ascendopt
