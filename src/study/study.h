// The study as a whole (`ascendopt bench`): every method on every target at the same budget,
// once per study seed, as jobs (method, seed, operator) with a folder each:
// <out>/<method>/<operator>/ with one seed, <out>/<method>/seed-<s>/<operator>/ with several. A job writes its
// result.json when done, so a rerun reads finished jobs back and resumes the others from their
// run stores. Jobs run `parallel` at a time; results are filed by (method, operator), never by
// the order jobs finished. A job that fails is filed as finding nothing, with the error, and is
// not saved, so the next run retries it; a missing tool stops the study (every job would fail).
// One process writes a job's folder at a time (a lock file in it): a job that another process
// is running is reported as failed here and left to that process.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "study/methods.h"
#include "study/suite.h"

namespace ascendopt {

struct StudyJob {
    const MethodInfo* method = nullptr;
    const StudyTarget* target = nullptr;
    uint64_t seed = 0;
    std::filesystem::path dir;
};

struct StudyPlan {
    std::vector<const MethodInfo*> methods;
    std::vector<StudyTarget> targets;
    std::filesystem::path out;
    int64_t budget = 0;
    int64_t rewind_share = 0;
    std::filesystem::path bank;  // empty: none
    int parallel = 1;
    // The study seeds: each method runs on each target once per seed, drawing its random
    // choices and its cases' inputs from it (EvalRequest::input_seed).
    std::vector<uint64_t> seeds = {0};
    // Gives a job that uses an LLM its proposer, templates and parameters (the caller knows the
    // configuration); empty: no LLM.
    std::function<Status(const StudyJob&, MethodContext&)> attach_llm;
    // Told each finished job: how many are done of how many, the run, seconds since the start.
    std::function<void(size_t done, size_t total, const MethodRun&, double seconds)> on_done;
    // The jobs this process may run (by study_job_key); empty: all. A job it may not run is read
    // back when another process finished it, else filed as failed with `not_run_reason` (a
    // cluster task runs one job; the parent that merges the cluster's results runs none).
    std::optional<std::set<std::string>> runs_only;
    std::string not_run_reason = "not run by this process";
};

struct StudyOutcome {
    // Per method (in plan order), its runs in seed order, each seed's in target order.
    std::vector<std::pair<std::string, std::vector<MethodRun>>> by_method;
    std::vector<std::string> failures;  // "method on operator: why"
};

Result<StudyOutcome> run_study(const StudyPlan& plan, Evaluator& evaluator);

// Every job of the plan, in filing order (method, seed, target).
std::vector<StudyJob> study_jobs(const StudyPlan& plan);
// A job's name within the study, stable across processes: its folder relative to plan.out
// ("stage2/exp_custom", "stage2/seed-1/exp_custom").
std::string study_job_key(const StudyPlan& plan, const StudyJob& job);
// Whether the job finished before (its result.json reads back).
bool study_job_finished(const StudyJob& job);

// A job's folder: <out>/<method>/<op> with one study seed, <out>/<method>/seed-<s>/<op> with several.
std::filesystem::path study_job_dir(const std::filesystem::path& out, const std::string& method, uint64_t seed, bool several_seeds,
                                    const std::string& op);

}  // namespace ascendopt
