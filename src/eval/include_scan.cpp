#include "eval/include_scan.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>
#include <set>

#include "util/files.h"

namespace ascendopt {

namespace fs = std::filesystem;

bool path_within(const fs::path& path, const fs::path& dir) {
    const fs::path rel = path.lexically_normal().lexically_relative(dir.lexically_normal());
    return !rel.empty() && *rel.begin() != "..";
}

namespace {

bool under_a_root(const fs::path& p, const IncludeSearch& search) {
    for (const auto& r : search.roots)
        if (path_within(p, r)) return true;
    return false;
}

bool is_file(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

}  // namespace

fs::path resolve_include(const std::string& name, bool quoted, const fs::path& includer, const IncludeSearch& search) {
    if (name.empty() || fs::path(name).is_absolute()) return {};
    if (quoted) {
        const fs::path beside = (includer.parent_path() / name).lexically_normal();
        if (is_file(beside)) return beside;
    }
    for (const auto& d : search.dirs) {
        const fs::path p = (d / name).lexically_normal();
        if (is_file(p)) return p;
    }
    return {};
}

namespace {

// Reads a source text the way translation phases 1 to 4 see it, far enough to find its include
// directives. A line that reads differently to a regular expression (a digraph, a comment
// between `#` and `include`, a splice inside the word) is read as the compiler reads it, so no
// header the build reads is missing from what is screened and cached.
class DirectiveScanner {
public:
    explicit DirectiveScanner(const std::string& raw) : m_raw(raw) { join_splices(); }

    std::vector<IncludeDirective> run() {
        std::vector<IncludeDirective> out;
        bool line_start = true;  // only blanks and comments since the last newline
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == '\n') {
                line_start = true;
                ++m_pos;
                continue;
            }
            if (std::isspace(static_cast<unsigned char>(c))) {
                ++m_pos;
                continue;
            }
            if (skip_comment()) continue;
            if (line_start && (c == '#' || starts("%:"))) {
                const int line = m_line[m_pos];
                m_pos += c == '#' ? 1 : 2;
                if (auto d = include_after_hash(line)) out.push_back(std::move(*d));
            } else {
                skip_token();
            }
            line_start = false;
        }
        return out;
    }

private:
    void join_splices() {
        int line = 1;
        for (size_t i = 0; i < m_raw.size(); ++i) {
            if (m_raw[i] == '\\' && i + 1 < m_raw.size() &&
                (m_raw[i + 1] == '\n' || (m_raw[i + 1] == '\r' && i + 2 < m_raw.size() && m_raw[i + 2] == '\n'))) {
                i += m_raw[i + 1] == '\r' ? 2 : 1;
                ++line;
                continue;
            }
            m_text += m_raw[i];
            m_line.push_back(line);
            m_at.push_back(i);
            if (m_raw[i] == '\n') ++line;
        }
    }
    bool starts(const char* s) const { return m_text.compare(m_pos, std::char_traits<char>::length(s), s) == 0; }
    static bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

    // A comment at m_pos is skipped (a block comment may span lines, as one blank); false if none.
    bool skip_comment() {
        if (starts("//")) {
            while (m_pos < m_text.size() && m_text[m_pos] != '\n') ++m_pos;
            return true;
        }
        if (starts("/*")) {
            const size_t end = m_text.find("*/", m_pos + 2);
            m_pos = end == std::string::npos ? m_text.size() : end + 2;
            return true;
        }
        return false;
    }
    // Blanks and comments up to the next word, without leaving the line.
    void skip_blanks_in_line() {
        while (m_pos < m_text.size() && m_text[m_pos] != '\n') {
            if (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\r' || m_text[m_pos] == '\f' || m_text[m_pos] == '\v') ++m_pos;
            else if (!starts("//") && skip_comment()) continue;
            else break;
        }
    }
    // After a directive's `#`: the include it makes, if it makes one by a literal name.
    std::optional<IncludeDirective> include_after_hash(int line) {
        skip_blanks_in_line();
        const size_t word = m_pos;
        while (m_pos < m_text.size() && ident_char(m_text[m_pos])) ++m_pos;
        const std::string name = m_text.substr(word, m_pos - word);
        if (name != "include" && name != "include_next" && name != "import") return std::nullopt;
        skip_blanks_in_line();
        if (m_pos >= m_text.size() || (m_text[m_pos] != '"' && m_text[m_pos] != '<')) return std::nullopt;
        const char close = m_text[m_pos] == '"' ? '"' : '>';
        const size_t end = m_text.find_first_of(std::string(1, close) + "\n", m_pos + 1);
        if (end == std::string::npos || m_text[end] != close) return std::nullopt;
        IncludeDirective d{m_text.substr(m_pos + 1, end - m_pos - 1), close == '"', line};
        m_pos = end + 1;
        return d;
    }
    // One token that is not a comment or directive: literals whole, so that nothing inside them
    // counts; a number whole, so that a digit separator (1'000) is not a character literal.
    void skip_token() {
        const char c = m_text[m_pos];
        if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && m_pos + 1 < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos + 1])))) {
            for (++m_pos; m_pos < m_text.size(); ++m_pos) {
                const char d = m_text[m_pos];
                const bool sign = (d == '+' || d == '-') && std::strchr("eEpP", m_text[m_pos - 1]);
                const bool separator = d == '\'' && m_pos + 1 < m_text.size() && ident_char(m_text[m_pos + 1]);
                if (!ident_char(d) && d != '.' && !separator && !sign) break;
            }
        } else if (ident_char(c)) {
            const size_t start = m_pos;
            while (m_pos < m_text.size() && ident_char(m_text[m_pos])) ++m_pos;
            const std::string word = m_text.substr(start, m_pos - start);
            if (m_pos < m_text.size() && m_text[m_pos] == '"' && !word.empty() && word.back() == 'R' &&
                (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR"))
                skip_raw_string();
            // Other prefixes (u8, L, ...) leave their literal to the next call.
        } else if (c == '"' || c == '\'') {
            skip_quoted(c);
        } else {
            ++m_pos;
        }
    }
    // A string or character literal ends at its closing quote or, unterminated, at the line's end.
    void skip_quoted(char q) {
        for (++m_pos; m_pos < m_text.size() && m_text[m_pos] != q && m_text[m_pos] != '\n'; ++m_pos)
            if (m_text[m_pos] == '\\') ++m_pos;
        if (m_pos < m_text.size() && m_text[m_pos] == q) ++m_pos;
    }
    // R"delim( ... )delim", which may span lines; m_pos is at its opening quote. The compiler
    // undoes line splices inside a raw string, so its end is looked for in the text as written:
    // a splice inside `)delim"` does not end it.
    void skip_raw_string() {
        const size_t open = m_text.find('(', m_pos);
        const size_t eol = m_text.find('\n', m_pos);
        if (open == std::string::npos || open > eol || open - m_pos > 17) {  // no raw string after all
            ++m_pos;
            return;
        }
        const std::string close = ")" + m_text.substr(m_pos + 1, open - m_pos - 1) + "\"";
        const size_t end = m_raw.find(close, m_at[open]);
        if (end == std::string::npos) {
            m_pos = m_text.size();
            return;
        }
        m_pos = size_t(std::lower_bound(m_at.begin(), m_at.end(), end + close.size()) - m_at.begin());
    }

    const std::string& m_raw;  // the text as written
    std::string m_text;        // the text with line splices joined
    std::vector<int> m_line;   // the physical line of each of its characters
    std::vector<size_t> m_at;  // and its offset in m_raw
    size_t m_pos = 0;
};

}  // namespace

std::vector<IncludeDirective> include_directives(const std::string& text) { return DirectiveScanner(text).run(); }

std::vector<std::pair<std::string, bool>> includes_of(const std::string& text) {
    std::vector<std::pair<std::string, bool>> out;
    for (auto& d : include_directives(text)) out.emplace_back(std::move(d.name), d.quoted);
    return out;
}

std::vector<fs::path> include_closure(const std::vector<fs::path>& start, const IncludeSearch& search) {
    std::set<fs::path> seen;
    for (const auto& f : start) seen.insert(f.lexically_normal());
    std::vector<fs::path> order;
    std::vector<fs::path> todo(start.begin(), start.end());
    while (!todo.empty()) {
        const fs::path f = todo.back();
        todo.pop_back();
        const auto text = read_text(f);
        if (!text) continue;
        for (const auto& [name, quoted] : includes_of(*text)) {
            const fs::path found = resolve_include(name, quoted, f, search);
            if (found.empty() || !under_a_root(found, search) || !seen.insert(found).second) continue;
            order.push_back(found);
            todo.push_back(found);
        }
    }
    return order;
}

}  // namespace ascendopt
