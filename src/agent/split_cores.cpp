#include "agent/split_cores.h"

#include "agent/deopt.h"

#include <cctype>
#include <regex>
#include <vector>

namespace ascendopt {
namespace {

constexpr size_t npos = std::string::npos;

// Where the comment or literal that starts at `i` ends (one past it), or `i` when none starts there.
size_t skip_comment_or_literal(const std::string& t, size_t i) {
    if (t.compare(i, 2, "//") == 0) {
        const size_t nl = t.find('\n', i);
        return nl == npos ? t.size() : nl;
    }
    if (t.compare(i, 2, "/*") == 0) {
        const size_t end = t.find("*/", i + 2);
        return end == npos ? t.size() : end + 2;
    }
    if (t[i] == '"' || t[i] == '\'') {
        size_t j = i + 1;
        while (j < t.size() && t[j] != t[i]) j += t[j] == '\\' ? 2 : 1;
        return std::min(j + 1, t.size());
    }
    return i;
}

// The `}` that closes the `{` at `open`, or npos.
size_t matching_brace(const std::string& t, size_t open) {
    int depth = 0;
    for (size_t i = open; i < t.size();) {
        if (const size_t past = skip_comment_or_literal(t, i); past != i) {
            i = past;
            continue;
        }
        if (t[i] == '{') ++depth;
        if (t[i] == '}' && --depth == 0) return i;
        ++i;
    }
    return npos;
}

// The `{` of the innermost block that contains `at`, or npos at file scope.
size_t enclosing_open(const std::string& t, size_t at) {
    std::vector<size_t> opens;
    for (size_t i = 0; i < at;) {
        if (const size_t past = skip_comment_or_literal(t, i); past != i) {
            i = past;
            continue;
        }
        if (t[i] == '{') opens.push_back(i);
        if (t[i] == '}' && !opens.empty()) opens.pop_back();
        ++i;
    }
    return opens.empty() ? npos : opens.back();
}

// True when `text` holds something other than blanks and comments.
bool has_code(const std::string& text) {
    for (size_t i = 0; i < text.size();) {
        if (text.compare(i, 2, "//") == 0 || text.compare(i, 2, "/*") == 0) {
            i = skip_comment_or_literal(text, i);
            continue;
        }
        if (!std::isspace(static_cast<unsigned char>(text[i]))) return true;
        ++i;
    }
    return false;
}

std::string indent_of_line(const std::string& t, size_t at) {
    const size_t start = t.rfind('\n', at) == npos ? 0 : t.rfind('\n', at) + 1;
    size_t end = start;
    while (end < t.size() && (t[end] == ' ' || t[end] == '\t')) ++end;
    return t.substr(start, end - start);
}

// `tail` (the statements between a split loop and the end of its block) run by the last block only.
std::string last_block_only(const std::string& tail, const std::string& indent) {
    const size_t last = tail.find_last_not_of(" \t\r\n");
    const size_t nl = tail.rfind('\n');
    const std::string closing_indent = nl != npos && nl > last ? tail.substr(nl + 1) : "";
    return "\n" + indent + "if (AscendC::GetBlockIdx() + 1 == AscendC::GetBlockNum()) {  // after the split loop: the last block only" +
           tail.substr(0, last + 1) + "\n" + indent + "}\n" + closing_indent;
}

struct TileLoop {
    size_t header_begin, header_end;  // the `for (...)` text
    size_t body_close;                // its `}`
    size_t block_close;               // the `}` of the block the loop stands in
    std::string type, index, bound;
};

// Every canonical counted loop with a braced body whose index scales an offset.
std::vector<TileLoop> tile_loops(const std::string& t) {
    static const std::regex header(
        R"(\bfor\s*\(\s*((?:unsigned\s+|signed\s+)?[A-Za-z_][\w:]*)\s+([A-Za-z_]\w*)\s*=\s*0\s*;\s*\2\s*<\s*([^;{}]+?)\s*;\s*(?:\2\s*\+\+|\+\+\s*\2|\2\s*\+=\s*1)\s*\))");
    std::vector<TileLoop> loops;
    for (std::sregex_iterator it(t.begin(), t.end(), header), end; it != end; ++it) {
        const size_t begin = static_cast<size_t>(it->position()), past = begin + static_cast<size_t>(it->length());
        const size_t open = t.find_first_not_of(" \t\r\n", past);
        if (open == npos || t[open] != '{') continue;
        const size_t close = matching_brace(t, open);
        const size_t block = enclosing_open(t, begin);
        const size_t block_close = block == npos ? npos : matching_brace(t, block);
        if (close == npos || block_close == npos) continue;
        const std::string index = (*it)[2].str();
        const std::regex scales("\\b" + index + "\\s*\\*|\\*\\s*" + index + "\\b");
        if (!std::regex_search(t.begin() + static_cast<std::ptrdiff_t>(open), t.begin() + static_cast<std::ptrdiff_t>(close), scales)) continue;
        loops.push_back({begin, past, close, block_close, (*it)[1].str(), index, (*it)[3].str()});
    }
    return loops;
}

}  // namespace

bool kernel_replicated_over_blocks(const CandidateFiles& files) {
    static const std::regex launches(R"(SetBlockDim\s*\(\s*(?!1\s*\)))");
    // A block index read, or a barrier across blocks: after a split, blocks that run different
    // numbers of tiles would wait at it for each other forever on the device.
    static const std::regex per_block(R"(GetBlockIdx|get_block_idx|SyncAll|IBSet|IBWait|CrossCore)");
    bool several_blocks = false;
    for (const auto& [rel, text] : files) {
        if (rel.rfind("op_kernel/", 0) == 0 && std::regex_search(text, per_block)) return false;
        if (rel.rfind("op_host/", 0) == 0 && std::regex_search(text, launches)) several_blocks = true;
    }
    return several_blocks;
}

std::optional<std::string> split_tile_loops(const std::string& kernel) {
    std::vector<TileLoop> outer;
    for (const TileLoop& loop : tile_loops(kernel)) {
        if (!outer.empty() && loop.header_begin < outer.back().body_close) continue;  // nested in the previous one
        if (!outer.empty() && outer.back().block_close == loop.block_close) return std::nullopt;  // in the previous one's tail
        outer.push_back(loop);
    }
    if (outer.empty()) return std::nullopt;
    std::string out = kernel;
    for (auto it = outer.rbegin(); it != outer.rend(); ++it) {  // back to front: earlier offsets stay valid
        const std::string tail = out.substr(it->body_close + 1, it->block_close - it->body_close - 1);
        if (has_code(tail)) out.replace(it->body_close + 1, tail.size(), last_block_only(tail, indent_of_line(out, it->header_begin)));
        const std::string header = "for (" + it->type + " " + it->index + " = AscendC::GetBlockIdx(); " + it->index + " < " + it->bound + "; " + it->index +
                                   " += AscendC::GetBlockNum())";
        out.replace(it->header_begin, it->header_end - it->header_begin, header);
    }
    return out;
}

std::optional<CandidateFiles> split_over_cores(const CandidateFiles& files) {
    if (!kernel_replicated_over_blocks(files)) return std::nullopt;
    return edit_files_under(files, "op_kernel/", [](const std::string& text) { return split_tile_loops(text).value_or(text); });
}

}  // namespace ascendopt
