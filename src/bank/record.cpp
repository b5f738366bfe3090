#include "bank/record.h"

#include <cctype>

#include "util/hash.h"

namespace ascendopt {

std::string ExperienceRecord::equivalence_key() const {
    std::string compact;
    for (char c : diff)
        if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
    return sha256_hex(operator_name + "\n" + family + "\n" + compact);
}

nlohmann::json to_json(const ExperienceRecord& r) {
    return {{"id", r.id},
            {"operator", r.operator_name},
            {"family", r.family},
            {"title", r.title},
            {"bottleneck", r.bottleneck},
            {"mechanism", r.mechanism},
            {"causal_chain", r.causal_chain},
            {"reusable_when", r.reusable_when},
            {"avoid_when", r.avoid_when},
            {"guidance", r.guidance},
            {"expected_effect", r.expected_effect},
            {"diff", r.diff},
            {"slow_latency_us", r.slow_latency_us},
            {"fast_latency_us", r.fast_latency_us},
            {"profile_before", r.profile_before},
            {"profile_after", r.profile_after},
            {"keywords", r.keywords},
            {"soc", r.soc},
            {"backend", r.backend},
            {"provenance", r.provenance},
            {"support", r.support}};
}

Result<ExperienceRecord> record_from_json(const nlohmann::json& j) {
    if (!j.is_object()) return make_error("an experience record must be a JSON object");
    ExperienceRecord r;
    auto text = [&](const char* key, std::string& out, bool required) -> Status {
        if (!j.contains(key)) return required ? Status(make_error(std::string("the record lacks \"") + key + "\"")) : ok_status();
        if (!j[key].is_string()) return make_error(std::string("the record's \"") + key + "\" must be a string");
        out = j[key];
        return ok_status();
    };
    auto number = [&](const char* key, double& out) -> Status {
        if (!j.contains(key) || !j[key].is_number()) return make_error(std::string("the record's \"") + key + "\" must be a number");
        out = j[key];
        return ok_status();
    };
    for (auto st : {text("operator", r.operator_name, true), text("family", r.family, true), text("title", r.title, true),
                    text("bottleneck", r.bottleneck, false), text("mechanism", r.mechanism, false),
                    text("causal_chain", r.causal_chain, false), text("reusable_when", r.reusable_when, false),
                    text("avoid_when", r.avoid_when, false), text("guidance", r.guidance, false),
                    text("expected_effect", r.expected_effect, false), text("diff", r.diff, true), text("soc", r.soc, false),
                    text("backend", r.backend, false), number("slow_latency_us", r.slow_latency_us),
                    number("fast_latency_us", r.fast_latency_us)})
        if (!st) return st.error();
    if (j.contains("keywords")) {
        if (!j["keywords"].is_array()) return make_error("the record's \"keywords\" must be an array of strings");
        for (const auto& k : j["keywords"]) {
            if (!k.is_string()) return make_error("the record's \"keywords\" must be an array of strings");
            r.keywords.push_back(k);
        }
    }
    if (j.contains("profile_before") && j["profile_before"].is_object()) r.profile_before = j["profile_before"];
    if (j.contains("profile_after") && j["profile_after"].is_object()) r.profile_after = j["profile_after"];
    if (j.contains("provenance") && j["provenance"].is_array()) r.provenance = j["provenance"];
    if (j.contains("support") && j["support"].is_number_integer()) r.support = std::max<int64_t>(1, j["support"].get<int64_t>());
    if (r.slow_latency_us <= 0 || r.fast_latency_us <= 0) return make_error("the record's latencies must be positive");
    return r;
}

const std::vector<std::pair<std::string, std::string>>& known_families() {
    static const std::vector<std::pair<std::string, std::string>> families = {
        {"kernel.memory.double_buffer", "two buffers per queue so copies overlap compute"},
        {"kernel.sync.elimination", "no barriers or flags beyond what the queues already order"},
        {"kernel.loop.tail_consolidation", "one code path for full tiles and the ragged tail"},
        {"kernel.compute.vectorization", "vector instructions instead of scalar element loops"},
        {"kernel.compute.fusion", "fewer passes over UB: fused or combined vector operations"},
        {"kernel.memory.redundant_write", "no writes that a later write overwrites"},
        {"tiling.tile_size", "larger tiles: fewer DMA set-ups and instruction issues per byte"},
        {"tiling.multicore", "work split over all vector cores"},
        {"kernel.other", "anything else that measurably helps"},
    };
    return families;
}

}  // namespace ascendopt
