#include "agent/hunks.h"

#include <algorithm>
#include <cstdio>

#include "agent/lines.h"
#include "util/files.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

// "@@ -a,b +c,d @@" -> a and c (a count may be omitted when it is 1).
bool parse_header(const std::string& line, size_t& old_start, size_t& new_start) {
    unsigned long a = 0, c = 0;
    if (std::sscanf(line.c_str(), "@@ -%lu", &a) != 1) return false;
    const size_t plus = line.find(" +");
    if (plus == std::string::npos || std::sscanf(line.c_str() + plus, " +%lu", &c) != 1) return false;
    old_start = a, new_start = c;
    return true;
}

std::vector<Hunk> parse_unified(const std::string& file, const std::string& diff) {
    std::vector<Hunk> hunks;
    const std::string header = "--- a/" + file + "\n+++ b/" + file + "\n";
    for (const auto& line : split_lines(diff)) {
        if (line.rfind("@@", 0) == 0) {
            Hunk h;
            h.file = file;
            if (!parse_header(line, h.old_start, h.new_start)) continue;
            h.text = header + line + "\n";
            hunks.push_back(std::move(h));
            continue;
        }
        if (hunks.empty() || line.empty() || line.rfind("---", 0) == 0 || line.rfind("+++", 0) == 0 || line[0] == '\\') continue;
        Hunk& h = hunks.back();
        const std::string body = line.substr(1);
        if (line[0] == ' ' || line[0] == '-') h.old_lines.push_back(body);
        if (line[0] == ' ' || line[0] == '+') h.new_lines.push_back(body);
        h.text += line + "\n";
    }
    return hunks;
}

std::string lines_with(const std::string& text, char mark) {
    std::string out;
    for (const auto& line : split_lines(text))
        if (!line.empty() && line[0] == mark && line.rfind(std::string(3, mark), 0) != 0) out += line.substr(1) + "\n";
    return out;
}

}  // namespace

std::string Hunk::removed() const { return lines_with(text, '-'); }
std::string Hunk::added() const { return lines_with(text, '+'); }

Result<std::vector<Hunk>> diff_hunks(const CandidateFiles& older, const CandidateFiles& newer, std::vector<std::string>* skipped) {
    if (!find_program("diff")) return Error{"the diff tool (GNU diffutils) is not installed", "apt-get install diffutils", "", true};
    auto dir = make_temp_dir(fs::temp_directory_path(), "ascendopt-diff");
    if (!dir) return dir.error();
    ScratchDir scratch(*dir);
    std::vector<Hunk> all;
    for (const auto& [file, text] : newer) {
        const auto old = older.find(file);
        if (old == older.end()) {
            if (skipped) skipped->push_back(file);
            continue;
        }
        if (old->second == text) continue;
        if (auto s = write_atomic(*dir / "a", old->second); !s) return s.error();
        if (auto s = write_atomic(*dir / "b", text); !s) return s.error();
        ProcessOptions o;
        o.keep_bytes = 8 << 20;
        o.separate_stderr = true;
        const ProcessResult r = run_process({"diff", "-U3", (*dir / "a").string(), (*dir / "b").string()}, o);
        if (!r.started || r.exit_code > 1) return make_error("diff failed on " + file + ": " + r.describe_end(), "", r.error_output);
        for (auto& h : parse_unified(file, r.output)) all.push_back(std::move(h));
    }
    for (const auto& [file, text] : older)
        if (!newer.count(file) && skipped) skipped->push_back(file);
    return all;
}

CandidateFiles revert_hunks(const CandidateFiles& newer, const std::vector<const Hunk*>& hunks) {
    CandidateFiles out = newer;
    // Later hunks first, so that earlier line numbers stay valid.
    std::vector<const Hunk*> order = hunks;
    std::sort(order.begin(), order.end(), [](const Hunk* a, const Hunk* b) { return a->file != b->file ? a->file < b->file : a->new_start > b->new_start; });
    for (const Hunk* h : order) {
        std::string& text = out.at(h->file);
        const bool final_newline = !text.empty() && text.back() == '\n';
        std::vector<std::string> lines = split_lines(text);
        const size_t at = h->new_start == 0 ? 0 : h->new_start - 1;
        const size_t count = std::min(h->new_lines.size(), lines.size() - std::min(at, lines.size()));
        lines.erase(lines.begin() + long(at), lines.begin() + long(at + count));
        lines.insert(lines.begin() + long(at), h->old_lines.begin(), h->old_lines.end());
        text.clear();
        for (size_t i = 0; i < lines.size(); ++i) text += lines[i] + (i + 1 < lines.size() || final_newline ? "\n" : "");
    }
    return out;
}

std::string unified_diff(const CandidateFiles& older, const CandidateFiles& newer) {
    auto hunks = diff_hunks(older, newer);
    if (!hunks) return "";
    std::string out;
    for (const auto& h : *hunks) out += h.text;
    return out;
}

}  // namespace ascendopt
