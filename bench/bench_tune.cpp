// Stage II benchmark (not a test): for every bundled operator whose search space is small
// enough to enumerate, the exhaustive optimum against GA and random search at budget 60,
// and Stage II evaluations per second. Prints a table of measured latencies and ratios.
// usage: bench_tune [MAX_SPACE=48] [OPERATOR...]
#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/operator_source.h"
#include "search/space.h"
#include "search/tunables.h"
#include "util/files.h"
#include "util/subprocess.h"

using namespace ascendopt;

namespace {

nlohmann::json tune(const fs::path& op, const std::string& strategy, int budget, const fs::path& out, const fs::path& cache, double& seconds) {
    const ProcessResult r = run_process({ASCENDOPT_BENCH_BINARY, "tune", op.string(), "--strategy", strategy, "--budget", std::to_string(budget),
                                         "--out", out.string(), "--json", "-q"},
                                        {.env = {{"ASCENDOPT_CACHE_DIR", cache.string()}}, .timeout_seconds = 3600, .keep_bytes = size_t(8) << 20});
    seconds = r.wall_seconds;
    if (!r.succeeded()) {
        std::fprintf(stderr, "bench_tune: %s %s failed (%s)\n%s\n", op.string().c_str(), strategy.c_str(), r.describe_end().c_str(), r.output.c_str());
        return {};
    }
    return nlohmann::json::parse(r.output.substr(r.output.find('{')), nullptr, false);
}

}  // namespace

int main(int argc, char** argv) {
    const uint64_t max_space = argc > 1 ? std::stoull(argv[1]) : 48;
    std::vector<fs::path> ops;
    for (int i = 2; i < argc; ++i) ops.emplace_back(argv[i]);
    if (ops.empty())
        for (const auto& e : fs::directory_iterator(fs::path(ASCENDOPT_BENCH_SOURCE_DIR) / "ops"))
            if (e.is_directory()) ops.push_back(e.path());
    std::sort(ops.begin(), ops.end());
    const fs::path scratch = *make_temp_dir(fs::temp_directory_path(), "ascendopt-bench-tune");
    const fs::path cache = scratch / "cache";
    std::printf("%-20s %6s %12s %12s %12s %9s %9s %9s\n", "operator", "space", "baseline us", "exhaust. us", "GA-60 us", "GA/opt", "rnd/opt",
                "evals/s");
    int within = 0, compared = 0;
    double ga_sum = 0, rnd_sum = 0;
    for (const auto& op_dir : ops) {
        auto op = load_operator(op_dir);
        if (!op) continue;
        auto tunables = find_tunables(*op, 196608);
        if (!tunables || tunables->empty()) continue;
        const uint64_t size = SearchSpace(*tunables).size();
        if (size > max_space) {
            std::printf("%-20s %6llu   (space too large to enumerate; skipped)\n", op_dir.filename().c_str(), (unsigned long long)size);
            continue;
        }
        double t_ex = 0, t_ga = 0, t_rnd = 0;
        const auto ex = tune(op_dir, "exhaustive", int(size), scratch / (op_dir.filename().string() + "-ex"), cache, t_ex);
        const auto ga = tune(op_dir, "ga", 60, scratch / (op_dir.filename().string() + "-ga"), cache, t_ga);
        const auto rnd = tune(op_dir, "random", 60, scratch / (op_dir.filename().string() + "-rnd"), cache, t_rnd);
        if (ex.is_null() || ga.is_null() || rnd.is_null()) continue;
        const double opt = ex["best_latency"], g = ga["best_latency"], r = rnd["best_latency"];
        // Evaluations per second of the GA run, whose builds the exhaustive run had cached.
        const double rate = double(ga["evaluations"].get<int>()) / std::max(t_ga, 1e-9);
        std::printf("%-20s %6llu %12.3f %12.3f %12.3f %9.4f %9.4f %9.2f\n", op_dir.filename().c_str(), (unsigned long long)size,
                    ex.value("baseline_latency", 0.0), opt, g, g / opt, r / opt, rate);
        ++compared;
        within += g <= opt * 1.02;
        ga_sum += g / opt;
        rnd_sum += r / opt;
    }
    if (compared)
        std::printf("\nGA within 2%% of the exhaustive optimum on %d of %d operators; mean best/optimum: GA %.4f, random %.4f\n", within,
                    compared, ga_sum / compared, rnd_sum / compared);
    fs::remove_all(scratch);
    return 0;
}
