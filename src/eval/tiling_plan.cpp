#include "eval/tiling_plan.h"

#include <algorithm>

namespace ascendopt {
namespace {

using nlohmann::json;

bool is_hex(const std::string& s) {
    return s.size() % 2 == 0 && std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// A whole number of at least zero (a parsed document holds those as unsigned, one built in
// code may hold them as signed).
bool is_unsigned(const json& doc, const char* key) {
    if (!doc.contains(key) || !doc[key].is_number_integer()) return false;
    return doc[key].is_number_unsigned() || doc[key].get<int64_t>() >= 0;
}

// A parameter list as the harness writes it: [{"name", "dynamic", "shape_from_kernel"}], in
// OpDef order; rebuilt with those fields only.
Result<json> checked_params(const json& doc, const char* key, const TilingPlanLimits& limits) {
    if (!doc.contains(key) || !doc[key].is_array()) return make_error(std::string("its ") + key + " are not a list");
    if (doc[key].size() > limits.max_params) return make_error(std::string("it lists more than ") + std::to_string(limits.max_params) + " " + key);
    json out = json::array();
    for (const auto& p : doc[key]) {
        if (!p.is_object() || !p.contains("name") || !p["name"].is_string() || p["name"].get<std::string>().empty() ||
            p["name"].get<std::string>().size() > 256)
            return make_error(std::string("one of its ") + key + " has no name of 1 to 256 characters");
        for (const char* flag : {"dynamic", "shape_from_kernel"})
            if (p.contains(flag) && !p[flag].is_boolean()) return make_error(std::string("a parameter's ") + flag + " is not true or false");
        out.push_back({{"name", p["name"]}, {"dynamic", p.value("dynamic", false)}, {"shape_from_kernel", p.value("shape_from_kernel", false)}});
    }
    return out;
}

Result<json> checked_fills(const json& doc, const TilingPlanLimits& limits) {
    if (!doc.contains("output_fills")) return json::object();
    const json& fills = doc["output_fills"];
    if (!fills.is_object() || fills.size() > limits.max_params) return make_error("its output fills are not a small object");
    json out = json::object();
    for (const auto& [label, hex] : fills.items()) {
        if (label.size() > 300 || !hex.is_string() || !is_hex(hex.get<std::string>()) || hex.get<std::string>().empty() ||
            hex.get<std::string>().size() > 2 * limits.max_fill_bytes)
            return make_error("the fill of output '" + label.substr(0, 64) + "' is not 1 to " + std::to_string(limits.max_fill_bytes) +
                              " bytes of hex");
        out[label] = hex;
    }
    return out;
}

}  // namespace

Result<json> checked_tiling_plan(const json& doc, const TilingPlanLimits& limits) {
    if (!is_unsigned(doc, "block_dim") || doc["block_dim"].get<uint64_t>() == 0 || doc["block_dim"].get<uint64_t>() > limits.max_block_dim)
        return make_error("its block dim is not a number from 1 to " + std::to_string(limits.max_block_dim));
    if (!is_unsigned(doc, "tiling_key")) return make_error("its tiling key is not an unsigned number");
    if (!is_unsigned(doc, "workspace_bytes")) return make_error("its workspace size is not an unsigned number");
    if (!doc.contains("tiling_data") || !doc["tiling_data"].is_string() || !is_hex(doc["tiling_data"].get<std::string>()) ||
        doc["tiling_data"].get<std::string>().size() > 2 * limits.max_tiling_bytes)
        return make_error("its tiling data is not hex of at most " + std::to_string(limits.max_tiling_bytes >> 20) + " MiB");
    auto inputs = checked_params(doc, "inputs", limits);
    if (!inputs) return inputs.error();
    auto outputs = checked_params(doc, "outputs", limits);
    if (!outputs) return outputs.error();
    auto fills = checked_fills(doc, limits);
    if (!fills) return fills.error();
    return json{{"block_dim", doc["block_dim"]},         {"tiling_key", doc["tiling_key"]}, {"workspace_bytes", doc["workspace_bytes"]},
                {"tiling_data", doc["tiling_data"]},     {"inputs", *inputs},               {"outputs", *outputs},
                {"output_fills", *fills}};
}

TilingPlanCache& TilingPlanCache::instance() {
    static TilingPlanCache cache;
    return cache;
}

std::optional<json> TilingPlanCache::find(const std::string& key) {
    std::lock_guard<std::mutex> lock(m_mutex);
    const auto it = m_plans.find(key);
    if (it == m_plans.end()) return std::nullopt;
    return it->second;
}

void TilingPlanCache::store(const std::string& key, const json& plan) {
    constexpr size_t k_most_bytes = size_t(64) << 20;
    const size_t bytes = plan.value("tiling_data", std::string()).size() + 1024;
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_bytes + bytes > k_most_bytes) {
        m_plans.clear();
        m_bytes = 0;
    }
    if (m_plans.emplace(key, plan).second) m_bytes += bytes;
}

}  // namespace ascendopt
