#include "agent/edit_apply.h"

#include <algorithm>
#include <optional>

#include "agent/lines.h"

namespace ascendopt {
namespace {

using Lines = std::vector<std::string>;

std::string join(const Lines& lines, bool crlf, bool final_newline) {
    std::string out;
    for (size_t i = 0; i < lines.size(); ++i) {
        out += lines[i];
        if (i + 1 < lines.size() || final_newline) out += crlf ? "\r\n" : "\n";
    }
    return out;
}

std::string indent_of(const std::string& s) { return s.substr(0, std::min(s.size(), s.find_first_not_of(" \t"))); }

// Starts of every window of `file` equal to `search` under `same`.
template <class Same>
std::vector<size_t> find_all(const Lines& file, const Lines& search, Same same) {
    std::vector<size_t> at;
    for (size_t i = 0; search.size() <= file.size() && i + search.size() <= file.size(); ++i) {
        bool match = true;
        for (size_t j = 0; j < search.size() && match; ++j) match = same(file[i + j], search[j]);
        if (match) at.push_back(i);
    }
    return at;
}

// Share of equal characters between two lines (a cheap similarity for "closest match").
double line_similarity(const std::string& a, const std::string& b) {
    const std::string x = trim_blanks(a), y = trim_blanks(b);
    if (x.empty() && y.empty()) return 1;
    size_t prefix = 0;
    while (prefix < x.size() && prefix < y.size() && x[prefix] == y[prefix]) ++prefix;
    size_t suffix = 0;
    while (suffix < x.size() - prefix && suffix < y.size() - prefix && x[x.size() - 1 - suffix] == y[y.size() - 1 - suffix]) ++suffix;
    return double(prefix + suffix) / double(std::max(x.size(), y.size()));
}

std::string closest_match(const Lines& file, const Lines& search) {
    if (file.empty()) return "the file is empty";
    double best = -1;
    size_t best_at = 0;
    const size_t window = std::min(search.size(), file.size());
    for (size_t i = 0; i + window <= file.size(); ++i) {
        double score = 0;
        for (size_t j = 0; j < window; ++j) score += line_similarity(file[i + j], search[j]);
        if (score > best) best = score, best_at = i;
    }
    std::string out = "closest is lines " + std::to_string(best_at + 1) + "-" + std::to_string(best_at + window) + " (" +
                      std::to_string(int(100 * best / double(search.size()))) + "% similar)";
    for (size_t j = 0; j < window; ++j) {
        if (file[best_at + j] == search[j]) continue;
        out += "; first difference at line " + std::to_string(best_at + j + 1) + ": the file has `" + trim_blanks(file[best_at + j]) +
               "`, the SEARCH has `" + trim_blanks(search[j]) + "`";
        break;
    }
    return out + ":\n" + join(Lines(file.begin() + long(best_at), file.begin() + long(best_at + window)), false, true);
}

// Re-indents `lines` by replacing the prefix `from` with `to` where it starts a line.
Lines reindent(const Lines& lines, const std::string& from, const std::string& to) {
    Lines out;
    for (const auto& l : lines) {
        if (trim_blanks(l).empty()) out.push_back(l);
        else if (l.rfind(from, 0) == 0) out.push_back(to + l.substr(from.size()));
        else out.push_back(to + trim_blanks(l));
    }
    return out;
}

Lines strip_blank_ends(Lines lines) {
    while (!lines.empty() && trim_blanks(lines.back()).empty()) lines.pop_back();
    while (!lines.empty() && trim_blanks(lines.front()).empty()) lines.erase(lines.begin());
    return lines;
}

// The files a reply is being applied to, with what went wrong so far.
struct EditedFiles {
    std::map<std::string, std::string> files;
    std::vector<std::string> problems;
    std::vector<std::string> notes;
    ReplyStatus worst = ReplyStatus::applied;
    void fail(ReplyStatus s, std::string why) {
        if (worst == ReplyStatus::applied) worst = s;
        problems.push_back(std::move(why));
    }
};

bool editable(const std::string& path) {
    if (path.empty() || path[0] == '/' || path.find("..") != std::string::npos) return false;
    return path.rfind("op_kernel/", 0) == 0 || path.rfind("op_host/", 0) == 0;
}

std::string file_list(const EditedFiles& w) {
    std::string out;
    for (const auto& [p, c] : w.files)
        if (editable(p)) out += (out.empty() ? "" : ", ") + p;
    return out;
}

// The candidate's path for a name in the reply: exact, without "./", or a unique basename.
std::optional<std::string> resolve(const EditedFiles& w, std::string name) {
    while (name.rfind("./", 0) == 0) name = name.substr(2);
    if (w.files.count(name)) return name;
    std::optional<std::string> found;
    for (const auto& [p, c] : w.files) {
        const bool same_tail = p.size() > name.size() && p.compare(p.size() - name.size(), name.size(), name) == 0 &&
                               p[p.size() - name.size() - 1] == '/';
        if (!same_tail) continue;
        if (found) return std::nullopt;  // two files end the same way: ambiguous
        found = p;
    }
    return found;
}

void apply_edit(EditedFiles& w, const SearchReplace& e, size_t index) {
    const std::string where = "SEARCH/REPLACE block " + std::to_string(index) + " (reply line " + std::to_string(e.line) + ")";
    if (e.file.empty()) return;  // already a parse problem
    const auto path = resolve(w, e.file);
    const Lines search = strip_blank_ends(split_lines(e.search));
    if (!path) {
        if (!search.empty()) return w.fail(ReplyStatus::unknown_file, where + " edits " + e.file + ", which does not exist; the files are: " + file_list(w));
        if (!editable(e.file)) return w.fail(ReplyStatus::outside_operator, where + " creates " + e.file + ", outside op_kernel/ and op_host/");
        w.files[e.file] = e.replace;  // an empty SEARCH creates the file
        return;
    }
    if (!editable(*path)) return w.fail(ReplyStatus::outside_operator, where + " edits " + *path + "; only op_kernel/ and op_host/ may change");
    std::string& text = w.files[*path];
    const bool crlf = text.find("\r\n") != std::string::npos;
    const bool final_newline = !text.empty() && text.back() == '\n';
    Lines file = split_lines(text);
    Lines replace = split_lines(e.replace);
    if (search.empty()) return w.fail(ReplyStatus::malformed, where + " for existing file " + *path + " has an empty SEARCH");
    auto at = find_all(file, search, [](const std::string& a, const std::string& b) { return a == b; });
    if (at.empty()) {
        at = find_all(file, search, [](const std::string& a, const std::string& b) { return trim_blanks(a) == trim_blanks(b); });
        if (at.size() == 1) {
            const size_t first = size_t(std::find_if(search.begin(), search.end(), [](auto& l) { return !trim_blanks(l).empty(); }) - search.begin());
            replace = reindent(replace, indent_of(search[first]), indent_of(file[at[0] + first]));
            w.notes.push_back(where + ": indentation differed from " + *path + "; the replacement was re-indented to match");
        }
    }
    if (at.empty()) return w.fail(ReplyStatus::search_mismatch, where + ": the SEARCH text is not in " + *path + "; " + closest_match(file, search));
    if (at.size() > 1)
        return w.fail(ReplyStatus::ambiguous, where + ": the SEARCH text matches " + std::to_string(at.size()) + " places in " + *path +
                                                  " (lines " + std::to_string(at[0] + 1) + " and " + std::to_string(at[1] + 1) +
                                                  "); include more lines so it matches one");
    file.erase(file.begin() + long(at[0]), file.begin() + long(at[0] + search.size()));
    file.insert(file.begin() + long(at[0]), replace.begin(), replace.end());
    text = join(file, crlf, final_newline);
}

void apply_whole(EditedFiles& w, const WholeFile& f) {
    const auto path = resolve(w, f.file);
    const std::string target = path ? *path : f.file;
    if (!editable(target))
        return w.fail(ReplyStatus::outside_operator, "the code block at reply line " + std::to_string(f.line) + " is for " + f.file +
                                                         ", outside op_kernel/ and op_host/; the files are: " + file_list(w));
    const bool crlf = path && w.files[target].find("\r\n") != std::string::npos;
    w.files[target] = crlf ? join(split_lines(f.content), true, true) : f.content;
}

// An unnamed code block stands for the kernel only when that is unambiguous.
void apply_unnamed(EditedFiles& w, const ParsedReply& parsed) {
    std::vector<std::string> kernels;
    for (const auto& [p, c] : w.files)
        if (p.rfind("op_kernel/", 0) == 0) kernels.push_back(p);
    if (parsed.unnamed.size() == 1 && parsed.edits.empty() && parsed.files.empty() && kernels.size() == 1) {
        w.files[kernels[0]] = parsed.unnamed[0].content;
        w.notes.push_back("the reply's only code block names no file; it was taken as " + kernels[0]);
    } else if (parsed.edits.empty() && parsed.files.empty()) {
        w.fail(ReplyStatus::malformed, "the reply's code blocks name no file; name it in the fence (```cpp op_kernel/x.cpp) or use SEARCH/REPLACE blocks");
    }
}

}  // namespace

const char* to_string(ReplyStatus s) {
    switch (s) {
        case ReplyStatus::applied: return "applied";
        case ReplyStatus::no_code: return "no_code";
        case ReplyStatus::malformed: return "malformed";
        case ReplyStatus::unknown_file: return "unknown_file";
        case ReplyStatus::outside_operator: return "outside_operator";
        case ReplyStatus::search_mismatch: return "search_mismatch";
        case ReplyStatus::ambiguous: return "ambiguous";
    }
    return "?";
}

AppliedReply apply_reply(const std::string& reply, const std::map<std::string, std::string>& files) {
    const ParsedReply parsed = parse_reply(reply);
    AppliedReply out;
    if (parsed.empty() && parsed.problems.empty()) {
        out.status = ReplyStatus::no_code;
        out.reason = "the reply holds no code: answer with SEARCH/REPLACE blocks or a whole file in a fenced block naming its path";
        return out;
    }
    EditedFiles w{files, {}, {}, ReplyStatus::applied};
    for (const auto& p : parsed.problems) w.fail(ReplyStatus::malformed, p);
    for (size_t i = 0; i < parsed.edits.size(); ++i) apply_edit(w, parsed.edits[i], i + 1);
    for (const auto& f : parsed.files) apply_whole(w, f);
    if (!parsed.unnamed.empty()) apply_unnamed(w, parsed);
    out.notes = w.notes;
    out.status = w.worst;
    if (!out.ok()) {
        for (const auto& p : w.problems) out.reason += (out.reason.empty() ? "" : "\n") + p;
        return out;
    }
    for (const auto& [p, c] : w.files) {
        const auto before = files.find(p);
        if (before != files.end() && before->second == c) continue;
        out.changed.push_back(p);
        out.touches_kernel |= p.rfind("op_kernel/", 0) == 0;
        out.touches_host |= p.rfind("op_host/", 0) == 0;
    }
    if (out.changed.empty()) {
        out.status = ReplyStatus::no_code;
        out.reason = "the reply's edits change nothing";
        return out;
    }
    out.files = std::move(w.files);
    return out;
}

}  // namespace ascendopt
