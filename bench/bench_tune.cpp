// Stage II benchmark (not a test). Prints measured figures, three parts:
//  1. throughput: evaluations per second of `tune` on exp_custom (a 1M-element fp16 perf case
//     plus 8 check cases), with every kernel build and golden already cached, two ways side by
//     side: every evaluation run (--no-replay), and with the shared cache, where the warm-up run
//     stored every configuration's evaluation and later runs replay them (the eval memo);
//  2. for every bundled operator whose space has at most --max-space configurations: the
//     exhaustive optimum against the best GA and random search find at --budget;
//  3. GA against random search at equal budget on every bundled operator, over --seeds seeds:
//     the ratio of the best latencies found (above 1: GA found faster configurations).
// usage: bench_tune [--throughput-only] [--max-space N=200] [--budget N=60] [--seeds N=3] [OPERATOR...]
#include <cstdlib>
#include <iostream>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
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

    // One `ascendopt tune` run; the summary JSON, or null (reported) when it failed. Without
    // `replay`, every evaluation runs even when the cache holds an identical one.
    nlohmann::json tune(const fs::path& op, const std::string& strategy, int budget, int seed, bool sandboxed = true, bool replay = true) {
        const fs::path out = scratch / ("run-" + std::to_string(runs++));
        std::vector<std::string> argv = {ASCENDOPT_BENCH_BINARY, "tune", op.string(), "--strategy", strategy, "--budget", std::to_string(budget),
                                         "--search-seed", std::to_string(seed), "--out", out.string(), "--json", "-q"};
        if (!sandboxed) argv.push_back("--unsandboxed");
        if (!replay) argv.push_back("--no-replay");
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
        else if (argv[i][0] == '-') {
            std::cerr << "usage: bench_tune [--throughput-only] [--budget N] [--seeds N] [--max-space N] [OPERATOR_DIR...]\n";
            std::exit(std::strcmp(argv[i], "--help") ? 2 : 0);
        } else s.ops.emplace_back(argv[i]);
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

// What one tune run measured.
struct Throughput {
    int evaluations = 0, replayed = 0, rejected = 0;
    double seconds = 0;
    double per_second() const { return seconds > 0 ? evaluations / seconds : 0; }
};

std::optional<Throughput> measure(Bench& b, const fs::path& op, int seed, bool sandboxed, bool replay) {
    const auto run = b.tune(op, "random", 40, seed, sandboxed, replay);
    if (run.is_null()) return std::nullopt;
    return Throughput{run.value("evaluations", 0), run.value("replayed", 0), run.value("rejected_by_preflight", 0), run.value("seconds", 0.0)};
}

std::string cell(const Throughput& t) {
    char text[128];
    std::snprintf(text, sizeof text, "%6.2f/s (%d in %.2f s; %d replayed, %d rejected)", t.per_second(), t.evaluations, t.seconds, t.replayed,
                  t.rejected);
    return text;
}

// Evaluations per second two ways, side by side: every evaluation run, and replayed from the
// cache the runs share. The warm-up runs evaluate every configuration once per setting, so the
// later runs' configurations are all in the cache: the second figure is what a search gets when
// another method, seed or run already measured what it proposes, the first what a fresh one
// gets. "rejected": configurations a preflight ruled out before any evaluation.
void throughput(Bench& b) {
    const fs::path op = fs::path(ASCENDOPT_BENCH_SOURCE_DIR) / "ops" / "exp_custom";
    // Builds every kernel configuration and the goldens once and stores every evaluation, for
    // either setting (whether a run is sandboxed is part of what identifies an evaluation).
    for (const bool sandboxed : {true, false}) b.tune(op, "exhaustive", 1000, 0, sandboxed);
    std::printf("Stage II throughput, exp_custom (1M-element fp16 perf case + 8 check cases), kernel builds and goldens cached,\n"
                "whole tune runs of random search at budget 40 (start-up included), evaluations per second:\n");
    std::printf("  %-12s %-48s %s\n", "", "every evaluation run (--no-replay)", "shared cache (stored evaluations replayed)");
    double best[2][2] = {{0, 0}, {0, 0}};  // [sandboxed][replay]
    for (int round = 0; round < 2; ++round)
        for (const bool sandboxed : {true, false}) {
            const auto ran = measure(b, op, 1 + round, sandboxed, false);
            const auto replayed = measure(b, op, 1 + round, sandboxed, true);
            if (!ran || !replayed) return;
            best[sandboxed][0] = std::max(best[sandboxed][0], ran->per_second());
            best[sandboxed][1] = std::max(best[sandboxed][1], replayed->per_second());
            std::printf("  %-12s %-48s %s\n", sandboxed ? "sandboxed" : "unsandboxed", cell(*ran).c_str(), cell(*replayed).c_str());
        }
    std::printf("  best of two, every evaluation run: sandboxed %.2f/s, unsandboxed %.2f/s (ratio %.2f)\n", best[1][0], best[0][0],
                best[1][0] / best[0][0]);
    std::printf("  best of two, shared cache:         sandboxed %.2f/s, unsandboxed %.2f/s (ratio %.2f)\n\n", best[1][1], best[0][1],
                best[1][1] / best[0][1]);
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
