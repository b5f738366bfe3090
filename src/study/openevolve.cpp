#include "study/openevolve.h"

#include <algorithm>

#include <fmt/format.h>

#include "agent/edit_apply.h"
#include "agent/hunks.h"
#include "agent/prompts.h"

namespace ascendopt {
namespace {

size_t changed_lines(const CandidateFiles& start, const CandidateFiles& files) {
    auto hunks = diff_hunks(start, files);
    if (!hunks) return 0;
    size_t n = 0;
    for (const auto& h : *hunks) {
        const std::string removed = h.removed(), added = h.added();
        n += size_t(std::count(removed.begin(), removed.end(), '\n') + std::count(added.begin(), added.end(), '\n'));
    }
    return n;
}

// The pipe bounding the slowest core in the evaluation's profile ("" when not profiled).
std::string bottleneck_pipe(const Evaluated& e) {
    return e.record.metrics.value("profile", nlohmann::json::object()).value("bound", nlohmann::json::object()).value("pipe", "");
}

std::string render_inspirations(const ProgramDatabase& db, size_t parent, const std::vector<size_t>& picks) {
    if (picks.empty()) return "(none yet)\n";
    std::string out;
    for (size_t i : picks) {
        const Program& p = db.program(i);
        const std::string diff = unified_diff(db.program(parent).files, p.files);
        out += fmt::format("Program {} ({:.3f} us):\n```diff\n{}```\n\n", i, p.latency_us, diff.empty() ? "(no difference)\n" : diff);
    }
    return out;
}

}  // namespace

Result<MethodRun> run_openevolve(const OperatorSource& op, MethodContext& c, const EvolveConfig& config) {
    auto search = start_llm_search("openevolve", op, c, {{"islands", config.islands}, {"migration_interval", config.migration_interval}});
    if (!search) return search.error();
    LlmSearch& s = **search;
    CandidateRunner& runner = s.runner();
    const CandidateFiles& start = s.files;
    const double baseline = s.baseline_us();
    ProgramDatabase db(config, c.search_seed);
    db.seed({start, baseline, bottleneck_pipe(s.base), 0, std::nullopt, 0});

    int64_t calls = 0, unusable = 0, failed = 0, migrations = 0, last_migration = 0;
    const int64_t max_calls = c.budget * config.calls_per_evaluation;
    for (size_t step = 0; runner.ledger().budget().used() < c.budget && calls < max_calls; ++step) {
        const size_t island = step % db.islands();
        const size_t parent = db.sample_parent(island);
        const Program& p = db.program(parent);
        const auto picks = db.inspirations(island, parent);
        auto request = make_request(*c.templates, "evolve",
                                    {{"operator", op.display_name()}, {"soc", c.evaluator.options().soc}, {"latency", fmt::format("{:.3f} us (simulated)", p.latency_us)},
                                     {"bottleneck", p.bottleneck.empty() ? std::string("(not profiled)") : "bound by " + p.bottleneck},
                                     {"inspirations", render_inspirations(db, parent, picks)}, {"files", render_files(p.files)}},
                                    c.params, "openevolve");
        if (!request) return request.error();
        ++calls;
        auto reply = s.proposer->propose(*request);
        if (!reply) {
            ++unusable;
            continue;
        }
        const AppliedReply applied = apply_reply(reply->text, p.files);
        if (!applied.ok()) {
            ++unusable;
            continue;
        }
        auto evaluated = runner.evaluate(applied.files);
        if (!evaluated) return evaluated.error();
        if (!*evaluated) break;
        const Evaluated& e = **evaluated;
        if (!e.ok()) {
            ++failed;
        } else {
            db.add({applied.files, *e.record.latency_us, bottleneck_pipe(e), changed_lines(start, applied.files), parent, island}, island);
        }
        const int64_t used = runner.ledger().budget().used();
        if (used - last_migration >= config.migration_interval) {
            migrations += db.migrate() > 0 ? 1 : 0;
            last_migration = used;
        }
    }
    auto latencies = s.store->latencies(s.run);
    if (!latencies) return latencies.error();
    const Program& best = db.program(db.best());
    nlohmann::json detail = {{"llm_calls", calls},
                             {"unusable_replies", unusable},
                             {"incorrect_children", failed},
                             {"migrations", migrations},
                             {"best_us", best.latency_us},
                             {"best_diff", unified_diff(start, best.files)},
                             {"database", db.to_json()},
                             {"config",
                              {{"islands", config.islands},
                               {"exploitation", config.exploitation},
                               {"exploration", config.exploration},
                               {"elite_pool", config.elite_pool},
                               {"inspirations", config.inspirations},
                               {"migration_interval", config.migration_interval}}}};
    return MethodRun{"openevolve", op.display_name(), baseline, std::move(*latencies), std::move(detail)};
}

}  // namespace ascendopt
