// An experience record: one optimization, what it fixes and why, where it applies, the code
// change, and the measured evidence (latencies and per-pipe profiles before and after) with
// its provenance. Mechanism fields may be written by an LLM; numbers come only from
// measurement.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/result.h"

namespace ascendopt {

struct ExperienceRecord {
    int64_t id = 0;          // assigned by the bank
    std::string operator_name;
    std::string family;      // canonical: "kernel.memory.double_buffer", "tiling.tile_size", ...
    std::string title;
    std::string bottleneck;  // the symptom it removes: "MTE2 latency exposed once per tile"
    std::string mechanism;   // the root mechanism
    std::string causal_chain;
    std::string reusable_when;
    std::string avoid_when;
    std::string guidance;    // how to reuse it
    std::string expected_effect;
    std::string diff;        // unified diff from slow to fast (the optimization applied)
    double slow_latency_us = 0;
    double fast_latency_us = 0;
    nlohmann::json profile_before = nlohmann::json::object();  // per-pipe metrics of the slow version
    nlohmann::json profile_after = nlohmann::json::object();
    std::vector<std::string> keywords;
    std::string soc;
    std::string backend = "sim";
    nlohmann::json provenance = nlohmann::json::array();  // [{source, run, evaluations, ...}]
    int64_t support = 1;     // how many times it was found (merges add up)

    double speedup() const { return fast_latency_us > 0 ? slow_latency_us / fast_latency_us : 0; }
    // Identity for merging: operator, family and the diff with whitespace removed.
    std::string equivalence_key() const;
};

nlohmann::json to_json(const ExperienceRecord& r);
// Reads a record; a missing or mistyped required field is an error naming it.
Result<ExperienceRecord> record_from_json(const nlohmann::json& j);

// The canonical families and their one-line meaning.
const std::vector<std::pair<std::string, std::string>>& known_families();

}  // namespace ascendopt
