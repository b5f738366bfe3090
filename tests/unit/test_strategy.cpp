// Stage II strategies on a synthetic objective: coverage, no repeats, determinism, and the
// genetic algorithm's ability to find the optimum within a small budget.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "search/strategy.h"

using namespace ascendopt;

namespace {

SearchSpace synthetic_space() {
    auto t = [](const char* name, int64_t value, std::vector<int64_t> domain) {
        Tunable x;
        x.name = name;
        x.value = value;
        x.domain = std::move(domain);
        return x;
    };
    return SearchSpace({t("TILE", 1024, {128, 256, 512, 1024, 2048, 4096, 8192}), t("BUFS", 1, {1, 2, 3, 4}),
                        t("CORES", 8, {1, 2, 4, 8, 16, 32, 48})});
}

// A smooth, multi-dimensional latency with its minimum at TILE=4096, BUFS=2, CORES=32.
double latency(const TilingConfig& c) {
    const double tile = std::log2(double(c.at("TILE"))) - 12, cores = std::log2(double(c.at("CORES"))) - 5;
    const double bufs = double(c.at("BUFS")) - 2;
    return 100 + 9 * tile * tile + 5 * bufs * bufs + 3 * cores * cores + 2 * tile * cores;
}

// Runs a strategy for `budget` evaluations in batches of `batch`; returns the best latency and all proposals.
std::pair<double, std::vector<TilingConfig>> drive(Strategy& s, size_t budget, size_t batch) {
    double best = INFINITY;
    std::vector<TilingConfig> proposed;
    while (proposed.size() < budget) {
        auto configs = s.ask(std::min(batch, budget - proposed.size()));
        if (configs.empty()) break;
        std::vector<Trial> results;
        for (auto& c : configs) {
            results.push_back({c, EvalStatus::ok, latency(c)});
            best = std::min(best, latency(c));
            proposed.push_back(c);
        }
        s.tell(results);
    }
    return {best, proposed};
}

}  // namespace

TEST(Strategy, ExhaustiveCoversTheSpaceOnce) {
    const auto space = synthetic_space();
    auto s = make_strategy("exhaustive", space, 0);
    ASSERT_TRUE(s);
    auto [best, proposed] = drive(**s, 10000, 16);
    EXPECT_EQ(proposed.size(), space.size());
    EXPECT_EQ(std::set<TilingConfig>(proposed.begin(), proposed.end()).size(), space.size());
    EXPECT_EQ(best, 100);
}

TEST(Strategy, RandomStartsFromTheOriginalAndNeverRepeats) {
    const auto space = synthetic_space();
    auto s = make_strategy("random", space, 3);
    auto [best, proposed] = drive(**s, 150, 8);
    EXPECT_EQ(proposed.front(), space.original());
    EXPECT_EQ(std::set<TilingConfig>(proposed.begin(), proposed.end()).size(), proposed.size());
}

TEST(Strategy, SameSeedSameProposals) {
    const auto space = synthetic_space();
    for (const char* name : {"random", "ga"}) {
        auto a = make_strategy(name, space, 11), b = make_strategy(name, space, 11), c = make_strategy(name, space, 12);
        const auto pa = drive(**a, 60, 4).second, pb = drive(**b, 60, 4).second, pc = drive(**c, 60, 4).second;
        EXPECT_EQ(pa, pb) << name;
        EXPECT_NE(pa, pc) << name;
    }
}

TEST(Strategy, GeneticFindsTheOptimumWithinSixtyEvaluations) {
    const auto space = synthetic_space();
    int within = 0;
    double ga_total = 0, random_total = 0;
    for (uint64_t seed = 1; seed <= 10; ++seed) {
        auto ga = make_strategy("ga", space, seed);
        auto rnd = make_strategy("random", space, seed);
        const double g = drive(**ga, 60, 4).first, r = drive(**rnd, 60, 4).first;
        within += g <= 100 * 1.02;
        ga_total += g;
        random_total += r;
    }
    EXPECT_GE(within, 9) << "GA within 2% of the optimum for at least 9 of 10 seeds";
    EXPECT_LE(ga_total, random_total);
}

TEST(Strategy, UnknownNameIsAnError) {
    const auto space = synthetic_space();
    auto s = make_strategy("annealing", space, 0);
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().hint.find("ga, random or exhaustive"), std::string::npos);
}

#include "search/constraint.h"

TEST(Constraint, ExpressionsAndErrors) {
    const std::map<std::string, int64_t> v = {{"TILE", 4096}, {"BUFS", 2}, {"UB_BYTES", 196608}};
    EXPECT_EQ(*evaluate_expression("TILE * BUFS * 3 <= UB_BYTES", v), 1);
    EXPECT_EQ(*evaluate_expression("TILE * (BUFS + 15) * 3 <= UB_BYTES", v), 0);
    EXPECT_EQ(*evaluate_expression("BUFS == 2 && !(TILE % 1024) || 0", v), 1);
    EXPECT_EQ(*evaluate_expression("-TILE / 1000", v), -4);
    auto unknown = evaluate_expression("TILES > 1", v);
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().message.find("unknown name 'TILES'"), std::string::npos);
    EXPECT_FALSE(evaluate_expression("TILE >", v));
    EXPECT_FALSE(evaluate_expression("TILE / (BUFS - 2)", v));
    EXPECT_FALSE(evaluate_expression("(TILE", v));
}
