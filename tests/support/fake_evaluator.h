// A fake Evaluator for unit tests of the layers above eval (Stage I, rewind, the tuner, the
// study's methods): no compiler, no twin. A test gives the verdict of each candidate as a
// function of its sources and the request (host tunables arrive in the request's env), and the
// fake counts what it was asked.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>

#include "eval/evaluator.h"

namespace ascendopt::testing {

// What the fake answers for one candidate.
struct FakeVerdict {
    EvalStatus status = EvalStatus::ok;
    double latency_us = 10;
    std::string reason;
    // What the twin's hazard checker would report in the perf case (twin/rt/hazard.h's JSON).
    nlohmann::json races = nlohmann::json::array();

    static FakeVerdict passes(double us) { return {EvalStatus::ok, us, "", nlohmann::json::array()}; }
    static FakeVerdict fails(EvalStatus s, std::string why) { return {s, 0, std::move(why), nlohmann::json::array()}; }
    FakeVerdict with_races(nlohmann::json r) const {
        FakeVerdict v = *this;
        v.races = std::move(r);
        return v;
    }
};

// The text of every file of `op` that goes into a build, concatenated: what rules match on.
std::string sources_of(const OperatorSource& op);

class FakeEvaluator : public Evaluator {
public:
    using Rule = std::function<FakeVerdict(const std::string& sources, const EvalRequest& request)>;
    explicit FakeEvaluator(Rule rule, EvalOptions options = {});

    Result<EvalResult> evaluate(const OperatorSource& op, const EvalRequest& request, const ProgressFn& progress) override;
    // Runs the same rule: a failing verdict fails the preflight too (as a certain failure would).
    Result<PreflightResult> preflight(const OperatorSource& op, const EvalRequest& request) override;
    const EvalOptions& options() const override { return m_options; }

    int evaluations() const { return m_evaluations; }
    // Those that asked for every case (no case or role filter).
    int full_evaluations() const { return m_full; }
    int preflights() const { return m_preflights; }

private:
    Rule m_rule;
    EvalOptions m_options;
    std::atomic<int> m_evaluations{0}, m_full{0}, m_preflights{0};
};

}  // namespace ascendopt::testing
