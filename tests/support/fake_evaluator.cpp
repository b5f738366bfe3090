#include "support/fake_evaluator.h"

#include "util/files.h"

namespace ascendopt::testing {

std::string sources_of(const OperatorSource& op) {
    std::string all;
    for (const auto& f : op.all_files)
        if (auto text = read_text(f)) all += *text + "\n";
    return all;
}

FakeEvaluator::FakeEvaluator(Rule rule, EvalOptions options) : m_rule(std::move(rule)), m_options(std::move(options)) {
    if (m_options.soc_description.is_null())
        m_options.soc_description = {{"cores", {{"vector", 48}}}, {"memory", {{"ub", 196608}}}};
}

Result<EvalResult> FakeEvaluator::evaluate(const OperatorSource& op, const EvalRequest& request, const ProgressFn&) {
    ++m_evaluations;
    if (!request.case_filter && !request.role_filter) ++m_full;
    const FakeVerdict v = m_rule(sources_of(op), request);
    EvalResult r;
    r.op_name = op.display_name();
    r.op_dir = op.root.string();
    r.status = v.status;
    r.reason = v.reason;
    r.build_cached = true;
    CaseResult perf;
    perf.name = "perf";
    perf.role = CaseRole::perf;
    perf.status = v.status;
    perf.reason = v.reason;
    if (v.status == EvalStatus::ok) {
        perf.latency_us = v.latency_us;
        perf.latency_samples = {v.latency_us};
    }
    if (!v.races.empty()) perf.twin = {{"races", v.races}};
    r.cases.push_back(perf);
    return r;
}

Result<PreflightResult> FakeEvaluator::preflight(const OperatorSource& op, const EvalRequest& request) {
    ++m_preflights;
    const FakeVerdict v = m_rule(sources_of(op), request);
    PreflightResult p;
    p.block_dim = 8;
    if (v.status != EvalStatus::ok && v.status != EvalStatus::wrong_result) {
        p.status = v.status;
        p.reason = v.reason;
    }
    return p;
}

}  // namespace ascendopt::testing
