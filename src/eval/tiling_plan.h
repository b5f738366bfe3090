// The tiling plan of one case: what the host binary's `--tiling` run (twin/rt/harness.h) hands
// the launch. That process ran the candidate's host code, so its file is a claim like a result
// file: it is read with bounds, and only the fields the harness writes, each of the type and size
// the harness gives it, are passed on to the operator binary, in a document ascendopt builds
// afresh. A plan can claim nothing a tiling function does not decide anyway (block dim, key,
// workspace, tiling data, the parameters' layout); this check keeps its form from becoming an
// attack on the launch half's parser or its buffers.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "util/result.h"

namespace ascendopt {

struct TilingPlanLimits {
    uint32_t max_block_dim = 4096;
    size_t max_tiling_bytes = size_t(4) << 20;
    size_t max_params = 4096;
    size_t max_fill_bytes = 64;  // one value of the widest dtype, repeated over the output
};

// The plan for the operator binary's job, or why `doc` (a status "ok" document that is not a
// preflight skip) is not one.
Result<nlohmann::json> checked_tiling_plan(const nlohmann::json& doc, const TilingPlanLimits& limits = {});

// Checked plans, kept in this process by what determines them (the host binary, which is named
// by the hash of its sources, its environment, the SoC, and the case's tensors and attributes,
// never their data): a case tiled before, in a preflight or another evaluation of the same host
// code, is launched without a tiling process. Plans of tilings that read input data are not
// kept. Thread-safe; holds at most 64 MiB of plans, forgetting all when full.
class TilingPlanCache {
public:
    static TilingPlanCache& instance();
    std::optional<nlohmann::json> find(const std::string& key);
    void store(const std::string& key, const nlohmann::json& plan);

private:
    std::mutex m_mutex;
    std::unordered_map<std::string, nlohmann::json> m_plans;
    size_t m_bytes = 0;
};

}  // namespace ascendopt
