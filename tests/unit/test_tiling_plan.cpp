// The tiling plan comes from the host binary's process, which ran candidate host code: only a
// plan of the form the harness writes reaches the launch, rebuilt from its known fields.
#include <gtest/gtest.h>

#include "eval/tiling_plan.h"

namespace ascendopt {
namespace {

using nlohmann::json;

json honest_plan() {
    return {{"status", "ok"},
            {"block_dim", 8},
            {"tiling_key", 3},
            {"workspace_bytes", 1024},
            {"tiling_data", "0a0b0c0d"},
            {"inputs", {{{"name", "x"}, {"dynamic", false}, {"shape_from_kernel", false}}}},
            {"outputs", {{{"name", "y"}, {"dynamic", true}, {"shape_from_kernel", true}}}},
            {"output_fills", {{"y[0]", "0000803f"}}}};
}

TEST(TilingPlan, AnHonestPlanPassesWithItsFieldsOnly) {
    json doc = honest_plan();
    doc["run_seconds"] = 0.01;
    doc["timing"] = {{"latency_us", 0.1}};  // not a plan's field: it must not reach the launch
    doc["outputs"][0]["extra"] = "payload";
    const auto plan = checked_tiling_plan(doc);
    ASSERT_TRUE(plan) << plan.error().message;
    EXPECT_EQ((*plan)["block_dim"], 8);
    EXPECT_EQ((*plan)["tiling_data"], "0a0b0c0d");
    EXPECT_EQ((*plan)["outputs"][0], (json{{"name", "y"}, {"dynamic", true}, {"shape_from_kernel", true}}));
    EXPECT_EQ((*plan)["output_fills"]["y[0]"], "0000803f");
    EXPECT_FALSE(plan->contains("timing"));
    EXPECT_FALSE(plan->contains("run_seconds"));
    EXPECT_FALSE(plan->contains("status"));
}

TEST(TilingPlan, FieldsOfTheWrongTypeOrSizeAreRefused) {
    const std::vector<std::pair<std::string, json>> forged = {
        {"/block_dim", 0},
        {"/block_dim", 4097},
        {"/block_dim", -1},
        {"/block_dim", "8"},
        {"/block_dim", 1.5},
        {"/tiling_key", -3},
        {"/workspace_bytes", "lots"},
        {"/tiling_data", "abc"},
        {"/tiling_data", "0A0B"},
        {"/tiling_data", "zz"},
        {"/tiling_data", std::string((4u << 20) * 2 + 2, '0')},
        {"/inputs", "x"},
        {"/inputs/0/name", ""},
        {"/inputs/0/name", std::string(257, 'x')},
        {"/inputs/0/name", 7},
        {"/outputs/0/dynamic", "yes"},
        {"/output_fills", json::array()},
        {"/output_fills/y[0]", ""},
        {"/output_fills/y[0]", std::string(130, '0')},
        {"/output_fills/y[0]", "0x10"},
    };
    for (const auto& [where, value] : forged) {
        json doc = honest_plan();
        doc[json::json_pointer(where)] = value;
        EXPECT_FALSE(checked_tiling_plan(doc)) << where << " = " << value.dump().substr(0, 40);
    }
    json many = honest_plan();
    many["inputs"] = json::array();
    for (int i = 0; i < 5000; ++i) many["inputs"].push_back({{"name", "x"}});
    EXPECT_FALSE(checked_tiling_plan(many));
    for (const char* key : {"block_dim", "tiling_key", "workspace_bytes", "tiling_data", "inputs", "outputs"}) {
        json doc = honest_plan();
        doc.erase(key);
        EXPECT_FALSE(checked_tiling_plan(doc)) << "without " << key;
    }
}

TEST(TilingPlan, ABlockDimLimitOtherThanTheDefaultHolds) {
    json doc = honest_plan();
    doc["block_dim"] = 48;
    EXPECT_TRUE(checked_tiling_plan(doc, {.max_block_dim = 48}));
    EXPECT_FALSE(checked_tiling_plan(doc, {.max_block_dim = 40}));
}

TEST(TilingPlan, TheCacheGivesBackWhatItKeptAndForgetsAllWhenFull) {
    TilingPlanCache& cache = TilingPlanCache::instance();
    const json plan = *checked_tiling_plan(honest_plan());
    cache.store("unit-test-key", plan);
    ASSERT_TRUE(cache.find("unit-test-key"));
    EXPECT_EQ(*cache.find("unit-test-key"), plan);
    EXPECT_FALSE(cache.find("another-key"));
    json big = plan;
    big["tiling_data"] = std::string(size_t(40) << 20, '0');
    cache.store("big-1", big);
    cache.store("big-2", big);  // past 64 MiB: everything before is forgotten
    EXPECT_FALSE(cache.find("unit-test-key"));
    EXPECT_FALSE(cache.find("big-1"));
    EXPECT_TRUE(cache.find("big-2"));
}

}  // namespace
}  // namespace ascendopt
