#include "eval/op_cmake.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "util/files.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

// One command invocation: its name (lowercase) and its arguments as written, each marked
// quoted or not (an unquoted argument that expands to a ;-list is several arguments).
struct Command {
    std::string name;
    struct Arg {
        std::string text;
        bool quoted = false;
    };
    std::vector<Arg> args;
};

// Splits CMake source into command invocations: comments dropped, quoted arguments kept
// whole, nested parentheses kept inside the argument that opens them.
class Lexer {
public:
    explicit Lexer(const std::string& text) : m_t(text) {}

    std::vector<Command> commands() {
        std::vector<Command> out;
        while (skip_space_and_comments(), m_i < m_t.size()) {
            const size_t start = m_i;
            while (m_i < m_t.size() && (std::isalnum(static_cast<unsigned char>(m_t[m_i])) || m_t[m_i] == '_')) ++m_i;
            if (m_i == start) {  // not a command: skip the line
                while (m_i < m_t.size() && m_t[m_i] != '\n') ++m_i;
                continue;
            }
            Command c;
            c.name = m_t.substr(start, m_i - start);
            std::transform(c.name.begin(), c.name.end(), c.name.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
            while (m_i < m_t.size() && (m_t[m_i] == ' ' || m_t[m_i] == '\t')) ++m_i;
            if (m_i >= m_t.size() || m_t[m_i] != '(') continue;
            ++m_i;
            read_args(c);
            out.push_back(std::move(c));
        }
        return out;
    }

private:
    void skip_space_and_comments() {
        while (m_i < m_t.size()) {
            if (std::isspace(static_cast<unsigned char>(m_t[m_i]))) ++m_i;
            else if (m_t[m_i] == '#') skip_comment();
            else break;
        }
    }
    void skip_comment() {
        if (m_t.compare(m_i, 3, "#[[") == 0) {
            const size_t end = m_t.find("]]", m_i);
            m_i = end == std::string::npos ? m_t.size() : end + 2;
            return;
        }
        while (m_i < m_t.size() && m_t[m_i] != '\n') ++m_i;
    }
    void read_args(Command& c) {
        int depth = 0;
        while (m_i < m_t.size()) {
            const char ch = m_t[m_i];
            if (std::isspace(static_cast<unsigned char>(ch))) { ++m_i; continue; }
            if (ch == '#') { skip_comment(); continue; }
            if (ch == ')' && depth == 0) { ++m_i; return; }
            if (ch == '"') { c.args.push_back({quoted(), true}); continue; }
            std::string arg;
            while (m_i < m_t.size()) {
                const char d = m_t[m_i];
                if (std::isspace(static_cast<unsigned char>(d)) && depth == 0) break;
                if (d == '(') ++depth;
                if (d == ')') {
                    if (depth == 0) break;
                    --depth;
                }
                if (d == '"' && depth == 0) break;
                arg += d;
                ++m_i;
            }
            if (!arg.empty()) c.args.push_back({arg, false});
        }
    }
    std::string quoted() {
        std::string s;
        ++m_i;
        while (m_i < m_t.size() && m_t[m_i] != '"') {
            if (m_t[m_i] == '\\' && m_i + 1 < m_t.size()) ++m_i;
            s += m_t[m_i++];
        }
        ++m_i;
        return s;
    }

    const std::string& m_t;
    size_t m_i = 0;
};

bool is_host_target(const std::string& t) {
    static const std::set<std::string> host = {"optiling", "opsproto", "op_host_aclnn", "op_host_aclnnInner", "op_host_aclnnExc", "op_host_aclnnExclude"};
    return host.count(t) > 0;
}

bool is_scope_keyword(const std::string& a) {
    return a == "PRIVATE" || a == "PUBLIC" || a == "INTERFACE" || a == "SYSTEM" || a == "BEFORE" || a == "AFTER";
}

// A shell-style pattern of one path component (* and ?) as a regex.
std::regex component_regex(const std::string& pattern) {
    std::string re;
    for (char c : pattern) {
        if (c == '*') re += "[^/]*";
        else if (c == '?') re += "[^/]";
        else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') re += c;
        else re += std::string("\\") + c;
    }
    return std::regex(re);
}

class Reader {
public:
    Reader(fs::path op_dir, const std::optional<fs::path>& checkout) : m_dir(std::move(op_dir)) {
        m_vars["CMAKE_CURRENT_SOURCE_DIR"] = m_dir.string();
        m_vars["CMAKE_CURRENT_LIST_DIR"] = m_dir.string();
        if (checkout) {
            m_vars["CMAKE_SOURCE_DIR"] = checkout->string();
            m_vars["PROJECT_SOURCE_DIR"] = checkout->string();
            m_vars["OP_COMMON_DIR"] = (*checkout / "src" / "common").string();
            m_common_inc = *checkout / "src" / "common" / "inc";
        }
    }

    OpCmakePlan run(const std::vector<Command>& commands) {
        for (const auto& c : commands) apply(c);
        return std::move(m_plan);
    }
    // Variables the file used that nobody set.
    const std::set<std::string>& unknown() const { return m_unknown; }
    const fs::path& common_inc() const { return m_common_inc; }

private:
    void apply(const Command& c) {
        const auto args = expand(c.args);
        if (c.name == "set" && !args.empty()) {
            std::vector<std::string> values(args.begin() + 1, args.end());
            while (!values.empty() && (values.back() == "PARENT_SCOPE" || values.back() == "FORCE")) values.pop_back();
            const auto cache = std::find(values.begin(), values.end(), "CACHE");
            values.erase(cache, values.end());
            m_lists[args[0]] = values;
            m_vars[args[0]] = join(values);
        } else if (c.name == "list" && args.size() >= 2 && args[0] == "APPEND") {
            auto& l = m_lists[args[1]];
            l.insert(l.end(), args.begin() + 2, args.end());
            m_vars[args[1]] = join(l);
        } else if (c.name == "file" && args.size() >= 2 && (args[0] == "GLOB" || args[0] == "GLOB_RECURSE")) {
            glob(args);
        } else if (c.name == "target_sources" && !args.empty() && is_host_target(args[0])) {
            for (size_t i = 1; i < args.size(); ++i)
                if (!is_scope_keyword(args[i])) add_source(args[i]);
        } else if (c.name == "target_include_directories" && !args.empty() && is_host_target(args[0])) {
            for (size_t i = 1; i < args.size(); ++i)
                if (!is_scope_keyword(args[i])) add_dir(m_plan.host_include_dirs, args[i]);
        } else if (c.name == "target_link_libraries" && !args.empty() && is_host_target(args[0])) {
            // ops_utils_tiling_headers and ops_utils_proto_headers: src/common/inc.
            for (size_t i = 1; i < args.size(); ++i)
                if (args[i].rfind("ops_utils_", 0) == 0 && !m_common_inc.empty()) add_dir(m_plan.host_include_dirs, m_common_inc.string());
        } else if (c.name == "add_ops_compile_options") {
            compile_options(args);
        }
    }

    // Arguments with variables substituted and unquoted lists split. An argument that names an
    // unknown variable or holds a generator expression is dropped, with a note.
    std::vector<std::string> expand(const std::vector<Command::Arg>& raw) {
        static const std::regex var(R"(\$\{([A-Za-z0-9_]+)\})");
        std::vector<std::string> out;
        for (const auto& a : raw) {
            std::string s = a.text;
            bool unknown = false;
            for (int round = 0; round < 8 && s.find("${") != std::string::npos; ++round) {
                std::smatch m;
                std::string next;
                auto begin = s.cbegin();
                while (std::regex_search(begin, s.cend(), m, var)) {
                    next.append(begin, m[0].first);
                    const auto it = m_vars.find(m[1].str());
                    if (it == m_vars.end()) {
                        unknown = true;
                        m_unknown.insert(m[1].str());
                    } else {
                        next += it->second;
                    }
                    begin = m[0].second;
                }
                next.append(begin, s.cend());
                s = next;
            }
            if (unknown || s.find("$<") != std::string::npos) continue;
            if (a.quoted) {
                out.push_back(s);
                continue;
            }
            size_t start = 0;
            while (start <= s.size()) {
                const size_t end = std::min(s.find(';', start), s.size());
                if (end > start) out.push_back(s.substr(start, end - start));
                start = end + 1;
            }
        }
        return out;
    }

    fs::path absolute(const std::string& p) const {
        fs::path path = p;
        if (path.is_relative()) path = m_dir / path;
        return path.lexically_normal();
    }

    void add_source(const std::string& s) {
        const fs::path p = absolute(s);
        const std::string ext = p.extension().string();
        if (ext != ".cpp" && ext != ".cc" && ext != ".cxx") return;  // headers listed as sources
        std::error_code ec;
        if (!fs::is_regular_file(p, ec)) {
            m_plan.notes.push_back("CMakeLists.txt names a host source that does not exist: " + s);
            return;
        }
        if (std::find(m_plan.host_sources.begin(), m_plan.host_sources.end(), p) == m_plan.host_sources.end())
            m_plan.host_sources.push_back(p);
    }

    void add_dir(std::vector<fs::path>& dirs, const std::string& d) {
        const fs::path p = absolute(d);
        std::error_code ec;
        if (!fs::is_directory(p, ec)) return;
        if (std::find(dirs.begin(), dirs.end(), p) == dirs.end()) dirs.push_back(p);
    }

    void glob(const std::vector<std::string>& args) {
        const bool recurse = args[0] == "GLOB_RECURSE";
        const std::string var = args[1];
        std::optional<fs::path> relative;
        std::vector<std::string> found;
        for (size_t i = 2; i < args.size(); ++i) {
            if (args[i] == "RELATIVE" && i + 1 < args.size()) {
                relative = absolute(args[++i]);
                continue;
            }
            if (args[i] == "CONFIGURE_DEPENDS" || args[i] == "LIST_DIRECTORIES" || args[i] == "true" || args[i] == "false") continue;
            const fs::path pattern = absolute(args[i]);
            const std::regex name = component_regex(pattern.filename().string());
            const fs::path dir = pattern.parent_path();
            std::error_code ec;
            if (!fs::is_directory(dir, ec)) continue;
            std::vector<fs::path> matches;
            for (const auto& f : list_files(dir, "", recurse))
                if (std::regex_match(f.filename().string(), name)) matches.push_back(f);
            std::sort(matches.begin(), matches.end());
            for (const auto& f : matches) found.push_back(relative ? f.lexically_relative(*relative).string() : f.string());
        }
        m_lists[var] = found;
        m_vars[var] = join(found);
    }

    void compile_options(const std::vector<std::string>& args) {
        bool in_options = false;
        for (const auto& a : args) {
            if (a == "OPTIONS") { in_options = true; continue; }
            if (a == "OP_NAME" || a == "COMPUTE_UNIT" || a == "ALL") { in_options = false; continue; }
            if (!in_options) continue;
            if (a.rfind("-I", 0) == 0 && a.size() > 2) add_dir(m_plan.kernel_include_dirs, a.substr(2));
            else if (a.rfind("-D", 0) == 0 && a.size() > 2) m_plan.kernel_defines.push_back(a.substr(2));
        }
    }

    static std::string join(const std::vector<std::string>& v) {
        std::string s;
        for (size_t i = 0; i < v.size(); ++i) s += (i ? ";" : "") + v[i];
        return s;
    }

    fs::path m_dir;
    fs::path m_common_inc;
    std::map<std::string, std::string> m_vars;
    std::map<std::string, std::vector<std::string>> m_lists;
    std::set<std::string> m_unknown;
    OpCmakePlan m_plan;
};

}  // namespace

std::optional<fs::path> enclosing_checkout(const fs::path& op_dir) {
    std::error_code ec;
    for (fs::path p = op_dir.parent_path(); !p.empty() && p != p.root_path(); p = p.parent_path()) {
        if (p.filename() == "src" && fs::is_directory(p / "common", ec)) return p.parent_path();
    }
    return std::nullopt;
}

std::vector<std::string> checkout_host_defines() {
    return {"OPS_UTILS_LOG_SUB_MOD_NAME=\"OP_TILING\"", "OPS_UTILS_LOG_PACKAGE_TYPE=\"[Custom]\""};
}

Result<std::optional<OpCmakePlan>> read_op_cmake(const fs::path& op_dir, const std::optional<fs::path>& checkout) {
    const fs::path file = op_dir / "CMakeLists.txt";
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) return std::optional<OpCmakePlan>();
    auto text = read_text(file);
    if (!text) return text.error();
    Reader reader(op_dir, checkout);
    OpCmakePlan plan = reader.run(Lexer(*text).commands());
    if (plan.host_sources.empty()) return std::optional<OpCmakePlan>();
    if (checkout) plan.host_defines = checkout_host_defines();
    // The tree's shared headers are on every host and kernel include path of the cann-ops build.
    std::error_code ec2;
    if (!reader.common_inc().empty() && fs::is_directory(reader.common_inc(), ec2)) {
        for (auto* dirs : {&plan.host_include_dirs, &plan.kernel_include_dirs})
            if (std::find(dirs->begin(), dirs->end(), reader.common_inc()) == dirs->end()) dirs->push_back(reader.common_inc());
    }
    for (const auto& v : reader.unknown())
        if (v != "ASCEND_CANN_PACKAGE_PATH" && v != "ASCEND_IMPL_OUT_DIR" && v != "ACLNN_INC_INSTALL_DIR")
            plan.notes.push_back("CMakeLists.txt uses ${" + v + "}, which ascendopt does not know; arguments naming it were left out");
    return std::optional<OpCmakePlan>(std::move(plan));
}

}  // namespace ascendopt
