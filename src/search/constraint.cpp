#include "search/constraint.h"

#include <cctype>
#include <regex>
#include <sstream>

#include "util/files.h"

namespace ascendopt {
namespace {

// Recursive descent over: or -> and ('||' and)*; and -> cmp ('&&' cmp)*; cmp -> sum (op sum)?;
// sum -> prod (('+'|'-') prod)*; prod -> unary (('*'|'/'|'%') unary)*; unary -> ('!'|'-')? atom.
class Parser {
public:
    Parser(const std::string& s, const std::map<std::string, int64_t>& vars) : m_s(s), m_vars(vars) {}

    Result<int64_t> parse() {
        const int64_t v = parse_or();
        skip();
        if (m_error.empty() && m_pos != m_s.size()) m_error = "unexpected '" + m_s.substr(m_pos, 1) + "'";
        if (!m_error.empty()) return make_error("constraint '" + m_s + "': " + m_error);
        return v;
    }

private:
    void skip() {
        while (m_pos < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_pos]))) ++m_pos;
    }
    bool take(const char* tok) {
        skip();
        const size_t n = std::char_traits<char>::length(tok);
        if (m_s.compare(m_pos, n, tok) != 0) return false;
        m_pos += n;
        return true;
    }
    int64_t parse_or() {
        int64_t v = parse_and();
        while (take("||")) v = (parse_and() != 0) || v != 0;
        return v;
    }
    int64_t parse_and() {
        int64_t v = parse_cmp();
        while (take("&&")) v = (parse_cmp() != 0) && v != 0;
        return v;
    }
    int64_t parse_cmp() {
        const int64_t a = parse_sum();
        if (take("<=")) return a <= parse_sum();
        if (take(">=")) return a >= parse_sum();
        if (take("==")) return a == parse_sum();
        if (take("!=")) return a != parse_sum();
        if (take("<")) return a < parse_sum();
        if (take(">")) return a > parse_sum();
        return a;
    }
    int64_t parse_sum() {
        int64_t v = parse_prod();
        for (;;) {
            if (take("+")) v += parse_prod();
            else if (take("-")) v -= parse_prod();
            else return v;
        }
    }
    int64_t parse_prod() {
        int64_t v = parse_unary();
        for (;;) {
            if (take("*")) v *= parse_unary();
            else if (take("/") || take("%")) {
                const bool div = m_s[m_pos - 1] == '/';
                const int64_t d = parse_unary();
                if (d == 0) {
                    if (m_error.empty()) m_error = "division by zero";
                    return 0;
                }
                v = div ? v / d : v % d;
            } else return v;
        }
    }
    int64_t parse_unary() {
        if (take("!")) return parse_unary() == 0;
        if (take("-")) return -parse_unary();
        return parse_atom();
    }
    int64_t parse_atom() {
        skip();
        if (take("(")) {
            const int64_t v = parse_or();
            if (!take(")") && m_error.empty()) m_error = "missing ')'";
            return v;
        }
        const size_t start = m_pos;
        if (m_pos < m_s.size() && std::isdigit(static_cast<unsigned char>(m_s[m_pos]))) {
            while (m_pos < m_s.size() && std::isdigit(static_cast<unsigned char>(m_s[m_pos]))) ++m_pos;
            return std::stoll(m_s.substr(start, m_pos - start));
        }
        while (m_pos < m_s.size() && (std::isalnum(static_cast<unsigned char>(m_s[m_pos])) || m_s[m_pos] == '_')) ++m_pos;
        const std::string name = m_s.substr(start, m_pos - start);
        if (name.empty()) {
            if (m_error.empty()) m_error = "expected a number or a name at '" + m_s.substr(start) + "'";
            return 0;
        }
        const auto it = m_vars.find(name);
        if (it == m_vars.end()) {
            if (m_error.empty()) m_error = "unknown name '" + name + "'";
            return 0;
        }
        return it->second;
    }

    const std::string& m_s;
    const std::map<std::string, int64_t>& m_vars;
    size_t m_pos = 0;
    std::string m_error;
};

}  // namespace

Result<int64_t> evaluate_expression(const std::string& expr, const std::map<std::string, int64_t>& vars) {
    return Parser(expr, vars).parse();
}

std::vector<Constraint> find_constraints(const OperatorSource& op) {
    static const std::regex marker(R"(//\s*ascendopt:\s*constraint\s+(.+?)\s*$)");
    std::vector<Constraint> out;
    for (const auto* list : {&op.host_sources, &op.kernel_sources})
        for (const auto& f : *list) {
            auto text = read_text(f);
            if (!text) continue;
            std::istringstream in(*text);
            int n = 0;
            for (std::string line; std::getline(in, line);) {
                ++n;
                std::smatch m;
                if (std::regex_search(line, m, marker))
                    out.push_back({m[1].str(), fs::relative(f, op.root).string() + ":" + std::to_string(n)});
            }
        }
    return out;
}

}  // namespace ascendopt
