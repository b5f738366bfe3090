#include "agent/stage1.h"

#include <fmt/format.h>

#include <regex>
#include <set>

#include "agent/deopt.h"
#include "agent/describe.h"
#include "agent/edit_apply.h"
#include "agent/hunks.h"
#include "agent/prompts.h"
#include "agent/split_cores.h"
#include "agent/transfer.h"
#include "eval/soc_variants.h"

namespace ascendopt {

std::string diagnose(const nlohmann::json& profile, const CandidateFiles& files) {
    std::string text = bottleneck_of(profile) + ".";
    std::string all;
    for (const auto& [path, content] : files) all += content + "\n";
    // Single buffered wherever the double-buffering rule finds a queue depth of 1 to raise, whatever its name.
    const Deoptimization* buffering = deoptimization_for_family("kernel.memory.double_buffer");
    if (buffering && buffering->restore(files))
        text += " Queues are single buffered (BUFFER_NUM = 1): MTE2 copy latency is exposed once per tile, no overlap of copy and compute.";
    if (all.find("PipeBarrier<PIPE_ALL>") != std::string::npos)
        text += " A PipeBarrier PIPE_ALL full pipeline barrier in the tile loop drains every pipe: sync stall.";
    if (all.find("GetValue") != std::string::npos || all.find("SetValue") != std::string::npos)
        text += " Scalar element access with GetValue/SetValue.";
    if (kernel_replicated_over_blocks(files))
        text += " Every block runs the whole job: SetBlockDim launches several blocks but the kernel never reads GetBlockIdx, so the cores"
                " repeat each other's GM traffic instead of splitting it (multicore: split the tiles over the blocks by block index).";
    const auto& bound = profile.contains("bound") ? profile["bound"] : nlohmann::json();
    if (bound.is_object() && bound.value("kind", "").find("DMA latency") != std::string::npos)
        text += " DMA setup dominates: many small transfers, tile size too small.";
    return text;
}

namespace {

// The diagnosis: the rules' reading, extended by the LLM's own when there is one (an LLM
// failure leaves the rules' reading, noted in the episode).
std::string diagnosis_for(const nlohmann::json& profile, const Stage1Result& out, const std::string& op, std::vector<std::string>& episode,
                          const Stage1Options& o) {
    const std::string rules = diagnose(profile, out.best);
    if (!o.proposer) return rules;
    auto request = make_request(*o.templates, "diagnose",
                                {{"operator", op}, {"latency", fmt::format("{:.3f} us (simulated)", out.best_us)}, {"profile", profile.dump(1)},
                                 {"rules", rules}, {"files", render_files(out.best)}},
                                o.params, "stage1-diagnose");
    if (!request) return rules;
    auto reply = o.proposer->propose(*request);
    if (!reply) {
        episode.push_back("the LLM could not diagnose: " + reply.error().message);
        return rules;
    }
    return rules + "\n" + reply->text;
}

// Under --robust (EvalOptions::robust_variants): why `candidate`, faster than `incumbent` on the
// nominal SoC, is still refused: it is not faster by the threshold under every variant. Empty
// when it is, or when --robust is off. The re-timings are re-simulations of two programs
// already evaluated: they cost no budget.
Result<std::string> not_robust(CandidateRunner& runner, const CandidateFiles& incumbent, const CandidateFiles& candidate, double threshold) {
    const auto variants = robust_variants(runner.evaluator().options());
    if (variants.empty()) return std::string();
    auto before = runner.materialize(incumbent);
    if (!before) return before.error();
    auto after = runner.materialize(candidate);
    if (!after) return after.error();
    auto g = robust_gain({*before, {}}, {*after, {}}, variants, runner.evaluator());
    if (!g) return "not faster everywhere: " + g.error().message;
    if (g->worst > 1 + threshold) return std::string();
    return "not faster everywhere (" + describe_robust(*g) + ")";
}

// One LLM rewrite with its repairs. True when a faster version was accepted into `out`.
Result<bool> llm_round(CandidateRunner& runner, const std::vector<Bank::Hit>& hits, const std::string& diagnosis, Stage1Result& out,
                       nlohmann::json& profile, const Stage1Options& o) {
    const std::string op = runner.original().display_name();
    auto request = make_request(*o.templates, "rewrite",
                                {{"operator", op}, {"soc", o.soc}, {"latency", fmt::format("{:.3f} us (simulated)", out.best_us)},
                                 {"diagnosis", diagnosis}, {"experience", render_experience(hits)}, {"history", render_history(out.episode)},
                                 {"files", render_files(out.best)}},
                                o.params, "stage1");
    std::vector<int64_t> ids;
    for (const auto& h : hits) ids.push_back(h.record.id);
    for (int attempt = 0; attempt <= o.max_repairs; ++attempt) {
        if (!request) return request.error();
        auto reply = o.proposer->propose(*request);
        if (!reply) {
            out.episode.push_back("the LLM failed: " + reply.error().message);
            return false;
        }
        std::string status, reason;
        const AppliedReply applied = apply_reply(reply->text, out.best);
        if (!applied.ok()) {
            status = std::string("unusable reply (") + to_string(applied.status) + ")", reason = applied.reason;
        } else {
            if (runner.ledger().budget().used() >= o.budget) return false;
            auto evaluated = runner.evaluate(applied.files);
            if (!evaluated) return evaluated.error();
            if (!*evaluated) return false;
            const Evaluated& e = **evaluated;
            if (e.ok()) {
                const double ratio = out.best_us / *e.record.latency_us;
                const std::string files = fmt::format("{} file(s): {}", applied.changed.size(), applied.changed.front());
                if (ratio <= 1 + o.noise_threshold) {
                    out.episode.push_back(fmt::format("a rewrite of {} was correct but not faster ({:.3f}x)", files, ratio));
                    out.attempts.push_back({ids.empty() ? 0 : ids[0], fmt::format("not faster ({:.3f}x)", ratio)});
                    return false;
                }
                auto refused = not_robust(runner, out.best, applied.files, o.noise_threshold);
                if (!refused) return refused.error();
                if (!refused->empty()) {
                    out.episode.push_back(fmt::format("a rewrite of {} was faster on the nominal SoC but {}", files, *refused));
                    out.attempts.push_back({ids.empty() ? 0 : ids[0], *refused});
                    return false;
                }
                out.episode.push_back(fmt::format("a rewrite of {} was accepted: {:.3f} -> {:.3f} us", files, out.best_us, *e.record.latency_us));
                out.attempts.push_back({ids.empty() ? 0 : ids[0], fmt::format("accepted ({:.2f}x)", ratio)});
                out.accepted.push_back({ids.empty() ? 0 : ids[0], ids, hits.empty() ? "" : hits[0].record.operator_name, "an LLM rewrite",
                                        hits.empty() ? "llm" : hits[0].record.family, out.best_us, *e.record.latency_us, applied.changed,
                                        unified_diff(out.best, applied.files)});
                out.best = applied.files;
                out.best_us = *e.record.latency_us;
                profile = e.record.metrics.value("profile", nlohmann::json::object());
                return true;
            }
            status = status_name(e.record.status), reason = e.record.reason;
        }
        out.episode.push_back("attempt failed, " + status + ": " + reason.substr(0, 300));
        out.attempts.push_back({ids.empty() ? 0 : ids[0], status + ": " + reason.substr(0, 200)});
        request = make_request(*o.templates, "repair", {{"operator", op}, {"status", status}, {"reason", reason}, {"files", render_files(out.best)}},
                               o.params, "stage1-repair");
    }
    return false;
}

}  // namespace

Result<Stage1Result> run_stage1(CandidateRunner& runner, Bank& bank, const Stage1Options& o) {
    auto start = runner.measure_original();
    if (!start) return start.error();
    Stage1Result out;
    out.best = start->files;
    out.baseline_us = out.best_us = start->latency_us();
    nlohmann::json profile = start->evaluated.record.metrics.value("profile", nlohmann::json::object());
    std::set<int64_t> tried;
    int fruitless = 0;
    const std::string self = runner.original().display_name();
    for (bool progress = true; progress;) {
        progress = false;
        const std::string symptoms = diagnosis_for(profile, out, self, out.episode, o);
        out.diagnoses.push_back(symptoms);
        const size_t depth = o.proposer ? o.top_k : std::max(o.top_k, o.transfer_depth);
        auto found = retrieve(bank, symptoms, {.top_k = depth, .embeddings = o.embeddings, .exclude_operator = self});
        if (!found) return found.error();
        if (o.proposer) {
            // Rounds go on while they help; two fruitless rounds in a row end Stage I.
            if (found->hits.size() > o.top_k) found->hits.resize(o.top_k);
            auto accepted = llm_round(runner, found->hits, symptoms, out, profile, o);
            if (!accepted) return accepted.error();
            fruitless = *accepted ? 0 : fruitless + 1;
            progress = fruitless < 2 && runner.ledger().budget().used() < o.budget;
            continue;
        }
        size_t yielded = 0;  // records of this round that gave a candidate
        for (const auto& hit : found->hits) {
            if (yielded == o.top_k) break;
            const ExperienceRecord& rec = hit.record;
            if (!tried.insert(rec.id).second) continue;
            auto proposal = transfer_record(rec, out.best);
            if (!proposal) return proposal.error();
            if (!*proposal) {
                out.attempts.push_back({rec.id, "does not apply"});
                continue;
            }
            // Records of one family often transfer by the same rule to the same candidate: the
            // run's ledger answers a repeat from the store, without an evaluation.
            ++yielded;
            if (runner.ledger().budget().used() >= o.budget) return out;
            auto evaluated = runner.evaluate((*proposal)->files);
            if (!evaluated) return evaluated.error();
            if (!*evaluated) return out;  // the run's budget is spent
            const Evaluated& e = **evaluated;
            if (!e.ok()) {
                out.attempts.push_back({rec.id, std::string(status_name(e.record.status)) + ": " + e.record.reason});
                continue;
            }
            const double ratio = out.best_us / *e.record.latency_us;
            if (ratio <= 1 + o.noise_threshold) {
                out.attempts.push_back({rec.id, fmt::format("not faster ({:.3f}x)", ratio)});
                continue;
            }
            auto refused = not_robust(runner, out.best, (*proposal)->files, o.noise_threshold);
            if (!refused) return refused.error();
            if (!refused->empty()) {
                out.attempts.push_back({rec.id, *refused});
                continue;
            }
            out.attempts.push_back({rec.id, fmt::format("accepted ({:.2f}x)", ratio)});
            out.accepted.push_back({rec.id, {rec.id}, rec.operator_name, (*proposal)->how, rec.family, out.best_us, *e.record.latency_us,
                                    (*proposal)->changed, unified_diff(out.best, (*proposal)->files)});
            out.best = (*proposal)->files;
            out.best_us = *e.record.latency_us;
            profile = e.record.metrics.value("profile", nlohmann::json::object());
            progress = true;
            break;  // re-diagnose the faster version before the next rewrite
        }
    }
    return out;
}

}  // namespace ascendopt
