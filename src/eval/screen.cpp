#include "eval/screen.h"

#include <cctype>
#include <map>
#include <set>

#include "eval/build_config.h"
#include "util/files.h"

namespace ascendopt {
namespace {

// Names whose mere use rejects a candidate, with what they would do.
const std::map<std::string, std::string>& forbidden_names() {
    static const std::map<std::string, std::string> names = [] {
        std::map<std::string, std::string> m;
        auto add = [&](std::initializer_list<const char*> list, const char* why) {
            for (const char* n : list) m[n] = why;
        };
        add({"asm", "__asm", "__asm__"}, "inline assembly");
        add({"fork", "vfork", "clone", "clone3", "system", "popen", "posix_spawn", "posix_spawnp", "execl", "execle", "execlp", "execv",
             "execve", "execvp", "execvpe", "execveat", "fexecve", "daemon"},
            "starts a process");
        add({"socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "getaddrinfo", "gethostbyname", "sendto", "recvfrom"},
            "uses the network");
        add({"fopen", "freopen", "fdopen", "open", "openat", "open64", "creat", "ifstream", "ofstream", "fstream", "basic_ifstream",
             "basic_ofstream", "basic_fstream", "filebuf", "opendir", "readdir", "unlink", "unlinkat", "remove", "rename", "truncate",
             "chdir", "chmod", "chown", "mkdir", "rmdir", "symlink", "link", "filesystem"},
            "reads or writes files");
        add({"getenv", "secure_getenv", "setenv", "putenv", "unsetenv", "environ", "clearenv"}, "reads or changes the environment");
        add({"dlopen", "dlsym", "dlmopen", "dlvsym"}, "loads code at run time");
        add({"syscall", "ptrace", "prctl", "seccomp", "setrlimit", "prlimit", "mmap", "mmap64", "mprotect", "munmap", "mremap",
             "process_vm_readv", "process_vm_writev", "personality"},
            "makes raw system calls");
        add({"signal", "sigaction", "raise", "kill", "killpg", "tgkill", "alarm", "setitimer", "setjmp", "longjmp"},
            "handles or sends signals");
        add({"pthread_create", "thread", "jthread", "async"}, "starts threads");
        add({"constructor", "destructor", "init_priority"}, "declares a static constructor, which would run before the operator drops its system calls");
        return m;
    }();
    return names;
}

// Headers a candidate may include besides its own.
bool allowed_system_header(const std::string& h) {
    // Standard headers that give no access to files, processes or the network beyond the names
    // forbidden_names() rejects (sstream is in memory; chrono only reads clocks).
    static const std::set<std::string> std_headers = {
        "algorithm", "array", "bitset", "cassert", "cfloat", "chrono", "climits", "cmath", "complex", "cstdarg", "cstddef",
        "cstdint", "cstdio", "cstdlib", "cstring", "deque", "exception", "functional", "initializer_list", "iomanip", "iostream",
        "iterator", "limits", "list", "map", "memory", "new", "numeric", "optional", "queue", "set", "sstream", "stack",
        "stdexcept", "string", "string_view", "tuple", "type_traits", "typeinfo", "unordered_map", "unordered_set", "utility",
        "valarray", "variant", "vector", "math.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h", "float.h",
        "limits.h", "assert.h"};
    // ascendopt_twin/host/tunable.h: Stage II rewrites host tunables to read their values from it.
    static const char* const ascend_prefixes[] = {"register/", "tiling/", "graph/", "platform/", "lib/", "kernel_", "acl/", "exe_graph/", "base/",
                                                  "ascendopt_twin/host/tunable.h"};
    if (std_headers.count(h)) return true;
    if (h == "kernel_operator.h") return true;
    if (h.find("..") == std::string::npos && std::filesystem::is_regular_file(std::filesystem::path(ASCENDOPT_TWIN_INCLUDE_DIR) / h))
        return true;  // a header the twin provides: ours, whatever its folder
    for (const char* p : ascend_prefixes)
        if (h.rfind(p, 0) == 0 && h.find("..") == std::string::npos) return true;
    return false;
}

std::string trim(std::string s) {
    const auto b = s.find_first_not_of(" \t\r");
    const auto e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string line_text(const std::string& text, size_t at) {
    const size_t b = text.rfind('\n', at);
    const size_t start = b == std::string::npos ? 0 : b + 1;
    return trim(text.substr(start, text.find('\n', at) - start));
}

class Scanner {
public:
    Scanner(const std::string& text, const std::filesystem::path& file, const std::filesystem::path& root)
        : m_text(text), m_file(file), m_root(root) {}

    std::optional<ScreenHit> run() {
        bool line_start = true;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == '\n') {
                ++m_line;
                ++m_pos;
                line_start = true;
                continue;
            }
            if (std::isspace(static_cast<unsigned char>(c))) {
                ++m_pos;
                continue;
            }
            if (line_start && c == '#') {
                if (auto hit = directive()) return hit;
                continue;
            }
            line_start = false;
            if (starts("//")) skip_to_line_end();
            else if (starts("/*")) skip_block_comment();
            else if (c == 'R' && starts("R\"")) skip_raw_string();
            else if (c == '"' || c == '\'') skip_quoted(c);
            else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
                if (auto hit = identifier()) return hit;
            } else {
                ++m_pos;
            }
        }
        return std::nullopt;
    }

private:
    bool starts(const char* s) const { return m_text.compare(m_pos, std::char_traits<char>::length(s), s) == 0; }
    void skip_to_line_end() {
        while (m_pos < m_text.size() && m_text[m_pos] != '\n') ++m_pos;
    }
    void skip_block_comment() {
        const size_t end = m_text.find("*/", m_pos + 2);
        const size_t stop = end == std::string::npos ? m_text.size() : end + 2;
        for (; m_pos < stop; ++m_pos) m_line += m_text[m_pos] == '\n';
    }
    void skip_quoted(char quote) {
        for (++m_pos; m_pos < m_text.size() && m_text[m_pos] != quote && m_text[m_pos] != '\n'; ++m_pos)
            if (m_text[m_pos] == '\\') ++m_pos;
        ++m_pos;
    }
    void skip_raw_string() {
        const size_t open = m_text.find('(', m_pos);
        if (open == std::string::npos) {
            m_pos = m_text.size();
            return;
        }
        const std::string close = ")" + m_text.substr(m_pos + 2, open - m_pos - 2) + "\"";
        const size_t end = m_text.find(close, open);
        const size_t stop = end == std::string::npos ? m_text.size() : end + close.size();
        for (; m_pos < stop; ++m_pos) m_line += m_text[m_pos] == '\n';
    }
    ScreenHit hit(size_t at, std::string reason) const { return {m_file, m_line, std::move(reason), line_text(m_text, at)}; }

    std::optional<ScreenHit> identifier() {
        const size_t start = m_pos;
        while (m_pos < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_')) ++m_pos;
        const std::string name = m_text.substr(start, m_pos - start);
        const auto& names = forbidden_names();
        if (auto it = names.find(name); it != names.end()) return hit(start, it->second + " (" + name + ")");
        return std::nullopt;
    }

    // A preprocessor line: includes are checked against the allow-list; the rest is skipped.
    std::optional<ScreenHit> directive() {
        const size_t start = m_pos;
        skip_to_line_end();
        std::string line = m_text.substr(start, m_pos - start);
        std::string body = trim(line.substr(1));
        if (body.rfind("include", 0) != 0) return std::nullopt;
        body = trim(body.substr(7));
        if (body.size() < 2) return hit(start, "an include this screen cannot read");
        const char close = body[0] == '<' ? '>' : body[0] == '"' ? '"' : 0;
        const size_t end = close ? body.find(close, 1) : std::string::npos;
        if (end == std::string::npos) return hit(start, "an include by macro, which this screen cannot check");
        const std::string header = body.substr(1, end - 1);
        if (allowed_system_header(header)) return std::nullopt;
        if (body[0] == '"' && own_header(header)) return std::nullopt;
        return hit(start, "includes a header outside the allow-list (" + header + ")");
    }

    // A quoted include of a file inside the operator's folder.
    bool own_header(const std::string& header) const {
        std::error_code ec;
        const auto found = std::filesystem::weakly_canonical(m_file.parent_path() / header, ec);
        const auto root = std::filesystem::weakly_canonical(m_root, ec);
        const auto rel = found.lexically_relative(root);
        return !ec && !rel.empty() && *rel.begin() != ".." && std::filesystem::is_regular_file(found, ec);
    }

    const std::string& m_text;
    const std::filesystem::path& m_file;
    const std::filesystem::path& m_root;
    size_t m_pos = 0;
    int m_line = 1;
};

}  // namespace

std::string ScreenHit::describe(const std::filesystem::path& root) const {
    return file.lexically_relative(root).string() + ":" + std::to_string(line) + ": " + reason + ": `" + text + "`";
}

std::optional<ScreenHit> screen_text(const std::string& text, const std::filesystem::path& file, const std::filesystem::path& root) {
    return Scanner(text, file, root).run();
}

std::optional<ScreenHit> screen_sources(const std::vector<std::filesystem::path>& files, const std::filesystem::path& root) {
    for (const auto& f : files) {
        auto text = read_text(f);
        if (!text) return ScreenHit{f, 0, "cannot be read", ""};
        if (auto hit = screen_text(*text, f, root)) return hit;
    }
    return std::nullopt;
}

}  // namespace ascendopt
