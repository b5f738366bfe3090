#include "agent/reply_parser.h"

#include <optional>
#include <regex>

#include "agent/lines.h"

namespace ascendopt {
namespace {

bool is_marker(const std::string& line, char c, const char* word) {
    const std::string t = trim_blanks(line);
    size_t n = 0;
    while (n < t.size() && t[n] == c) ++n;
    if (n < 5 || n > 9) return false;
    return trim_blanks(t.substr(n)) == word;
}
bool is_search(const std::string& l) { return is_marker(l, '<', "SEARCH"); }
bool is_divider(const std::string& l) { return is_marker(l, '=', ""); }
bool is_replace(const std::string& l) { return is_marker(l, '>', "REPLACE"); }
bool is_fence(const std::string& l) { return trim_blanks(l).rfind("```", 0) == 0; }

// A file path in free text: "op_kernel/add.cpp", "`op_kernel/add.cpp`:", "File: add.cpp", "**x.h**".
std::optional<std::string> path_in(const std::string& text) {
    static const std::regex path(R"(^(?:(?:file|path|filename)\s*[:=]\s*)?[`*"']*([A-Za-z0-9_.\-/]+\.(?:cpp|cc|cxx|h|hpp|c|toml|json|py|txt|md))[`*"']*:?$)",
                                 std::regex::icase);
    std::smatch m;
    const std::string t = trim_blanks(text);
    if (std::regex_match(t, m, path)) return m[1].str();
    return std::nullopt;
}

// The path in a fence's info string: "```cpp op_kernel/add.cpp" or "```op_kernel/add.cpp".
std::optional<std::string> path_in_fence(const std::string& fence) {
    std::string info = trim_blanks(trim_blanks(fence).substr(3));
    const size_t space = info.find_last_of(" \t");
    if (space != std::string::npos) info = info.substr(space + 1);
    if (info.rfind("path=", 0) == 0 || info.rfind("file=", 0) == 0) info = info.substr(5);
    if (info.find('.') == std::string::npos) return std::nullopt;
    return path_in(info);
}

// The file named just before line `i`: the nearest non-blank line, looking through fences.
std::optional<std::string> file_before(const std::vector<std::string>& lines, size_t i) {
    while (i > 0) {
        const std::string& l = lines[--i];
        if (trim_blanks(l).empty()) continue;
        if (is_fence(l)) {
            if (auto p = path_in_fence(l)) return p;
            continue;
        }
        return path_in(l);
    }
    return std::nullopt;
}

std::string join(const std::vector<std::string>& lines, size_t from, size_t to) {
    std::string out;
    for (size_t i = from; i < to; ++i) out += lines[i] + "\n";
    return out;
}

// Reads the SEARCH/REPLACE block starting at lines[i]; returns the index after it.
size_t read_block(const std::vector<std::string>& lines, size_t i, size_t limit, std::string& last_file, ParsedReply& out) {
    SearchReplace edit;
    edit.line = i + 1;
    if (auto f = file_before(lines, i)) last_file = *f;
    edit.file = last_file;
    size_t divider = i + 1;
    while (divider < limit && !is_divider(lines[divider]) && !is_search(lines[divider]) && !is_replace(lines[divider])) ++divider;
    if (divider == limit || !is_divider(lines[divider])) {
        out.problems.push_back("line " + std::to_string(edit.line) + ": a SEARCH block without its ======= line");
        return divider;
    }
    size_t end = divider + 1;
    while (end < limit && !is_replace(lines[end]) && !is_search(lines[end]) && !is_divider(lines[end])) ++end;
    if (end == limit || !is_replace(lines[end])) {
        out.problems.push_back("line " + std::to_string(edit.line) + ": a SEARCH block without its >>>>>>> REPLACE line");
        return end;
    }
    if (edit.file.empty())
        out.problems.push_back("line " + std::to_string(edit.line) + ": a SEARCH block that names no file (put the path on the line before it)");
    edit.search = join(lines, i + 1, divider);
    edit.replace = join(lines, divider + 1, end);
    out.edits.push_back(std::move(edit));
    return end + 1;
}

// Reads the fenced block opening at lines[i] as a whole file; returns the index after it.
void read_fenced(const std::vector<std::string>& lines, size_t i, size_t end, ParsedReply& out) {
    WholeFile f;
    f.line = i + 1;
    size_t body = i + 1;
    std::optional<std::string> name = path_in_fence(lines[i]);
    if (!name) name = file_before(lines, i);
    if (!name && body < end) {
        static const std::regex comment(R"(^\s*(?://|#|/\*)\s*(?:file:?\s*)?([A-Za-z0-9_.\-/]+)\s*(?:\*/)?\s*$)", std::regex::icase);
        std::smatch m;
        if (std::regex_match(lines[body], m, comment) && path_in(m[1].str())) name = m[1].str();
    }
    f.content = join(lines, body, end);
    if (name) {
        f.file = *name;
        out.files.push_back(std::move(f));
    } else {
        out.unnamed.push_back(std::move(f));
    }
}

// The closing fence of the block opened at lines[i] (lines.size() when unclosed).
size_t closing_fence(const std::vector<std::string>& lines, size_t i) {
    size_t end = i + 1;
    while (end < lines.size() && trim_blanks(lines[end]) != "```") ++end;
    return end;
}

// Reads the SEARCH/REPLACE blocks in lines[from, to).
void read_blocks(const std::vector<std::string>& lines, size_t from, size_t to, std::string& last_file, ParsedReply& out) {
    for (size_t i = from; i < to;) {
        if (is_search(lines[i])) i = read_block(lines, i, to, last_file, out);
        else ++i;
    }
}

}  // namespace

ParsedReply parse_reply(const std::string& reply) {
    const std::vector<std::string> lines = split_lines(reply);
    ParsedReply out;
    std::string last_file;
    size_t i = 0;
    while (i < lines.size()) {
        if (!is_fence(lines[i]) && !is_search(lines[i])) {
            ++i;
            continue;
        }
        if (is_search(lines[i])) {  // a block outside any fence
            size_t next_fence = i;
            while (next_fence < lines.size() && !is_fence(lines[next_fence])) ++next_fence;
            read_blocks(lines, i, next_fence, last_file, out);
            i = next_fence;
            continue;
        }
        const size_t end = closing_fence(lines, i);
        bool has_markers = false;
        for (size_t j = i + 1; j < end && !has_markers; ++j) has_markers = is_search(lines[j]);
        if (has_markers) read_blocks(lines, i + 1, end, last_file, out);
        else read_fenced(lines, i, end, out);
        i = end + 1;
    }
    return out;
}

}  // namespace ascendopt
