#include "eval/screen.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

#include "eval/build_config.h"
#include "eval/include_scan.h"
#include "eval/operator_source.h"
#include "util/files.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

// ---- what is refused -------------------------------------------------------------------

// Names whose mere use rejects a candidate, with what they would do. Whole names only: `opened`
// and `systematic` are fine.
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
        add({"socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "getaddrinfo", "gethostbyname", "sendto", "recvfrom",
             "sendmsg", "recvmsg"},
            "uses the network");
        add({"fopen", "fopen64", "freopen", "freopen64", "fdopen", "open", "open64", "openat", "openat64", "openat2", "creat", "creat64",
             "tmpfile", "tmpfile64", "mkstemp", "mkstemps", "mkostemp", "mkostemps", "mkdtemp", "tmpnam", "tempnam", "ifstream",
             "ofstream", "fstream", "basic_ifstream", "basic_ofstream", "basic_fstream", "filebuf", "basic_filebuf", "opendir",
             "fdopendir", "readdir", "scandir", "unlink", "unlinkat", "remove", "rename", "renameat", "renameat2", "truncate",
             "truncate64", "ftruncate", "ftruncate64", "chdir", "fchdir", "chmod", "fchmod", "chown", "fchown", "lchown", "mkdir",
             "mkdirat", "rmdir", "symlink", "symlinkat", "link", "linkat", "filesystem", "name_to_handle_at", "open_by_handle_at",
             "memfd_create", "shm_open", "shm_unlink"},
            "reads or writes files");
        add({"write", "pwrite", "pwrite64", "writev", "pwritev", "pwritev2", "dup", "dup2", "dup3", "fcntl", "ioctl", "lseek",
             "lseek64", "sendfile", "sendfile64", "splice", "tee", "vmsplice", "copy_file_range", "io_uring_setup", "io_uring_enter"},
            "writes through a file descriptor");
        add({"getenv", "secure_getenv", "setenv", "putenv", "unsetenv", "environ", "clearenv"}, "reads or changes the environment");
        add({"dlopen", "dlsym", "dlmopen", "dlvsym", "dladdr", "dlinfo"}, "loads code at run time");
        add({"syscall", "ptrace", "prctl", "seccomp", "setrlimit", "prlimit", "prlimit64", "mmap", "mmap64", "mprotect", "pkey_mprotect",
             "munmap", "mremap", "madvise", "process_vm_readv", "process_vm_writev", "personality", "shmget", "shmat", "mlock", "mlockall"},
            "makes raw system calls or changes memory mappings");
        add({"signal", "sigaction", "raise", "kill", "killpg", "tgkill", "alarm", "setitimer", "setjmp", "longjmp", "sigsetjmp",
             "siglongjmp", "_setjmp", "_longjmp"},
            "handles or sends signals");
        add({"pthread_create", "thread", "jthread", "async"}, "starts threads");
        add({"constructor", "destructor", "init_priority"}, "declares a static constructor, which would run before the operator's walls are up");
        add({"_Pragma", "__declspec"}, "changes how the compiler builds the code");
        add({"__builtin_frame_address", "__builtin_return_address", "__builtin_extract_return_addr", "__builtin_apply",
             "__builtin_apply_args", "__builtin_return", "__builtin_setjmp", "__builtin_longjmp", "__builtin_unwind_init",
             "__builtin_eh_return"},
            "reaches the call stack's machinery");
        return m;
    }();
    return names;
}

// Kernel code moves data only through the Ascend C API (GM <-> UB copies, vector
// instructions); these C library calls would copy or fill memory unseen by the twin's
// accounting and checks.
const std::set<std::string>& kernel_forbidden_names() {
    static const std::set<std::string> names = {
        "memcpy", "memmove", "memset", "mempcpy", "memccpy", "bcopy", "bzero", "explicit_bzero", "wmemcpy", "wmemmove", "wmemset",
        "strcpy", "strncpy", "stpcpy", "stpncpy", "strcat", "strncat", "sprintf", "snprintf", "vsprintf", "vsnprintf", "sscanf",
        "fread", "fgets", "gets", "read", "pread", "pread64", "readv", "preadv", "recv", "getline",
        "__builtin_memcpy", "__builtin_memmove", "__builtin_memset", "__builtin_mempcpy", "__builtin_strcpy", "__builtin_strncpy",
        "__builtin___memcpy_chk", "__builtin___memmove_chk", "__builtin___memset_chk"};
    return names;
}

bool contains_ci(const std::string& s, const char* needle) {
    std::string lower;
    for (char c : s) lower += char(std::tolower(static_cast<unsigned char>(c)));
    return lower.find(needle) != std::string::npos;
}

// Why `name` may not appear in a candidate, or "".
std::string forbidden_identifier(const std::string& name, bool kernel) {
    if (contains_ci(name, "ascendopt"))
        return "names the twin's internals (" + name + "): a candidate may use the Ascend C API, not the code that runs and measures it";
    for (const char* prefix : {"__asan", "__sanitizer", "__cyg_profile", "__gcov", "__ubsan", "__tsan", "__lsan", "__msan", "__hwasan"})
        if (name.rfind(prefix, 0) == 0) return "names the instrumentation the twin measures kernels with (" + name + ")";
    const auto& names = forbidden_names();
    if (auto it = names.find(name); it != names.end()) return it->second + " (" + name + ")";
    if (kernel && kernel_forbidden_names().count(name))
        return "copies or fills memory outside the Ascend C API (" + name + "): kernels move data with DataCopy and vector instructions";
    return "";
}

// Attributes that only change how code is optimised or checked by the compiler's diagnostics;
// every other one (section, constructor, no_sanitize, no_instrument_function, alias, ifunc,
// weak, target, optimize, copy, ...) changes what runs, where, or how it is instrumented.
bool allowed_attribute(std::string name) {
    static const std::set<std::string> names = {
        "aligned", "packed", "unused", "maybe_unused", "used", "always_inline", "noinline", "noreturn", "nodiscard", "deprecated",
        "fallthrough", "likely", "unlikely", "const", "pure", "hot", "cold", "flatten", "format", "format_arg", "visibility",
        "nonnull", "returns_nonnull", "warn_unused_result", "may_alias", "vector_size", "noipa", "gnu_inline", "artificial",
        "leaf", "nothrow", "malloc", "alloc_size", "alloc_align", "access", "warning", "error", "sentinel", "assume_aligned",
        "no_unique_address", "carries_dependency", "mode", "transparent_union", "designated_init", "nonstring", "noclone",
        "warn_if_not_aligned", "assume", "unavailable"};
    while (name.size() > 4 && name.rfind("__", 0) == 0 && name.compare(name.size() - 2, 2, "__") == 0) name = name.substr(2, name.size() - 4);
    return names.count(name) > 0;
}

// Pragmas that change code generation; the rest (once, pack, unroll, other compilers' own)
// leave what runs alone.
bool forbidden_pragma(const std::string& body) {
    static const char* const refused[] = {"GCC optimize", "GCC push_options", "GCC pop_options", "GCC reset_options", "GCC target",
                                          "GCC visibility", "weak", "redefine_extname", "GCC pch_preprocess"};
    for (const char* r : refused)
        if (body.rfind(r, 0) == 0) return true;
    return false;
}

// ---- reading source text ----------------------------------------------------------------

struct Token {
    enum Kind { ident, number, punct, string } kind;
    std::string text;
    int line;
};

std::string trim(std::string s) {
    const auto b = s.find_first_not_of(" \t\r");
    const auto e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The text with line splices (backslash-newline) joined, as translation phase 2 does, and the
// source line of every remaining character.
struct Logical {
    std::string text;
    std::vector<int> line;
};
Logical join_splices(const std::string& raw, int first_line) {
    Logical out;
    int line = first_line;
    for (size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '\\' && (i + 1 < raw.size()) && (raw[i + 1] == '\n' || (raw[i + 1] == '\r' && i + 2 < raw.size() && raw[i + 2] == '\n'))) {
            i += raw[i + 1] == '\r' ? 2 : 1;
            ++line;
            continue;
        }
        out.text += raw[i];
        out.line.push_back(line);
        if (raw[i] == '\n') ++line;
    }
    return out;
}

// Splits logical text into tokens (comments dropped; digraphs spelled as what they stand for)
// and directive lines (each as the tokens after its `#`).
class Lexer {
public:
    explicit Lexer(const Logical& src) : m_src(src) {}

    // Calls on_directive(tokens, line) for each directive and appends code tokens to `code`.
    template <class OnDirective>
    void run(std::vector<Token>& code, OnDirective&& on_directive) {
        bool line_start = true;
        std::vector<Token>* sink = &code;
        std::vector<Token> directive;
        int directive_line = 0;
        auto end_directive = [&] {
            if (sink == &directive) {
                on_directive(directive, directive_line);
                directive.clear();
                sink = &code;
            }
        };
        while (m_pos < text().size()) {
            const char c = text()[m_pos];
            if (c == '\n') {
                end_directive();
                line_start = true;
                ++m_pos;
                continue;
            }
            if (std::isspace(static_cast<unsigned char>(c))) {
                ++m_pos;
                continue;
            }
            if (starts("//")) {
                while (m_pos < text().size() && text()[m_pos] != '\n') ++m_pos;
                continue;
            }
            if (starts("/*")) {
                const size_t end = text().find("*/", m_pos + 2);
                m_pos = end == std::string::npos ? text().size() : end + 2;
                continue;
            }
            if (line_start && (c == '#' || starts("%:"))) {
                m_pos += c == '#' ? 1 : 2;
                sink = &directive;
                directive_line = line();
                line_start = false;
                continue;
            }
            line_start = false;
            sink->push_back(next_token());
        }
        end_directive();
    }

private:
    const std::string& text() const { return m_src.text; }
    int line() const { return m_pos < m_src.line.size() ? m_src.line[m_pos] : (m_src.line.empty() ? 1 : m_src.line.back()); }
    bool starts(const char* s) const { return text().compare(m_pos, std::char_traits<char>::length(s), s) == 0; }
    static bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

    Token next_token() {
        const int at_line = line();
        const size_t start = m_pos;
        const char c = text()[m_pos];
        // String and character literals, with their encoding prefixes and raw strings.
        for (const char* prefix : {"u8R\"", "uR\"", "UR\"", "LR\"", "R\""})
            if (starts(prefix)) return raw_string(std::char_traits<char>::length(prefix) - 1, at_line);
        for (const char* prefix : {"u8\"", "u8'", "u\"", "u'", "U\"", "U'", "L\"", "L'", "\"", "'"})
            if (starts(prefix)) return quoted(std::char_traits<char>::length(prefix) - 1, at_line);
        if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$') {
            while (m_pos < text().size() && ident_char(text()[m_pos])) ++m_pos;
            return {Token::ident, text().substr(start, m_pos - start), at_line};
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && m_pos + 1 < text().size() && std::isdigit(static_cast<unsigned char>(text()[m_pos + 1])))) {
            while (m_pos < text().size()) {
                const char d = text()[m_pos];
                if ((d == '+' || d == '-') && std::strchr("eEpP", text()[m_pos - 1])) ++m_pos;
                else if (ident_char(d) || d == '.' || d == '\'') ++m_pos;
                else break;
            }
            return {Token::number, text().substr(start, m_pos - start), at_line};
        }
        // Punctuators: the ones the rules look at, digraphs spelled out; others one character.
        static const std::pair<const char*, const char*> multi[] = {{"%:%:", "##"}, {"##", "##"}, {"::", "::"}, {"<:", "["}, {":>", "]"},
                                                                    {"<%", "{"}, {"%>", "}"}, {"%:", "#"}, {"->", "->"}};
        for (const auto& [spelling, meaning] : multi)
            if (starts(spelling)) {
                m_pos += std::char_traits<char>::length(spelling);
                return {Token::punct, meaning, at_line};
            }
        ++m_pos;
        return {Token::punct, std::string(1, c), at_line};
    }
    Token quoted(size_t prefix, int at_line) {
        const size_t start = m_pos;
        m_pos += prefix;
        const char q = text()[m_pos];
        for (++m_pos; m_pos < text().size() && text()[m_pos] != q && text()[m_pos] != '\n'; ++m_pos)
            if (text()[m_pos] == '\\') ++m_pos;
        ++m_pos;
        return {Token::string, text().substr(start, std::min(m_pos, text().size()) - start), at_line};
    }
    Token raw_string(size_t prefix, int at_line) {
        const size_t start = m_pos;
        const size_t open = text().find('(', m_pos + prefix);
        if (open == std::string::npos) {
            m_pos = text().size();
            return {Token::string, text().substr(start), at_line};
        }
        const std::string close = ")" + text().substr(m_pos + prefix + 1, open - m_pos - prefix - 1) + "\"";
        const size_t end = text().find(close, open);
        m_pos = end == std::string::npos ? text().size() : end + close.size();
        return {Token::string, text().substr(start, m_pos - start), at_line};
    }

    const Logical& m_src;
    size_t m_pos = 0;
};

// ---- the rules on a token stream ----------------------------------------------------------

bool is_integer_type(const std::string& s) {
    static const std::set<std::string> names = {"uintptr_t", "intptr_t", "size_t", "ssize_t", "ptrdiff_t", "uint64_t", "int64_t",
                                                "uint32_t", "int32_t", "unsigned", "long", "int", "uint64", "int64"};
    return names.count(s) > 0;
}

struct Rules {
    bool kernel;

    // Why the tokens must be refused, and at which token; "" when they pass.
    std::pair<std::string, size_t> check(const std::vector<Token>& t) const {
        for (size_t i = 0; i < t.size(); ++i) {
            if (size_t n = tuner_call_tokens(t, i)) {
                i += n - 1;
                continue;
            }
            if (t[i].kind == Token::ident) {
                if (auto why = forbidden_identifier(t[i].text, kernel); !why.empty()) return {why, i};
                if (t[i].text == "__attribute__" || t[i].text == "__attribute")
                    if (auto why = gnu_attributes(t, i + 1); !why.empty()) return {why, i};
                if (t[i].text == "reinterpret_cast")
                    if (auto why = integer_to_pointer_cast(t, i + 1); !why.empty()) return {why, i};
            }
            if (t[i].kind == Token::punct && t[i].text == "[" && i + 1 < t.size() && t[i + 1].text == "[")
                if (auto why = standard_attributes(t, i + 2); !why.empty()) return {why, i};
            if (t[i].kind == Token::string && contains_ci(t[i].text, "init_array")) return {"names a section that runs code at start-up", i};
        }
        return {"", 0};
    }

private:
    // Stage II rewrites a tunable host constant into ::ascendopt_twin::host::tunable_value(...)
    // (search/tunables.cpp), which only reads a number from the environment. That one qualified
    // name is the candidate's own, not the twin's internals: the number of tokens it spans at i.
    static size_t tuner_call_tokens(const std::vector<Token>& t, size_t i) {
        static const char* const seq[] = {"ascendopt_twin", "::", "host", "::", "tunable_value", "("};
        for (size_t k = 0; k < std::size(seq); ++k)
            if (i + k >= t.size() || t[i + k].text != seq[k]) return 0;
        return std::size(seq) - 1;
    }
    static std::string refused_attribute(const std::string& name) {
        return "an attribute that changes what runs or how it is instrumented (" + name + ")";
    }
    // __attribute__((a, b(args), c)): every attribute name must be on the allow-list.
    static std::string gnu_attributes(const std::vector<Token>& t, size_t i) {
        if (i + 1 >= t.size() || t[i].text != "(" || t[i + 1].text != "(") return "";
        int depth = 2;
        bool expect_name = true;
        for (i += 2; i < t.size() && depth > 0; ++i) {
            const std::string& s = t[i].text;
            if (s == "(") ++depth;
            else if (s == ")") --depth;
            else if (depth == 2 && s == ",") expect_name = true;
            else if (depth == 2 && expect_name && t[i].kind == Token::ident) {
                if (!allowed_attribute(s)) return refused_attribute(s);
                expect_name = false;
            }
        }
        return "";
    }
    // [[ns::a, b(args)]]: the same, for the standard spelling; only the gnu namespace, or none.
    static std::string standard_attributes(const std::vector<Token>& t, size_t i) {
        int depth = 0;
        bool expect_name = true;
        for (; i < t.size(); ++i) {
            const std::string& s = t[i].text;
            if (depth == 0 && s == "]") return "";
            if (s == "(") ++depth;
            else if (s == ")") --depth;
            else if (depth == 0 && s == ",") expect_name = true;
            else if (depth == 0 && expect_name && t[i].kind == Token::ident) {
                std::string name = s;
                if (i + 2 < t.size() && t[i + 1].text == "::") {
                    if (s != "gnu" && s != "__gnu__") return refused_attribute(s + "::" + t[i + 2].text);
                    name = t[i + 2].text;
                    i += 2;
                }
                if (name == "using") return refused_attribute("using");
                if (!allowed_attribute(name)) return refused_attribute(name);
                expect_name = false;
            }
        }
        return "";
    }
    // reinterpret_cast<T*>(E) where E is visibly an integer: a literal, or a cast to an integer
    // type. (An integer variable cannot be told from a pointer by tokens alone; kernels' stores
    // through any pointer are checked when they run: docs/sandbox.md.)
    static std::string integer_to_pointer_cast(const std::vector<Token>& t, size_t i) {
        if (i >= t.size() || t[i].text != "<") return "";
        int depth = 0;
        bool pointer = false;
        for (; i < t.size(); ++i) {
            if (t[i].text == "<") ++depth;
            else if (t[i].text == ">" && --depth == 0) break;
            else if (t[i].text == "*") pointer = true;
        }
        if (!pointer || i + 2 >= t.size() || t[i + 1].text != "(") return "";
        const Token& first = t[i + 2];
        const bool literal = first.kind == Token::number;
        const bool cast = first.kind == Token::ident && (first.text == "static_cast" || is_integer_type(first.text));
        const bool c_cast = first.text == "(" && i + 3 < t.size() && is_integer_type(t[i + 3].text);
        return literal || cast || c_cast ? "casts an integer to a pointer" : "";
    }
};

bool is_kernel_file(const fs::path& file) {
    for (const auto& part : file)
        if (part == "op_kernel") return true;
    return false;
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
        "limits.h", "assert.h",
        // Synchronisation, time and type headers host code of the tree includes: what they could
        // start (threads) or reach is refused by name (forbidden_names).
        "atomic", "mutex", "shared_mutex", "condition_variable", "thread", "pthread.h", "ratio", "ctime", "time.h", "cinttypes",
        "inttypes.h", "stdarg.h", "sys/types.h", "cstdbool", "stdbool.h", "climits", "cerrno", "errno.h", "bit", "any", "array",
        "forward_list", "random", "regex", "codecvt", "locale", "cwchar", "wchar.h", "cctype", "ctype.h", "cstring", "numeric"};
    // ascendopt_twin/host/tunable.h: Stage II rewrites host tunables to read their values from it.
    static const char* const ascend_prefixes[] = {"register/", "tiling/", "graph/", "platform/", "lib/", "kernel_", "acl/", "exe_graph/", "base/",
                                                  "ascendopt_twin/host/tunable.h"};
    if (std_headers.count(h)) return true;
    if (h == "kernel_operator.h") return true;
    if (h.find("..") == std::string::npos && fs::is_regular_file(fs::path(ASCENDOPT_TWIN_INCLUDE_DIR) / h))
        return true;  // a header the twin provides: ours, whatever its folder
    for (const char* p : ascend_prefixes)
        if (h.rfind(p, 0) == 0 && h.find("..") == std::string::npos) return true;
    return false;
}

// A quoted include of a file inside the operator's folder.
bool own_header(const fs::path& file, const fs::path& root, const std::string& header) {
    std::error_code ec;
    const auto found = fs::weakly_canonical(file.parent_path() / header, ec);
    const auto rel = found.lexically_relative(fs::weakly_canonical(root, ec));
    return !ec && !rel.empty() && *rel.begin() != ".." && fs::is_regular_file(found, ec);
}

// An include that the build resolves to a file of a trusted folder (the checkout's shared headers,
// a sibling operator's header), through the include folders or beside the including file.
bool trusted_header(const fs::path& file, const std::string& header, bool quoted, const IncludeScope& scope) {
    if (scope.trusted.empty()) return false;
    const fs::path found = resolve_include(header, quoted, file, IncludeSearch{scope.dirs, scope.trusted});
    if (found.empty()) return false;
    std::error_code ec;
    const fs::path real = fs::canonical(found, ec);  // a symlink may not lead out
    for (const auto& t : scope.trusted)
        if (!ec && path_within(real, fs::weakly_canonical(t, ec))) return true;
    return false;
}

std::string source_line(const std::string& text, int line) {
    size_t at = 0;
    for (int l = 1; l < line && at != std::string::npos; ++l) at = text.find('\n', at) == std::string::npos ? std::string::npos : text.find('\n', at) + 1;
    if (at == std::string::npos) return "";
    return trim(text.substr(at, text.find('\n', at) - at));
}

bool is_include(const std::vector<Token>& d) {
    return !d.empty() && (d[0].text == "include" || d[0].text == "include_next" || d[0].text == "import");
}

// Whether a header name climbs with `..` to somewhere outside the including file's folder tree
// within the operator: beside the includer for a quoted name (where the compiler looks first),
// and for an angled one at all, since it climbs out of whichever include folder finds it.
bool climbs_out(const std::string& header, bool quoted, const fs::path& file, const fs::path& root) {
    bool climbs = false;
    for (const auto& part : fs::path(header))
        if (part == "..") climbs = true;
    if (!climbs) return false;
    return !quoted || !path_within((file.parent_path() / header).lexically_normal(), root);
}

// An #include of `header` (the name between its quotes or angle brackets): absolute, climbing out
// of the operator's folder, or off the allow-list is refused. The allow-list: the twin's and the
// harmless standard headers, the operator's own files, and files of a trusted folder (the
// user's checkout, the original operator's folder) that the build finds.
std::string check_include(const std::string& header, bool quoted, const fs::path& file, const fs::path& root, const IncludeScope& scope) {
    if (!header.empty() && header[0] == '/') return "includes a file by its absolute path (" + header + ")";
    if (allowed_system_header(header)) return "";
    if (quoted && own_header(file, root, header)) return "";
    if (trusted_header(file, header, quoted, scope)) return "";
    if (climbs_out(header, quoted, file, root))
        return "includes a file outside the operator's folder (" + header + "): a candidate includes only its own headers and the allow-list";
    return "includes a header outside the allow-list (" + header + ")";
}

// `__has_include(name)` (and `__has_include_next`) in a directive or a macro body: a probe of the
// file system outside the operator is refused as an include of the same name would be, and a
// name this screen cannot read (a macro) is refused. What it may ask about is otherwise free:
// the answer only says whether a header exists.
std::string check_has_include(const std::vector<Token>& d, const fs::path& file, const fs::path& root, const IncludeScope& scope) {
    for (size_t i = 0; i < d.size(); ++i) {
        if (d[i].text != "__has_include" && d[i].text != "__has_include_next") continue;
        if (i + 1 >= d.size() || d[i + 1].text != "(") {
            // Asking whether the operator exists (#ifdef __has_include, defined(__has_include))
            // probes nothing; any other use without a call is one through a macro.
            const bool defined = (i >= 1 && d[i - 1].text == "defined") || (i >= 2 && d[i - 1].text == "(" && d[i - 2].text == "defined");
            if (defined || d[0].text == "ifdef" || d[0].text == "ifndef") continue;
            return "__has_include by macro, which this screen cannot check";
        }
        if (i + 2 >= d.size()) return "a __has_include this screen cannot read";
        std::string header;
        bool quoted = false;
        if (d[i + 2].kind == Token::string && d[i + 2].text.size() >= 2 && d[i + 2].text[0] == '"') {
            header = d[i + 2].text.substr(1, d[i + 2].text.size() - 2);
            quoted = true;
        } else if (d[i + 2].text == "<") {
            size_t k = i + 3;
            for (; k < d.size() && d[k].text != ">"; ++k) header += d[k].text;
            if (k == d.size()) return "a __has_include this screen cannot read";
        } else {
            return "__has_include by macro, which this screen cannot check";
        }
        if (!header.empty() && header[0] == '/') return "__has_include probes a file by its absolute path (" + header + ")";
        if (climbs_out(header, quoted, file, root) && !(quoted && own_header(file, root, header)) && !trusted_header(file, header, quoted, scope))
            return "__has_include probes a file outside the operator's folder (" + header + ")";
    }
    return "";
}

// The rules of directives other than includes (those are read by include_directives and
// checked with check_include): pragmas, #line, probes of files.
std::string check_directive(const std::vector<Token>& d, const fs::path& file, const fs::path& root, const IncludeScope& scope) {
    if (d.empty()) return "";
    const std::string& name = d[0].text;
    if (name == "line") return "a #line directive, which would misattribute what follows";
    if (name == "pragma") {
        std::string body;
        for (size_t i = 1; i < d.size(); ++i) body += (i > 1 ? " " : "") + d[i].text;
        return forbidden_pragma(body) ? "a pragma that changes code generation (#pragma " + body + ")" : "";
    }
    return check_has_include(d, file, root, scope);
}

// CANN's CPU-debug build defines __CCE_KT_TEST__; the device compiler and the twin never do,
// and a candidate may not (cpu_debug_define_hit), so code under `#ifdef __CCE_KT_TEST__` or
// `#if defined(__CCE_KT_TEST__)` (and the #else of `#ifndef` / `#if !defined`) is never built:
// its includes (weight_quant_batch_matmul_v2 includes <unistd.h> there) are not the build's.
// Only these exact forms count; any other condition keeps its lines live.
class CpuDebugRegions {
public:
    // Updates the state for directive `d`; true when the directive's own line is in a region
    // that is never built.
    bool dead_after(const std::vector<Token>& d) {
        if (d.empty()) return dead();
        const std::string& name = d[0].text;
        if (name == "if" || name == "ifdef" || name == "ifndef") {
            const bool parent = dead();
            const int form = debug_form(d);
            m_frames.push_back({parent, form, 0});
        } else if ((name == "elif" || name == "else") && !m_frames.empty()) {
            ++m_frames.back().branch;
        } else if (name == "endif" && !m_frames.empty()) {
            m_frames.pop_back();
        }
        return dead();
    }

private:
    struct Frame {
        bool parent_dead;
        int form;  // 0: another condition; 1: true when debugging; -1: true when not debugging
        int branch;
    };
    bool dead() const {
        if (m_frames.empty()) return false;
        const Frame& f = m_frames.back();
        return f.parent_dead || (f.form == 1 && f.branch == 0) || (f.form == -1 && f.branch > 0);
    }
    static int debug_form(const std::vector<Token>& d) {
        std::vector<std::string> t;
        for (size_t i = 1; i < d.size(); ++i) t.push_back(d[i].text);
        const std::string k = "__CCE_KT_TEST__";
        const bool ifdef = d[0].text == "ifdef" && t == std::vector<std::string>{k};
        const bool ifndef = d[0].text == "ifndef" && t == std::vector<std::string>{k};
        const bool defined = d[0].text == "if" && (t == std::vector<std::string>{"defined", "(", k, ")"} || t == std::vector<std::string>{"defined", k});
        const bool not_defined =
            d[0].text == "if" && (t == std::vector<std::string>{"!", "defined", "(", k, ")"} || t == std::vector<std::string>{"!", "defined", k});
        return ifdef || defined ? 1 : ifndef || not_defined ? -1 : 0;
    }
    std::vector<Frame> m_frames;
};

// Defining or undefining the CPU-debug macro would bring its never-built regions to life.
std::string cpu_debug_define_hit(const std::vector<Token>& d) {
    if (d.size() >= 2 && (d[0].text == "define" || d[0].text == "undef") && d[1].text == "__CCE_KT_TEST__")
        return "defines CANN's CPU-debug macro __CCE_KT_TEST__, which the device build never has";
    return "";
}

// Whether the preprocessor of the second pass may have read `file` (a line marker's name): the
// operator's own files, the stub headers, and the compiler's own names (<built-in>,
// <command-line>). A relative name is taken as relative to `root`.
bool read_by_right(const fs::path& file, const fs::path& root, const std::vector<fs::path>& headers) {
    const std::string name = file.string();
    if (!name.empty() && name[0] == '<') return true;
    const fs::path where = file.is_absolute() ? file : root / file;
    if (path_within(where, root)) return true;
    return std::any_of(headers.begin(), headers.end(), [&](const fs::path& h) { return path_within(where, h); });
}

}  // namespace

std::string ScreenHit::describe(const fs::path& root) const {
    return file.lexically_relative(root).string() + ":" + std::to_string(line) + ": " + reason + ": `" + text + "`";
}

std::optional<ScreenHit> screen_text(const std::string& text, const fs::path& file, const fs::path& root, const IncludeScope& scope) {
    const Logical logical = join_splices(text, 1);
    std::vector<Token> code;
    std::optional<ScreenHit> hit;
    const Rules rules{is_kernel_file(file)};
    CpuDebugRegions debug;
    // Includes as the compiler reads their names, by the line of their `#`.
    std::map<int, IncludeDirective> includes;
    for (auto& d : include_directives(text)) includes.emplace(d.line, std::move(d));
    std::set<int> never_built_includes;
    Lexer(logical).run(code, [&](const std::vector<Token>& d, int line) {
        if (hit) return;
        const bool never_built = debug.dead_after(d);
        if (is_include(d) && never_built) never_built_includes.insert(line);
        std::string why = cpu_debug_define_hit(d);
        if (why.empty() && is_include(d) && !never_built && !includes.count(line)) why = "an include by macro, which this screen cannot check";
        if (why.empty() && !is_include(d)) why = check_directive(d, file, root, scope);
        size_t at = 0;
        if (why.empty() && !d.empty() && d[0].text != "include") std::tie(why, at) = rules.check(d);  // macro bodies too
        if (!why.empty()) hit = ScreenHit{file, at < d.size() ? d[at].line : line, why, source_line(text, line)};
    });
    for (const auto& [line, inc] : includes) {
        if (hit && hit->line <= line) break;
        if (never_built_includes.count(line)) continue;
        if (auto why = check_include(inc.name, inc.quoted, file, root, scope); !why.empty()) {
            hit = ScreenHit{file, line, why, source_line(text, line)};
            break;
        }
    }
    if (hit) return hit;
    const auto [why, at] = rules.check(code);
    if (!why.empty()) return ScreenHit{file, code[at].line, why, source_line(text, code[at].line)};
    return std::nullopt;
}

std::optional<ScreenHit> screen_sources(const std::vector<fs::path>& files, const fs::path& root, const IncludeScope& scope) {
    for (const auto& f : files) {
        auto text = read_text(f);
        if (!text) return ScreenHit{f, 0, "cannot be read", ""};
        if (auto hit = screen_text(*text, f, root, scope)) return hit;
    }
    return std::nullopt;
}

std::optional<ScreenHit> screen_operator(const OperatorSource& op) {
    IncludeScope scope;
    scope.dirs = {op.root / "op_kernel", op.root / "op_host"};
    for (bool kernel : {false, true})
        for (const auto& d : op.include_dirs(kernel))
            if (std::find(scope.dirs.begin(), scope.dirs.end(), d) == scope.dirs.end()) scope.dirs.push_back(d);
    if (op.checkout) scope.trusted.push_back(*op.checkout / "src");
    if (!op.origin.empty() && op.origin != op.root) scope.trusted.push_back(op.origin);
    for (const auto* defines : {&op.kernel_defines, &op.host_defines})
        for (const auto& d : *defines)
            if (d.rfind("__CCE_KT_TEST__", 0) == 0)
                return ScreenHit{op.root / "CMakeLists.txt", 0, "defines CANN's CPU-debug macro __CCE_KT_TEST__, which the device build never has", "-D" + d};
    return screen_sources(op.build_files, op.root, scope);
}

std::optional<ScreenHit> screen_preprocessed(const std::string& output, const fs::path& root, const std::vector<fs::path>& headers) {
    // Line markers (`# 12 "op_kernel/x.cpp" 1`) say where the following output lines came from.
    struct Origin {
        fs::path file;
        int line;
    };
    std::vector<Origin> origin;  // by output line, from 1
    origin.push_back({});
    fs::path file;
    int line = 1;
    // The first file the preprocessor read that is neither the operator's nor a stub header, and
    // the output line of its marker (whose origin is the line that included it).
    std::optional<std::pair<fs::path, int>> foreign;
    for (size_t pos = 0; pos <= output.size();) {
        const size_t end = std::min(output.find('\n', pos), output.size());
        const std::string text = output.substr(pos, end - pos);
        origin.push_back({file, line});
        if (text.rfind("# ", 0) == 0 && text.find('"') != std::string::npos) {
            const auto q1 = text.find('"'), q2 = text.rfind('"');
            line = std::atoi(text.c_str() + 2);
            file = text.substr(q1 + 1, q2 - q1 - 1);
            if (!foreign && !read_by_right(file, root, headers)) foreign.emplace(file, int(origin.size() - 1));
        } else {
            ++line;
        }
        pos = end + 1;
    }
    auto hit_at = [&](int output_line, const std::string& why) {
        const Origin& o = origin[std::min<size_t>(size_t(std::max(output_line, 0)), origin.size() - 1)];
        const auto original = read_text(o.file.is_absolute() ? o.file : root / o.file);
        return ScreenHit{o.file, o.line, why + ", after macro expansion", original ? source_line(*original, o.line) : ""};
    };
    if (foreign)
        return hit_at(foreign->second, "includes a file outside the operator's folder (" + foreign->first.string() +
                                           "): a candidate includes only its own headers and the allow-list");
    // The tokens of each file apart: kernel files have rules of their own.
    std::vector<Token> tokens;
    std::optional<ScreenHit> hit;
    Lexer(join_splices(output, 1)).run(tokens, [&](const std::vector<Token>& d, int output_line) {
        if (hit || d.empty() || d[0].text != "pragma") return;  // line markers
        std::string body;
        for (size_t i = 1; i < d.size(); ++i) body += (i > 1 ? " " : "") + d[i].text;
        if (forbidden_pragma(body)) hit = hit_at(output_line, "a pragma that changes code generation (#pragma " + body + ")");
    });
    if (hit) return hit;
    size_t from = 0;
    while (from < tokens.size()) {
        const bool kernel = is_kernel_file(origin[size_t(tokens[from].line)].file);
        size_t to = from;
        while (to < tokens.size() && is_kernel_file(origin[size_t(tokens[to].line)].file) == kernel) ++to;
        const std::vector<Token> run(tokens.begin() + long(from), tokens.begin() + long(to));
        if (const auto [why, at] = Rules{kernel}.check(run); !why.empty()) return hit_at(run[at].line, why);
        from = to;
    }
    return std::nullopt;
}

}  // namespace ascendopt
