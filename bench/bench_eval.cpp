// Evaluation speed benchmark (not a test): prints measured times and their ratio to the
// targets of the foundation issue.
//   1. first build ever: empty cache, so it includes precompiling the twin headers;
//   2. cold build of one operator: empty build cache for the operator, twin PCH present;
//   3. cached re-evaluation of the 1M-element fp16 perf case (median of 7 runs);
//   4. the operator run of that case with the timing model against a functional-only run
//      (--no-timing), median of 7 each, measured inside ascendopt (run_seconds);
//   5. the same run with the hazard checker (--races=note, the default) against --races=off,
//      median of 7 each, alternating.
// usage: bench_eval [SOURCE_DIR]   (defaults to the source tree it was built from)
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/files.h"
#include "util/subprocess.h"

using namespace ascendopt;

namespace {

ProcessResult run_full(const std::vector<std::string>& args, const fs::path& cache, const fs::path& cwd) {
    std::vector<std::string> argv = {ASCENDOPT_BENCH_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    const ProcessResult r = run_process(argv, {.cwd = cwd, .env = {{"ASCENDOPT_CACHE_DIR", cache.string()}}, .timeout_seconds = 600,
                                                            .keep_bytes = size_t(64) << 20});
    if (!r.succeeded()) {
        std::fprintf(stderr, "bench_eval: ascendopt failed (%s):\n%s\n", r.describe_end().c_str(), r.output.c_str());
        std::exit(1);
    }
    return r;
}

double run(const std::vector<std::string>& args, const fs::path& cache, const fs::path& cwd) {
    return run_full(args, cache, cwd).wall_seconds;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Seconds the operator process ran, as ascendopt reports it in --json.
double operator_run_seconds(std::vector<std::string> args, const fs::path& cache, const fs::path& cwd) {
    args.push_back("--json");
    const ProcessResult r = run_full(args, cache, cwd);
    const auto doc = nlohmann::json::parse(r.output.substr(r.output.find('{')));
    return doc["cases"][0]["run_seconds"].get<double>();
}

void report(const char* what, double seconds, double target) {
    std::printf("%-58s %8.3f s   target %5.1f s   %5.2fx of target  %s\n", what, seconds, target, seconds / target,
                seconds <= target ? "ok" : "OVER");
}

}  // namespace

int main(int argc, char** argv) {
    const fs::path src = argc > 1 ? fs::path(argv[1]) : fs::path(ASCENDOPT_BENCH_SOURCE_DIR);
    const fs::path scratch = *make_temp_dir(fs::temp_directory_path(), "ascendopt-bench");
    const fs::path cache = scratch / "cache";
    const std::vector<std::string> perf_case = {"--case", "Test_AddCustom_perf", "-q"};

    // Two private copies of add_custom that differ in a comment, so each has its own build.
    for (const char* name : {"first", "second"}) {
        fs::copy(src / "ops" / "add_custom", scratch / name, fs::copy_options::recursive);
        std::ofstream(scratch / name / "op_kernel" / "add_custom.cpp", std::ios::app) << "// bench copy " << name << "\n";
    }
    auto eval = [&](const char* name) {
        std::vector<std::string> a = {"eval", (scratch / name).string()};
        a.insert(a.end(), perf_case.begin(), perf_case.end());
        return a;
    };
    std::printf("ascendopt eval timings (sim backend, add_custom, 1M-element fp16 perf case)\n");
    report("first build ever (includes precompiling twin headers)", run(eval("first"), cache, src), 10.0);
    report("cold build of one operator (twin PCH present)", run(eval("second"), cache, src), 10.0);
    std::vector<double> cached;
    for (int i = 0; i < 7; ++i) cached.push_back(run(eval("second"), cache, src));
    std::sort(cached.begin(), cached.end());
    report("cached re-evaluation, median of 7", cached[3], 0.5);
    std::printf("(min %.3f s, max %.3f s of the cached runs)\n", cached.front(), cached.back());

    std::vector<double> timed, functional, unchecked;
    for (int i = 0; i < 7; ++i) {
        timed.push_back(operator_run_seconds(eval("second"), cache, src));
        auto f = eval("second");
        f.push_back("--no-timing");
        functional.push_back(operator_run_seconds(f, cache, src));
        auto off = eval("second");
        off.insert(off.end(), {"--races", "off"});
        unchecked.push_back(operator_run_seconds(off, cache, src));
    }
    const double t = median(timed), f = median(functional);
    report("operator run with the timing model (median of 7)", t, 1.0);
    std::printf("%-58s %8.3f s\n", "operator run, functional only (--no-timing, median of 7)", f);
    std::printf("%-58s %8.2fx  target  3.0x                     %s\n", "simulation cost relative to the functional run", t / f,
                t / f <= 3.0 ? "ok" : "OVER");
    const double u = median(unchecked);
    std::printf("%-58s %8.3f s\n", "operator run without the hazard checker (--races=off)", u);
    std::printf("%-58s %8.2fx\n", "hazard checker cost (default run / --races=off)", t / u);
    fs::remove_all(scratch);
    return 0;
}
