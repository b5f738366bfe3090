// The provenance of SoC parameters (eval/soc_params.h): every shipped SoC file gives each value
// a source, estimates have ranges, and a file that does not is refused with what to add.
#include <gtest/gtest.h>

#include "eval/build_config.h"
#include "eval/soc_loader.h"
#include "eval/soc_params.h"

namespace ascendopt {
namespace {

using nlohmann::json;

json small_soc() {
    return json::parse(R"({
        "name": "Tiny", "family": 1,
        "mte": {"latency_cycles": 1000, "setup_cycles": 60},
        "vector": {"cycles_per_repeat": {"Add": 1, "Exp": 4}},
        "provenance": {
            "family": {"kind": "doc", "source": "the API reference"},
            "mte.latency_cycles": {"kind": "estimate", "range": [300, 1500], "source": "ours", "reason": "not published"},
            "mte.setup_cycles": {"kind": "measured", "source": "a public trace"},
            "vector.cycles_per_repeat": {"kind": "estimate", "range_factor": [0.5, 2], "source": "ours", "reason": "a factor of two"},
            "simple": {"kind": "vendor-config", "keys": ["vector.cycles_per_repeat.Add"], "source": "vec_calc_size=128"}
        }})");
}

const SocParameter& find(const std::vector<SocParameter>& ps, const std::string& key) {
    for (const auto& p : ps)
        if (p.key == key) return p;
    throw std::runtime_error("no parameter " + key);
}

TEST(SocParams, EveryValueGetsItsEntryExactListedOrByItsTable) {
    auto ps = soc_parameters(small_soc());
    ASSERT_TRUE(ps) << ps.error().message;
    EXPECT_EQ(ps->size(), 5u);  // family, two mte values, two vector kinds; the name is identity
    EXPECT_EQ(find(*ps, "mte.latency_cycles").provenance, Provenance::estimate);
    EXPECT_EQ(find(*ps, "mte.latency_cycles").range->high, 1500);
    EXPECT_EQ(find(*ps, "mte.setup_cycles").provenance, Provenance::measured);
    EXPECT_EQ(find(*ps, "vector.cycles_per_repeat.Add").provenance, Provenance::vendor_config);  // listed beats the table
    const SocParameter& exp = find(*ps, "vector.cycles_per_repeat.Exp");
    EXPECT_EQ(exp.provenance, Provenance::estimate);
    EXPECT_DOUBLE_EQ(exp.range->low, 2);  // range_factor times the value
    EXPECT_DOUBLE_EQ(exp.range->high, 8);
}

TEST(SocParams, AFileThatDoesNotSayWhereAValueComesFromIsRefused) {
    json doc = small_soc();
    doc["provenance"].erase("mte.setup_cycles");
    auto ps = soc_parameters(doc);
    ASSERT_FALSE(ps);
    EXPECT_NE(ps.error().message.find("mte.setup_cycles has no provenance"), std::string::npos) << ps.error().message;
    EXPECT_NE(ps.error().hint.find("[provenance]"), std::string::npos);

    doc = small_soc();
    doc["provenance"]["mte.latency_cycles"].erase("range");
    ps = soc_parameters(doc);
    ASSERT_FALSE(ps);
    EXPECT_NE(ps.error().message.find("estimate without a range"), std::string::npos) << ps.error().message;

    doc = small_soc();
    doc["provenance"]["mte.latency_cycles"]["range"] = {1200, 1500};
    ps = soc_parameters(doc);
    ASSERT_FALSE(ps);
    EXPECT_NE(ps.error().message.find("outside its range"), std::string::npos) << ps.error().message;

    doc = small_soc();
    doc["provenance"]["mte.latncy_cycles"] = {{"kind", "doc"}, {"source", "typo"}};
    ps = soc_parameters(doc);
    ASSERT_FALSE(ps);
    EXPECT_NE(ps.error().message.find("names no parameter"), std::string::npos) << ps.error().message;

    doc = small_soc();
    doc["provenance"]["mte.setup_cycles"]["kind"] = "folklore";
    EXPECT_FALSE(soc_parameters(doc));
}

TEST(SocParams, UncertainParametersMoveATableTogetherAndScaleTheDescription) {
    const json doc = small_soc();
    auto ps = soc_parameters(doc);
    ASSERT_TRUE(ps);
    const auto us = uncertain_parameters(*ps);
    ASSERT_EQ(us.size(), 2u);  // the latency and the vector table; Add's entry has no range
    const UncertainParameter* table = nullptr;
    for (const auto& u : us)
        if (u.name == "vector.cycles_per_repeat") table = &u;
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(table->keys, std::vector<std::string>{"vector.cycles_per_repeat.Exp"});
    EXPECT_DOUBLE_EQ(table->low_factor, 0.5);
    const json scaled = scaled_soc(doc, *ps, *table, 2.0);
    EXPECT_EQ(scaled["vector"]["cycles_per_repeat"]["Exp"], 8.0);
    EXPECT_EQ(scaled["vector"]["cycles_per_repeat"]["Add"], 1);
    EXPECT_EQ(scaled["mte"]["latency_cycles"], 1000);
}

TEST(SocParams, EveryShippedSocFileHasItsProvenance) {
    for (const std::string name : {"Ascend910B2", "Ascend910B3", "Ascend310P3"}) {
        auto loaded = load_soc_parameters(name, ASCENDOPT_SHARE_DIR);
        ASSERT_TRUE(loaded) << name << ": " << loaded.error().message;
        EXPECT_FALSE(loaded->doc.contains("provenance")) << "the job gets the values only";
        int estimates = 0;
        for (const auto& p : loaded->parameters) {
            EXPECT_FALSE(p.source.empty()) << name << " " << p.key;
            if (p.provenance != Provenance::estimate) continue;
            ++estimates;
            EXPECT_TRUE(p.range) << name << " " << p.key;
        }
        EXPECT_GT(estimates, 10) << name;
        EXPECT_FALSE(uncertain_parameters(loaded->parameters).empty());
    }
}

}  // namespace
}  // namespace ascendopt
