#include "agent/deopt.h"

#include "agent/split_cores.h"
#include "agent/vectorize.h"

#include <regex>
#include <set>

namespace ascendopt {
namespace {

bool in(const std::string& rel, const char* folder) { return rel.rfind(folder, 0) == 0; }

// InitBuffer(queue, N, bytes) with N other than 1 gets one buffer: copies no longer overlap
// compute. (TBuf's InitBuffer has two arguments and is left alone.)
std::optional<CandidateFiles> single_buffer(const CandidateFiles& files) {
    static const std::regex init(R"((InitBuffer\s*\(\s*[A-Za-z_]\w*\s*,\s*)(?!1\s*,)([A-Za-z_]\w*|\d+)(\s*,))");
    return edit_files_under(files, "op_kernel/", [](const std::string& text) { return std::regex_replace(text, init, "$011$3"); });
}

// A full barrier after every EnQue: each stage waits for every pipe before the next starts.
std::optional<CandidateFiles> full_barriers(const CandidateFiles& files) {
    static const std::regex enque(R"(^([ \t]*)([^\n]*\.EnQue\s*(<[^>\n]*>)?\s*\([^\n]*\)\s*;[ \t]*)$)",
                                  std::regex::ECMAScript | std::regex::multiline);
    return edit_files_under(files, "op_kernel/",
                      [](const std::string& text) { return std::regex_replace(text, enque, "$1$2\n$1AscendC::PipeBarrier<PIPE_ALL>();"); });
}

// The host tiling sees an eighth of the vector cores (at least one) and splits the work that way.
std::optional<CandidateFiles> fewer_cores(const CandidateFiles& files) {
    static const std::regex cores(R"(([A-Za-z_]\w*\s*(\.|->)\s*GetCoreNum(Aiv)?\s*\(\s*\)))");
    return edit_files_under(files, "op_host/",
                      [](const std::string& text) { return std::regex_replace(text, cores, "(($1) >= 8 ? ($1) / 8 : 1)"); });
}

// The host tiling sees a quarter of the UB it asked GetCoreMemSize for, so its tiles shrink.
std::optional<CandidateFiles> smaller_tiles(const CandidateFiles& files) {
    static const std::regex ub(R"((GetCoreMemSize\s*\([^,;]*,\s*([A-Za-z_]\w*)\s*\)\s*;))");
    return edit_files_under(files, "op_host/", [](const std::string& text) { return std::regex_replace(text, ub, "$1 $2 /= 4;"); });
}

// The names a kernel gives its queues' depth: the count argument of a three-argument
// InitBuffer and the depth of a TQue<position, depth> declaration, where it is a name.
std::set<std::string> queue_depth_names(const std::string& text) {
    static const std::regex init(R"(InitBuffer\s*\(\s*[A-Za-z_]\w*\s*,\s*([A-Za-z_]\w*)\s*,)");
    static const std::regex tque(R"(TQue\s*<\s*[\w:]+\s*,\s*([A-Za-z_]\w*)\s*>)");
    std::set<std::string> names;
    for (const auto* re : {&init, &tque})
        for (std::sregex_iterator it(text.begin(), text.end(), *re), end; it != end; ++it) names.insert((*it)[1].str());
    return names;
}

// Double buffering: a queue given one buffer gets two, whether the 1 is a literal in InitBuffer
// or a constant that sets the queues' depth (BUFFER_NUM, BufferNum, ...: any name used as one,
// defined as 1 with const, constexpr or #define). Kernels that size each buffer as the UB share
// divided by that constant keep their UB total.
std::optional<CandidateFiles> double_buffer(const CandidateFiles& files) {
    static const std::regex literal(R"((InitBuffer\s*\(\s*[A-Za-z_]\w*\s*,\s*)1(\s*,))");
    std::set<std::string> names;  // over every kernel file: a header may define what a .cpp uses
    for (const auto& [rel, text] : files)
        if (in(rel, "op_kernel/")) names.merge(queue_depth_names(text));
    return edit_files_under(files, "op_kernel/", [&names](const std::string& text) {
        std::string out = text;
        for (const auto& name : names) {
            const std::regex constant("((?:constexpr|const)\\s+(?:static\\s+)?[A-Za-z_][\\w:]*\\s+" + name + "\\s*=\\s*)1(\\s*;)");
            const std::regex define("(#define\\s+" + name + "\\s+)1\\b");
            out = std::regex_replace(std::regex_replace(out, constant, "$012$2"), define, "$012");
        }
        return std::regex_replace(out, literal, "$012$2");
    });
}

// No full barriers: the queues already order each stage's producer and consumer.
std::optional<CandidateFiles> no_full_barriers(const CandidateFiles& files) {
    static const std::regex barrier(R"(^[ \t]*(AscendC::)?(PipeBarrier<PIPE_ALL>\(\)|pipe_barrier\(PIPE_ALL\))\s*;[ \t]*\n)",
                                    std::regex::ECMAScript | std::regex::multiline);
    return edit_files_under(files, "op_kernel/", [](const std::string& text) { return std::regex_replace(text, barrier, ""); });
}

}  // namespace

std::optional<CandidateFiles> edit_files_under(const CandidateFiles& files, const char* folder,
                                               const std::function<std::string(const std::string&)>& edit) {
    CandidateFiles out = files;
    bool changed = false;
    for (auto& [rel, text] : out) {
        if (!in(rel, folder)) continue;
        std::string edited = edit(text);
        if (edited != text) {
            text = std::move(edited);
            changed = true;
        }
    }
    if (!changed) return std::nullopt;
    return out;
}

const Deoptimization* deoptimization_for_family(const std::string& family) {
    for (const auto& d : deoptimizations())
        if (d.family == family) return &d;
    return nullptr;
}

const std::vector<Deoptimization>& deoptimizations() {
    static const std::vector<Deoptimization> all = {
        {"single_buffer", "kernel.memory.double_buffer", "double buffering of the queues", single_buffer, double_buffer, "double_buffer"},
        {"full_barriers", "kernel.sync.elimination", "pipelining between stages (no full barriers)", full_barriers, no_full_barriers,
         "no_full_barriers"},
        {"smaller_tiles", "tiling.tile_size", "tiles sized to the whole UB", smaller_tiles, {}},
        {"fewer_cores", "tiling.multicore", "work split over all vector cores", fewer_cores, split_over_cores, "split_over_cores"},
        {"scalar_fills", "kernel.compute.vectorization", "vector fills (Duplicate) instead of scalar element loops", scalar_fills, vector_fills,
         "vector_fills"},
    };
    return all;
}

}  // namespace ascendopt
