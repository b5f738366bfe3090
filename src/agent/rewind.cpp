#include "agent/rewind.h"

#include <fmt/format.h>

#include "agent/deopt.h"
#include "agent/describe.h"
#include "agent/hunks.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

std::string name_of(const std::vector<const Hunk*>& group) {
    std::string out;
    for (const Hunk* h : group) out += (out.empty() ? "" : "+") + h->file + "@" + std::to_string(h->new_start);
    return out;
}

ExperienceRecord make_record(const std::vector<const Hunk*>& group, const Evaluated& slow, const Evaluated& fast, const std::string& op,
                             const RewindOptions& o) {
    std::string removed, added, diff;
    for (const Hunk* h : group) removed += h->removed(), added += h->added(), diff += h->text;
    ExperienceRecord r = describe_change(group.front()->file, removed, added);
    r.operator_name = op;
    r.title += " (" + op + ")";
    r.diff = diff;
    r.slow_latency_us = *slow.record.latency_us;
    r.fast_latency_us = *fast.record.latency_us;
    r.profile_before = slow.record.metrics.value("profile", nlohmann::json::object());
    r.profile_after = fast.record.metrics.value("profile", nlohmann::json::object());
    r.bottleneck = bottleneck_of(r.profile_before);
    r.soc = o.soc;
    r.backend = "sim";
    r.provenance = nlohmann::json::array({{{"source", "offline-rewind"},
                                           {"run", o.run},
                                           {"slow_candidate", slow.hash},
                                           {"fast_candidate", fast.hash},
                                           {"hunks", name_of(group)}}});
    return r;
}

}  // namespace

std::string record_outcome(int64_t record, double ratio, bool merged) {
    return fmt::format("record #{} ({:.2f}x){}", record, ratio, merged ? ", merged" : "");
}

RewindStep record_step(std::string hunks, const Bank::Put& put, double ratio) {
    return {std::move(hunks), record_outcome(put.id, ratio, put.merged), put.id, ratio, put.merged};
}

std::vector<fs::path> rewind_pairs(const fs::path& suite) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(suite, ec))
        if (e.is_directory() && fs::is_directory(e.path() / "baseline")) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

Result<RewindReport> rewind_pair(CandidateRunner& runner, const OperatorSource& baseline, Bank& bank, const RewindOptions& o) {
    RewindReport report;
    report.op = runner.original().display_name();
    auto baseline_files = read_candidate_files(baseline);
    if (!baseline_files) return baseline_files.error();
    auto strong = runner.measure_original();
    if (!strong) return strong.error();
    const CandidateFiles& strong_files = strong->files;
    auto hunks = diff_hunks(*baseline_files, strong_files);
    if (!hunks) return hunks.error();
    report.strong_latency_us = strong->latency_us();

    for (size_t i = 0; i < hunks->size(); ++i) {
        std::vector<const Hunk*> group = {&(*hunks)[i]};
        for (;;) {
            auto reverted = runner.evaluate(revert_hunks(strong_files, group));
            if (!reverted) return reverted.error();
            if (!*reverted) {
                report.steps.push_back({name_of(group), "budget spent"});
                return report;
            }
            const Evaluated& slow = **reverted;
            const bool can_grow = i + 1 < hunks->size() && (*hunks)[i + 1].file == group.back()->file && group.size() == 1;
            if (!slow.ok()) {
                if (can_grow) {  // the hunk needs its neighbour to build or pass: try the pair
                    group.push_back(&(*hunks)[++i]);
                    continue;
                }
                report.steps.push_back({name_of(group), std::string(status_name(slow.record.status)) + ": " + slow.record.reason});
                break;
            }
            const double ratio = *slow.record.latency_us / report.strong_latency_us;
            if (ratio <= 1 + o.noise_threshold) {
                report.steps.push_back({name_of(group), fmt::format("not slower ({:.3f}x)", ratio)});
                break;
            }
            auto put = bank.put(make_record(group, slow, strong->evaluated, report.op, o));
            if (!put) return put.error();
            report.records.push_back(put->id);
            report.steps.push_back(record_step(name_of(group), *put, ratio));
            break;
        }
    }
    return report;
}

namespace {

// The record of a de-optimization that hurt: the change text is described like a pair's, the
// family is the rule's, and the provenance names the rule.
Result<ExperienceRecord> rule_record(const Deoptimization& rule, const CandidateFiles& slow_files, const CandidateFiles& fast_files,
                                     const Evaluated& slow, const Evaluated& fast, const std::string& op, const RewindOptions& o) {
    auto hunks = diff_hunks(slow_files, fast_files);
    if (!hunks) return hunks.error();
    if (hunks->empty()) return make_error("the " + rule.name + " rule changed nothing in " + op);
    std::vector<const Hunk*> group;
    for (const auto& h : *hunks) group.push_back(&h);
    ExperienceRecord r = make_record(group, slow, fast, op, o);
    r.family = rule.family;
    r.title = "Restore " + rule.undoes + " (" + op + ")";
    r.provenance[0]["source"] = "rule-rewind";
    r.provenance[0]["rule"] = rule.name;
    return r;
}

}  // namespace

Result<RewindReport> rewind_by_rules(CandidateRunner& runner, Bank& bank, const RewindOptions& o) {
    RewindReport report;
    report.op = runner.original().display_name();
    auto strong = runner.measure_original();
    if (!strong) return strong.error();
    report.strong_latency_us = strong->latency_us();
    CandidateFiles current = std::move(strong->files);
    Evaluated current_eval = std::move(strong->evaluated);
    for (const Deoptimization& rule : deoptimizations()) {
        auto slow_files = rule.apply(current);
        if (!slow_files) {
            report.steps.push_back({rule.name, "does not apply"});
            continue;
        }
        auto slow = runner.evaluate(*slow_files);
        if (!slow) return slow.error();
        if (!*slow) {
            report.steps.push_back({rule.name, "budget spent"});
            return report;
        }
        if (!(*slow)->ok()) {
            report.steps.push_back({rule.name, std::string(status_name((*slow)->record.status)) + ": " + (*slow)->record.reason});
            continue;
        }
        const double ratio = *(*slow)->record.latency_us / *current_eval.record.latency_us;
        if (ratio <= 1 + o.noise_threshold) {
            report.steps.push_back({rule.name, fmt::format("not slower ({:.3f}x)", ratio)});
            continue;
        }
        auto record = rule_record(rule, *slow_files, current, **slow, current_eval, report.op, o);
        if (!record) return record.error();
        auto put = bank.put(*record);
        if (!put) return put.error();
        report.records.push_back(put->id);
        report.steps.push_back(record_step(rule.name, *put, ratio));
        current = std::move(*slow_files);  // the chained trajectory goes on from the slower version
        current_eval = **slow;
    }
    return report;
}

}  // namespace ascendopt
