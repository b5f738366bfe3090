#include "agent/rewind_llm.h"

#include <fmt/format.h>

#include "agent/describe.h"
#include "agent/edit_apply.h"
#include "agent/hunks.h"
#include "agent/prompts.h"

namespace ascendopt {
namespace {

bool family_ok(const std::string& f) { return (f.rfind("kernel.", 0) == 0 || f.rfind("tiling.", 0) == 0) && f.find(' ') == std::string::npos; }

}  // namespace

void take_llm_fields(const nlohmann::json& j, ExperienceRecord& r) {
    auto text = [&](const char* key, std::string& out) {
        if (j.contains(key) && j[key].is_string() && !j[key].get<std::string>().empty()) out = j[key];
    };
    if (j.contains("family") && j["family"].is_string() && family_ok(j["family"])) r.family = j["family"];
    text("title", r.title);
    text("bottleneck", r.bottleneck);
    text("mechanism", r.mechanism);
    text("causal_chain", r.causal_chain);
    text("reusable_when", r.reusable_when);
    text("avoid_when", r.avoid_when);
    text("guidance", r.guidance);
    text("expected_effect", r.expected_effect);
    if (j.contains("keywords") && j["keywords"].is_array()) {
        r.keywords.clear();
        for (const auto& k : j["keywords"])
            if (k.is_string()) r.keywords.push_back(k);
    }
}

Result<RewindReport> rewind_with_llm(CandidateRunner& runner, Proposer& proposer, const TemplateStore& templates, Bank& bank,
                                     const LlmRewindOptions& o) {
    RewindReport report;
    report.op = runner.original().display_name();
    auto start = runner.measure_original();
    if (!start) return start.error();
    CandidateFiles current = std::move(start->files);
    report.strong_latency_us = start->latency_us();
    Evaluated fast = std::move(start->evaluated);

    std::vector<std::string> steps = o.deoptimizations;
    if (o.open_step) steps.push_back("another optimization of your choice that this implementation uses (name it in the JSON)");
    for (const auto& step : steps) {
        auto request = make_request(templates, "deoptimize",
                                    {{"operator", report.op}, {"latency", fmt::format("{:.3f} us (simulated)", *fast.record.latency_us)},
                                     {"optimization", step}, {"files", render_files(current)}},
                                    o.params, "rewind");
        if (!request) return request.error();
        auto reply = proposer.propose(*request);
        if (!reply) {
            report.steps.push_back({step, "LLM error: " + reply.error().message});
            continue;
        }
        const AppliedReply applied = apply_reply(reply->text, current);
        if (!applied.ok()) {
            report.steps.push_back({step, std::string("unusable reply (") + to_string(applied.status) + ")"});
            continue;
        }
        auto evaluated = runner.evaluate(applied.files);
        if (!evaluated) return evaluated.error();
        if (!*evaluated) {
            report.steps.push_back({step, "budget spent"});
            break;
        }
        const Evaluated& slow = **evaluated;
        if (!slow.ok()) {
            report.steps.push_back({step, std::string(status_name(slow.record.status)) + ": " + slow.record.reason});
            continue;
        }
        const double ratio = *slow.record.latency_us / *fast.record.latency_us;
        if (ratio <= 1 + o.base.noise_threshold) {
            report.steps.push_back({step, fmt::format("not slower ({:.3f}x)", ratio)});
            continue;
        }
        auto hunks = diff_hunks(applied.files, current);  // the optimization: slow -> fast
        if (!hunks) return hunks.error();
        std::string diff, removed, added;
        for (const auto& h : *hunks) diff += h.text, removed += h.removed(), added += h.added();
        ExperienceRecord r = describe_change(hunks->empty() ? "" : hunks->front().file, removed, added);
        take_llm_fields(json_block(reply->text), r);
        r.operator_name = report.op;
        r.diff = diff;
        r.slow_latency_us = *slow.record.latency_us;
        r.fast_latency_us = *fast.record.latency_us;
        r.profile_before = slow.record.metrics.value("profile", nlohmann::json::object());
        r.profile_after = fast.record.metrics.value("profile", nlohmann::json::object());
        if (r.bottleneck.empty()) r.bottleneck = bottleneck_of(r.profile_before);
        r.soc = o.base.soc;
        r.provenance = nlohmann::json::array({{{"source", "llm-rewind"}, {"run", o.base.run}, {"model", proposer.model()}, {"step", step},
                                               {"slow_candidate", slow.hash}, {"fast_candidate", fast.hash}}});
        auto put = bank.put(r);
        if (!put) return put.error();
        report.records.push_back(put->id);
        report.steps.push_back(record_step(step, *put, ratio));
        current = applied.files;  // chained: the slower kernel is the next step's start
        fast = slow;
    }
    return report;
}

}  // namespace ascendopt
