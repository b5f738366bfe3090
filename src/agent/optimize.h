// One operator through Stage I then Stage II under one budget (`ascendopt optimize`, and the
// study's ascendopt method). Both stages spend from one ledger of one run in <out>/run.db
// (Stage I up to its share), so a killed run resumes where it stopped. The result is the optimized
// folder <out>/optimized/<op>/ (the input with op_host/ and op_kernel/ replaced) and a summary.
#pragma once

#include <functional>
#include <optional>

#include "agent/stage1.h"
#include "eval/evaluator.h"

namespace ascendopt {

struct OptimizeOptions {
    int64_t budget = 30;
    double stage1_share = 0.5;  // Stage I may use this share (at least 2); Stage II gets the rest
    bool stage2 = true;         // false: Stage I alone (an ablation)
    size_t top_k = 5;
    // Seeds Stage II's search (and what else draws at random); empty: the evaluator's input seed.
    std::optional<uint64_t> search_seed;
    std::filesystem::path out_dir;
    std::string bank_path;  // for the summary
    // Makes Stage I's LLM for the run (its id is for call accounting); null: the transfer proposer.
    std::function<Result<std::unique_ptr<Proposer>>(int64_t run)> make_proposer;
    std::string proposer_identity = "transfer";  // part of the run's identity
    const TemplateStore* templates = nullptr;
    GenerationParams params;
    EmbeddingsClient* embeddings = nullptr;
    std::function<void(const std::string&)> progress;  // stage messages; may be empty
};

// What Stage I's LLM did: how many calls it was sent and how many it answered.
struct LlmUse {
    bool configured = false;  // false: Stage I used the transfer proposer
    int64_t calls = 0, answered = 0;
    std::string first_error;  // of the first call that failed
};

struct OptimizeResult {
    Stage1Result stage1;
    LlmUse llm;
    int64_t stage1_evaluations = 0, stage2_evaluations = 0;
    std::string stage2_skipped;  // why Stage II did not run ("no tunable constants"), or empty
    // Stage II's tunables as written and as chosen (null when it did not run).
    nlohmann::json baseline_config, best_config;
    double final_us = 0;
    // Every evaluation's latency in budget order, Stage I then Stage II (nullopt: not correct).
    std::vector<std::optional<double>> evaluations;
    std::filesystem::path optimized_dir;
    nlohmann::json summary;
};

Result<OptimizeResult> optimize_operator(const OperatorSource& op, Evaluator& evaluator, Bank& bank, const OptimizeOptions& o);

}  // namespace ascendopt
