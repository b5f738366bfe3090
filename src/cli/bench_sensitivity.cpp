#include "cli/bench_sensitivity.h"

#include <iostream>
#include <algorithm>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "eval/soc_loader.h"
#include "study/sensitivity.h"
#include "util/files.h"
#include "util/parallel.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

// The method's final program of a job: Stage II writes tuned/<folder>, optimize (ascendopt,
// stage1) optimized/<folder>; a job with neither kept the published program.
std::optional<fs::path> final_program(const fs::path& job_dir, const StudyTarget& target) {
    for (const char* sub : {"optimized", "tuned"}) {
        const fs::path p = job_dir / sub / target.dir.filename();
        std::error_code ec;
        if (fs::is_directory(p, ec)) return p;
    }
    return std::nullopt;
}

void print_method(const std::string& method, const std::vector<OperatorSensitivity>& ops) {
    std::cout << fmt::format("\n{}: speedup over the published operator, nominal and median [min, max] over the variants\n", method);
    std::cout << fmt::format("  {:<28} {:>8} {:>8}   {:<20} {}\n", "operator", "nominal", "median", "[min, max]", "minimum at");
    for (const auto& o : ops)
        std::cout << fmt::format("  {:<28} {:>7.3f}x {:>7.3f}x   [{:.3f}, {:.3f}]{:<4} {}\n", o.op, o.nominal, o.median, o.min, o.max, "",
                                 o.min_at);
    const SensitivitySummary s = summarize(ops);
    std::cout << fmt::format("  GM {:.3f}x, robust GM (of the minima) {:.3f}x, GM without {} {:.3f}x\n", s.gm, s.robust_gm,
                             s.largest.empty() ? "the largest" : s.largest, s.gm_without_largest);
}

}  // namespace

int run_bench_sensitivity(const SensitivityRequest& request, const std::vector<StudyTarget>& targets, const StudyOutcome& study,
                          EvalSession& session) {
    const EvalOptions& base = session.evaluator->options();
    auto soc = load_soc_parameters(base.soc, session.toolchain.share_dir);
    if (!soc) {
        std::cerr << render_error(soc.error());
        return k_exit_bad_input;
    }
    const auto variants = sensitivity_variants(soc->doc, soc->parameters, request.samples, request.seed);
    std::map<std::string, const StudyTarget*> by_op;
    for (const auto& t : targets) by_op[t.op] = &t;
    size_t total = 0;
    for (const auto& [_, runs] : study.by_method) total += runs.size();
    if (!request.quiet) {
        size_t ends = 0;
        for (const auto& v : variants) ends += v.label.ends_with("=low") || v.label.ends_with("=high");
        std::cerr << fmt::format("sensitivity: {} SoC variants (nominal, {} ends of estimated ranges, {} samples) for {} jobs\n",
                                 variants.size(), ends, variants.size() - 1 - ends, total);
    }
    // Every program to re-time, once each: the published operators, then each job's final one.
    // A final program is a copy of the published one with the method's files, judged by the
    // published operator's cases (its manifest and goldens), as the study judged it.
    struct Program {
        fs::path dir;
        const StudyTarget* target = nullptr;
        bool is_final = false;
        std::vector<double> latencies;
        std::optional<Error> error;
    };
    std::vector<Program> programs;
    std::map<fs::path, size_t> index;
    auto program = [&](const fs::path& dir, const StudyTarget* target, bool is_final) {
        auto [it, fresh] = index.try_emplace(dir, programs.size());
        if (fresh) programs.push_back({dir, target, is_final, {}, {}});
        return it->second;
    };
    struct Job {
        std::string method;
        const MethodRun* run;
        size_t published, final;
    };
    std::vector<Job> jobs;
    for (const auto& [method, runs] : study.by_method)
        for (const MethodRun& run : runs) {
            const StudyTarget* target = by_op.count(run.op) ? by_op[run.op] : nullptr;
            if (!target || run.detail.contains("error")) continue;  // a failed job has no final program
            const size_t published = program(target->dir, target, false);
            const auto final_dir = final_program(study_job_dir(request.out, method, run.seed, request.several_seeds, run.op), *target);
            jobs.push_back({method, &run, published, final_dir ? program(*final_dir, target, true) : published});
        }
    std::mutex mutex;
    size_t timed = 0;
    for_each_parallel(programs.size(), request.parallel, [&](size_t i) {
        Result<std::vector<double>> l = make_error("not loaded");
        auto published = load_operator(programs[i].target->dir);
        if (!published) l = published.error();
        else if (!programs[i].is_final) l = retime(*published, variants, *session.evaluator);
        else if (auto final = load_copy_of(programs[i].dir, *published); !final) l = final.error();
        else l = retime(*final, variants, *session.evaluator);
        std::lock_guard lock(mutex);
        if (l) programs[i].latencies = std::move(*l);
        else programs[i].error = l.error();
        if (!request.quiet) std::cerr << fmt::format("sensitivity: {}/{} programs re-timed\n", ++timed, programs.size());
    });
    for (const auto& p : programs)
        if (p.error) {
            std::cerr << render_error(*p.error);
            return exit_code_for(*p.error);
        }
    std::vector<std::pair<std::string, std::vector<PairSensitivity>>> by_method;
    for (const auto& [method, _] : study.by_method) by_method.emplace_back(method, std::vector<PairSensitivity>{});
    for (const Job& j : jobs) {
        auto& pairs = std::find_if(by_method.begin(), by_method.end(), [&](const auto& m) { return m.first == j.method; })->second;
        PairSensitivity p{j.method, j.run->op, j.run->seed, std::vector<double>(variants.size(), 1.0)};
        if (j.final != j.published)
            for (size_t i = 0; i < variants.size(); ++i) p.speedups[i] = programs[j.published].latencies[i] / programs[j.final].latencies[i];
        pairs.push_back(std::move(p));
    }
    const auto doc = sensitivity_json(variants, by_method);
    if (auto w = write_atomic(request.out / "sensitivity.json", doc.dump(2) + "\n"); !w) return k_exit_environment;
    if (!request.print_table) return k_exit_ok;
    for (const auto& [method, pairs] : by_method) print_method(method, per_operator(pairs, variants));
    std::cout << "sensitivity: " << (fs::absolute(request.out) / "sensitivity.json").string() << "\n";
    return k_exit_ok;
}

}  // namespace ascendopt
