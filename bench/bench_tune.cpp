// Stage II benchmark (not a test). Prints measured figures, three parts:
//  1. throughput: evaluations per second of `tune` on exp_custom (a 1M-element fp16 perf case
//     plus 8 check cases), with every kernel build already cached;
//  2. for every bundled operator whose space has at most --max-space configurations: the
//     exhaustive optimum against the best GA and random search find at --budget;
//  3. GA against random search at equal budget on every bundled operator, over --seeds seeds:
//     the ratio of the best latencies found (above 1: GA found faster configurations).
// usage: bench_tune [--throughput-only] [--max-space N=200] [--budget N=60] [--seeds N=3] [OPERATOR...]
#include <cmath>
#include <cstdio>
#include <cstring>
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

struct Settings {
    uint64_t max_space = 200;
    int budget = 60;
    int seeds = 3;
    bool throughput_only = false;
    std::vector<fs::path> ops;
};

struct Bench {
    fs::path scratch = *make_temp_dir(fs::temp_directory_path(), "ascendopt-bench-tune");
    fs::path cache = scratch / "cache";
    int runs = 0;
    ~Bench() { fs::remove_all(scratch); }

    // One `ascendopt tune` run; the summary JSON, or null (reported) when it failed.
    nlohmann::json tune(const fs::path& op, const std::string& strategy, int budget, int seed, bool sandboxed = true) {
        const fs::path out = scratch / ("run-" + std::to_string(runs++));
        std::vector<std::string> argv = {ASCENDOPT_BENCH_BINARY, "tune", op.string(), "--strategy", strategy, "--budget", std::to_string(budget),
                                         "--search-seed", std::to_string(seed), "--out", out.string(), "--json", "-q"};
        if (!sandboxed) argv.push_back("--unsandboxed");
        const ProcessResult r = run_process(argv,
                                            {.env = {{"ASCENDOPT_CACHE_DIR", cache.string()}}, .timeout_seconds = 3600, .keep_bytes = size_t(8) << 20});
        fs::remove_all(out);
        if (!r.succeeded()) {
            std::fprintf(stderr, "bench_tune: %s %s failed (%s)\n%s\n", op.string().c_str(), strategy.c_str(), r.describe_end().c_str(), r.output.c_str());
            return {};
        }
        return nlohmann::json::parse(r.output.substr(r.output.find('{')), nullptr, false);
    }
};

Settings parse(int argc, char** argv) {
    Settings s;
    for (int i = 1; i < argc; ++i) {
        auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string("0"); };
        if (!std::strcmp(argv[i], "--max-space")) s.max_space = std::stoull(next());
        else if (!std::strcmp(argv[i], "--budget")) s.budget = std::stoi(next());
        else if (!std::strcmp(argv[i], "--seeds")) s.seeds = std::stoi(next());
        else if (!std::strcmp(argv[i], "--throughput-only")) s.throughput_only = true;
        else s.ops.emplace_back(argv[i]);
    }
    if (s.ops.empty())
        for (const auto& e : fs::directory_iterator(fs::path(ASCENDOPT_BENCH_SOURCE_DIR) / "ops"))
            if (e.is_directory()) s.ops.push_back(e.path());
    std::sort(s.ops.begin(), s.ops.end());
    return s;
}

uint64_t space_size(const fs::path& dir) {
    auto op = load_operator(dir);
    if (!op) return 0;
    auto tunables = find_tunables(*op, 196608);
    return tunables && !tunables->empty() ? SearchSpace(*tunables).size() : 0;
}

void throughput(Bench& b) {
    const fs::path op = fs::path(ASCENDOPT_BENCH_SOURCE_DIR) / "ops" / "exp_custom";
    b.tune(op, "exhaustive", 1000, 0);  // builds every kernel configuration and the goldens once
    std::printf("Stage II throughput, exp_custom (1M-element fp16 perf case + 8 check cases), builds cached,\n"
                "whole tune runs (start-up included), sandboxed and unsandboxed side by side:\n");
    double rate[2] = {0, 0};
    for (int round = 0; round < 2; ++round)
        for (const bool sandboxed : {true, false}) {
            const auto run = b.tune(op, "random", 40, 1 + round, sandboxed);
            if (run.is_null()) return;
            const double seconds = run["seconds"];
            const double r = run["evaluations"].get<int>() / seconds;
            rate[sandboxed] = std::max(rate[sandboxed], r);
            std::printf("  %-12s %d evaluations + %d preflight rejections in %.2f s = %.2f evaluations/s\n",
                        sandboxed ? "sandboxed" : "unsandboxed", run["evaluations"].get<int>(), run["rejected_by_preflight"].get<int>(), seconds, r);
        }
    std::printf("  best of two: sandboxed %.2f/s, unsandboxed %.2f/s (ratio %.2f)\n\n", rate[1], rate[0], rate[1] / rate[0]);
}

void against_exhaustive(Bench& b, const Settings& s) {
    std::printf("Exhaustive optimum against GA and random search at budget %d (seed 0):\n", s.budget);
    std::printf("%-20s %6s %12s %12s %12s %9s %9s\n", "operator", "space", "baseline us", "exhaust. us", "GA us", "GA/opt", "rnd/opt");
    int within = 0, compared = 0;
    for (const auto& op : s.ops) {
        const uint64_t size = space_size(op);
        if (size == 0 || size > s.max_space) continue;
        const auto ex = b.tune(op, "exhaustive", int(size), 0);
        const auto ga = b.tune(op, "ga", s.budget, 0);
        const auto rnd = b.tune(op, "random", s.budget, 0);
        if (ex.is_null() || ga.is_null() || rnd.is_null()) continue;
        const double opt = ex["best_latency"], g = ga["best_latency"], r = rnd["best_latency"];
        std::printf("%-20s %6llu %12.3f %12.3f %12.3f %9.4f %9.4f\n", op.filename().c_str(), (unsigned long long)size,
                    ex.value("baseline_latency", 0.0), opt, g, g / opt, r / opt);
        ++compared;
        within += g <= opt * 1.02;
    }
    std::printf("GA within 2%% of the exhaustive optimum on %d of %d operators\n\n", within, compared);
}

void ga_against_random(Bench& b, const Settings& s) {
    std::printf("GA against random search, budget %d, mean over %d seeds (ratio = random best / GA best):\n", s.budget, s.seeds);
    std::printf("%-20s %6s %12s %12s %12s %8s\n", "operator", "space", "baseline us", "GA us", "random us", "ratio");
    double log_sum = 0;
    int n = 0;
    for (const auto& op : s.ops) {
        const uint64_t size = space_size(op);
        if (size == 0) continue;
        double ga_sum = 0, rnd_sum = 0, base = 0;
        int ok = 0;
        for (int seed = 0; seed < s.seeds; ++seed) {
            const auto ga = b.tune(op, "ga", s.budget, seed);
            const auto rnd = b.tune(op, "random", s.budget, seed);
            if (ga.is_null() || rnd.is_null()) continue;
            ga_sum += ga["best_latency"].get<double>();
            rnd_sum += rnd["best_latency"].get<double>();
            base = ga.value("baseline_latency", 0.0);
            ++ok;
        }
        if (ok == 0) continue;
        const double ratio = rnd_sum / ga_sum;
        std::printf("%-20s %6llu %12.3f %12.3f %12.3f %8.4f\n", op.filename().c_str(), (unsigned long long)size, base, ga_sum / ok,
                    rnd_sum / ok, ratio);
        log_sum += std::log(ratio);
        ++n;
    }
    if (n) std::printf("geometric mean of random/GA over %d operators: %.4f\n", n, std::exp(log_sum / n));
}

}  // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // rows appear as they are measured
    const Settings s = parse(argc, argv);
    Bench b;
    throughput(b);
    if (s.throughput_only) return 0;
    against_exhaustive(b, s);
    ga_against_random(b, s);
    return 0;
}
