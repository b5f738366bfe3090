#include "agent/describe.h"

#include <fmt/format.h>

#include <regex>

namespace ascendopt {
namespace {

struct FamilyText {
    const char* family;
    const char* title;
    const char* mechanism;
    const char* causal_chain;
    const char* reusable_when;
    const char* avoid_when;
    const char* guidance;
    const char* expected_effect;
    const char* keywords;
};

const FamilyText k_texts[] = {
    {"kernel.memory.double_buffer", "Double buffering of the tile queues",
     "with two buffers per queue, the copy-in of tile i+1 is issued while tile i is computed and copied out",
     "one buffer -> each DataCopy waits for the previous tile's FreeTensor -> MTE2 latency is exposed once per tile -> "
     "two buffers let MTE2, V and MTE3 overlap",
     "a tiled CopyIn/Compute/CopyOut loop over several tiles per core whose queues are allocated with one buffer",
     "UB cannot hold two buffers of every queue at the current tile size (halve the tile first), or each core has one tile",
     "set BUFFER_NUM (the TQue depth and InitBuffer count) to 2 and make the host's UB budget account for both buffers",
     "MTE2 set-up latency hidden behind compute; latency falls toward the busiest pipe's time",
     "double buffer BUFFER_NUM TQue InitBuffer pingpong overlap MTE2 latency copy"},
    {"kernel.sync.elimination", "Removing a full pipeline barrier",
     "PipeBarrier<PIPE_ALL> joins the scalar unit and every pipe; queues (EnQue/DeQue) already order the data",
     "a PIPE_ALL barrier per tile -> MTE2, V and MTE3 drain before the next tile starts -> no overlap between tiles -> "
     "removing it restores the pipelining the queues allow",
     "a barrier inside a tile loop whose data dependencies are already carried by EnQue/DeQue or SetFlag/WaitFlag",
     "the barrier orders accesses that no queue or flag orders (scalar reads of UB written by a vector op, GM reuse)",
     "delete the PipeBarrier<PIPE_ALL>() and keep the queue hand-offs; check correctness on every case",
     "pipes overlap across tiles again; the barrier's drain time disappears per tile",
     "PipeBarrier PIPE_ALL barrier sync stall drain pipeline overlap"},
    {"tiling.tile_size", "Larger tiles",
     "each DataCopy and vector instruction has a fixed set-up cost; larger tiles amortize it over more bytes",
     "small tiles -> many DMA set-ups and instruction issues per byte -> MTE and S time dominated by overhead -> "
     "larger tiles move the same bytes in fewer, longer transfers",
     "a tile length or tile byte constant well below what UB can hold for all queues",
     "UB is nearly full already, or the shapes are so small that one tile covers them",
     "raise the tile constant (in the host tiling) as far as the UB budget of all queues and buffers allows",
     "fewer DMA set-ups and issues; latency approaches the bandwidth bound",
     "tile TILE tileLength tile size DMA setup amortize UB budget"},
    {"kernel.compute.vectorization", "Vector instructions instead of scalar element access",
     "GetValue/SetValue run on the scalar unit one element at a time and wait for the vector pipe",
     "scalar element loop -> S busy and V idle -> a vector instruction processes 256 bytes per repeat",
     "loops that read or write UB elements with GetValue/SetValue", "a single scalar value is needed once per tile",
     "replace the element loop with the vector API that computes the same (Duplicate, ReduceSum, Muls, Select)",
     "scalar time per element removed; the vector pipe takes over",
     "GetValue SetValue scalar loop vectorize vector API"},
    {"tiling.multicore", "Using all vector cores", "the work is split over more blocks, so more cores run at once",
     "few blocks -> most cores idle -> per-core work shrinks as the block dim grows until GM bandwidth saturates",
     "SetBlockDim below the SoC's vector core count with enough work to split, or a kernel that never reads GetBlockIdx so every "
     "block repeats the whole job",
     "each core's share would fall below a tile",
     "derive the block dim from GetCoreNumAiv() and split the data by block index (tiles handed round-robin to the blocks)",
     "near-linear speedup until memory bound", "SetBlockDim coreNum GetCoreNumAiv GetBlockIdx multicore blocks split repeat"},
};

const FamilyText k_other = {"kernel.other", "Code change", "a change whose reversion measurably slowed the operator",
                            "see the diff", "a kernel with the same structure", "the structure differs", "apply the diff's idea",
                            "as measured", "change"};

const FamilyText& classify(const std::string& file, const std::string& removed, const std::string& added) {
    const std::string both = removed + "\n" + added;
    auto has = [&](const char* pattern) { return std::regex_search(both, std::regex(pattern)); };
    if (has(R"(BUFFER_NUM\s*=)")) return k_texts[0];
    if (removed.find("PipeBarrier") != std::string::npos && added.find("PipeBarrier") == std::string::npos) return k_texts[1];
    if (removed.find("GetValue") != std::string::npos || removed.find("SetValue") != std::string::npos) return k_texts[3];
    if (has(R"(SetBlockDim|coreNum|GetCoreNum)")) return k_texts[4];
    if (has(R"([Tt][Ii][Ll][Ee])")) return k_texts[2];
    (void)file;
    return k_other;
}

}  // namespace

ExperienceRecord describe_change(const std::string& file, const std::string& removed, const std::string& added) {
    const FamilyText& t = classify(file, removed, added);
    ExperienceRecord r;
    r.family = t.family;
    r.title = t.title;
    r.mechanism = t.mechanism;
    r.causal_chain = t.causal_chain;
    r.reusable_when = t.reusable_when;
    r.avoid_when = t.avoid_when;
    r.guidance = t.guidance;
    r.expected_effect = t.expected_effect;
    std::string word;
    for (const char c : std::string(t.keywords) + " ") {
        if (c == ' ') {
            if (!word.empty()) r.keywords.push_back(word);
            word.clear();
        } else {
            word += c;
        }
    }
    return r;
}

std::string bottleneck_of(const nlohmann::json& profile) {
    if (!profile.is_object() || !profile.contains("bound") || !profile["bound"].is_object()) return "unknown (no profile)";
    const auto& b = profile["bound"];
    std::string out = fmt::format("bound by {} ({}), {:.0f}% busy", b.value("pipe", "?"), b.value("kind", "?"), 100 * b.value("utilization", 0.0));
    std::string others;
    if (profile.contains("pipes"))
        for (const auto& [pipe, x] : profile["pipes"].items())
            others += fmt::format("{}{} {:.0f}%", others.empty() ? "" : ", ", pipe, 100 * x.value("utilization", 0.0));
    return others.empty() ? out : out + "; " + others;
}

}  // namespace ascendopt
