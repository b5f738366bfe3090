// Host tunables are injected at run time: another value changes the tiling without a rebuild.
#include "cli_runner.h"
#include "search/tunables.h"

using namespace ascendopt::e2e;

TEST(Tunables, HostValuesAreInjectedWithoutRebuilding) {
    OperatorCopy copy("exp_custom");
    auto op = ascendopt::load_operator(copy.dir());
    ASSERT_TRUE(op);
    auto tunables = ascendopt::find_tunables(*op, 196608);
    ASSERT_TRUE(tunables);
    auto files = ascendopt::apply_config(*op, *tunables, {});
    ASSERT_TRUE(files);
    for (const auto& [rel, text] : *files) copy.write(rel, text);

    auto latency = [&](const std::string& tile_bytes) {
        const auto r = run_cli({"eval", copy.dir().string(), "--case", "perf", "--json", "-q"},
                               {{"ASCENDOPT_TUNE_TILE_BYTES", tile_bytes}});
        EXPECT_EQ(r.exit_code, 0) << r.output;
        const auto doc = json_of(r);
        return std::make_pair(doc["cases"][0]["latency"]["value"].get<double>(), doc["build_cached"].get<bool>());
    };
    const auto small = latency("1024");
    const auto large = latency("32768");
    EXPECT_TRUE(large.second) << "the second value reuses the first build";
    EXPECT_GT(small.first, 1.2 * large.first) << "1 KiB tiles pay the DMA set-up far more often";
}
