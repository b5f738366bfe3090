// The study's methods behind one interface: each gets an operator, the same evaluator and
// the same budget of unique evaluations, and returns every evaluation's latency in order.
//   ascendopt             Stage I (LLM when configured, else transfer) + Stage II, with the bank
//   stage1                Stage I alone (ablation)
//   stage1-no-experience  Stage I with an empty bank (ablation; needs an LLM)
//   stage2                Stage II alone (tune)
//   best-of-n             N samples of one prompt, the best correct kept (needs an LLM)
//   openevolve            MAP-Elites islands with diff mutations (needs an LLM; study/openevolve.h)
#pragma once

#include <functional>
#include <memory>

#include "agent/workspace.h"
#include "bank/bank.h"
#include "eval/evaluator.h"
#include "llm/proposer.h"
#include "llm/templates.h"

namespace ascendopt {

struct MethodContext;
struct MethodRun;

struct MethodInfo {
    std::string name;
    bool needs_llm = false;  // skipped without one
    bool uses_llm = false;   // takes one when configured (a superset of needs_llm)
    bool needs_bank = false; // and pays the rewind share for it
    std::string description;
    // Runs the method on an operator within the context's budget (the rewind share already
    // taken off): what run_method() calls.
    std::function<Result<MethodRun>(const OperatorSource&, MethodContext&)> run;
};
const std::vector<MethodInfo>& study_methods();
const MethodInfo* find_method(const std::string& name);

struct MethodContext {
    Evaluator& evaluator;           // the session's; its options() give the SoC and the input seed
    uint64_t search_seed = 0;       // what the method draws at random with (the study's seed)
    int64_t budget = 0;             // unique evaluations for this operator, the rewind share included
    int64_t rewind_share = 0;       // of `budget`, charged to building the bank (methods that need one)
    std::filesystem::path out_dir;  // this method's folder for this operator
    Bank* bank = nullptr;
    std::string bank_path;
    std::function<Result<std::unique_ptr<Proposer>>(int64_t run)> make_proposer;  // empty: no LLM
    std::string proposer_identity = "transfer";
    const TemplateStore* templates = nullptr;
    GenerationParams params;
};

struct MethodRun {
    std::string method, op;
    double baseline_us = 0;
    std::vector<std::optional<double>> evaluations;  // latency per evaluation, budget order; nullopt: not correct
    nlohmann::json detail = nlohmann::json::object();  // the method's own summary
    std::string level = "all";  // the operator's level in the suite (study/suite.h)
    uint64_t seed = 0;          // the study seed it ran with (MethodContext::search_seed)
};

nlohmann::json to_json(const MethodRun& r);
MethodRun method_run_from_json(const nlohmann::json& j);

// Runs `method` within context.budget. A method that needs the bank spends the budget less the
// rewind share; the share comes first in the run's evaluations as evaluations that found
// nothing (nullopt), so the progress curve is flat over it, and detail.rewind_charged says so.
Result<MethodRun> run_method(const MethodInfo& method, const OperatorSource& op, MethodContext& context);
// Whether `budget` leaves `method` at least 2 evaluations after its rewind share.
Status check_budget(const MethodInfo& method, int64_t budget, int64_t rewind_share);

// For the methods that search with an LLM (best-of-n, openevolve): the run (its settings are
// `settings` plus operator, seed, budget and proposer), the candidate session, the proposer,
// the operator's files and their baseline evaluation, which must be correct. Heap-held: the
// session refers to the store.
struct LlmSearch {
    std::optional<RunStore> store;
    int64_t run = 0;
    std::unique_ptr<CandidateSession> session;
    std::unique_ptr<Proposer> proposer;
    CandidateFiles files;
    Evaluated base;
    double baseline_us() const { return *base.record.latency_us; }
    CandidateRunner& runner() { return session->runner(); }
};
Result<std::unique_ptr<LlmSearch>> start_llm_search(const std::string& method, const OperatorSource& op, MethodContext& c, nlohmann::json settings);

}  // namespace ascendopt
