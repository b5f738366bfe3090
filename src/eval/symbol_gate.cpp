#include "eval/symbol_gate.h"

#include <cxxabi.h>

#include <cstdlib>
#include <map>
#include <memory>

#include "eval/elf_screen.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace {

using Names = std::unordered_set<std::string>;

// C library functions host code may call: none opens a file or socket, maps or protects memory,
// signals, changes the environment, loads code, makes a system call of its choice or starts a
// process. Host code is not instrumented, so functions that write through a
// pointer give it nothing it does not have (docs/sandbox.md, "What the walls cannot stop").
const Names k_libc_for_host = {
    "memcpy", "memmove", "memset", "memcmp", "memchr", "strlen", "strnlen", "strcmp", "strncmp", "strcasecmp",
    "strncasecmp", "strchr", "strrchr", "strstr", "strspn", "strcspn", "strpbrk", "strcpy", "strncpy", "strcat",
    "strncat", "strtol", "strtoul", "strtoll", "strtoull", "strtod", "strtof", "strtold", "atoi", "atol", "atoll", "atof",
    "abs", "labs", "llabs", "div", "ldiv", "lldiv", "qsort", "bsearch", "tolower", "toupper", "isalpha", "isdigit",
    "isalnum", "isspace", "isupper", "islower", "isxdigit", "isprint", "__ctype_b_loc", "__ctype_tolower_loc",
    "__ctype_toupper_loc", "printf", "vprintf", "puts", "putchar", "fprintf", "vfprintf", "fputs", "fputc", "putc",
    "fwrite", "fflush", "snprintf", "vsnprintf", "sprintf", "vsprintf", "__printf_chk", "__fprintf_chk", "__sprintf_chk",
    "__snprintf_chk", "__vsnprintf_chk", "__vfprintf_chk", "__memcpy_chk", "__memmove_chk", "__memset_chk",
    "__strcpy_chk", "__strcat_chk", "__strncpy_chk", "stdout", "stderr", "malloc", "calloc", "realloc", "free",
    "aligned_alloc", "posix_memalign", "abort", "__assert_fail", "__stack_chk_fail", "__cxa_atexit", "__cxa_finalize",
    "atexit", "__errno_location", "__libc_single_threaded", "localeconv", "nan", "nanf", "sscanf", "__isoc99_sscanf",
    "vsscanf", "__isoc99_vsscanf", "strerror", "strerror_r", "__xpg_strerror_r", "strtok", "strtok_r", "strdup", "strndup",
    "memrchr", "rawmemchr", "strchrnul", "toascii", "isblank", "iscntrl", "isgraph", "ispunct", "__ctype_get_mb_cur_max",
    // Reading the environment (the sandbox's holds PATH, HOME, LC_ALL and Stage II's tunables),
    // the clock and the thread id (log messages), and the locks and once-flags of host code
    // that guards its caches (std::mutex, std::call_once); none starts a thread.
    "getenv", "secure_getenv", "time", "gettimeofday", "clock_gettime", "localtime_r", "gmtime_r", "strftime",
    "pthread_self", "pthread_equal", "pthread_mutex_lock", "pthread_mutex_unlock", "pthread_mutex_trylock",
    "pthread_mutex_init", "pthread_mutex_destroy", "pthread_once", "pthread_key_create", "__pthread_key_create",
    "pthread_getspecific", "pthread_setspecific", "getpid",
    // Threads of host code (the matmul tiling's cache thread): the seccomp filter allows threads
    // only, and host code runs in no core (docs/sandbox.md, "What the walls cannot stop").
    "pthread_create", "pthread_join", "pthread_detach", "pthread_cond_init", "pthread_cond_destroy", "pthread_cond_wait",
    "pthread_cond_timedwait", "pthread_cond_signal", "pthread_cond_broadcast", "pthread_cond_clockwait", "nanosleep",
    "sched_yield", "pthread_attr_init", "pthread_attr_destroy", "pthread_attr_setstacksize",
};

// What kernel objects may call besides the twin, libm and the C++ runtime: the device has no C
// library, and kernel-side memory functions are renamed to charged ones (kernel_symbol_renames).
const Names k_libc_for_kernel = {
    "abort", "__assert_fail", "__stack_chk_fail", "__cxa_atexit", "__cxa_finalize", "atexit", "__errno_location",
    "__libc_single_threaded", "malloc", "calloc", "realloc", "free", "memcmp", "strcmp", "strncmp", "printf", "puts", "putchar",
    "__printf_chk",
    // A kernel build includes the host's tiling headers, whose namespace-scope statics may read
    // the environment at start-up (CANN's op_tiling.h: OPTILING_PROF); reading it changes nothing.
    "getenv", "secure_getenv",
};

// C++ library facilities an operator may not use: files, random devices.
const char* const k_libstdcxx_refused[] = {
    "std::filesystem", "std::experimental::filesystem", "std::basic_filebuf", "std::basic_ifstream", "std::basic_ofstream",
    "std::basic_fstream", "std::__basic_file", "std::random_device", "std::__cxx11::random_device", "std::__cxx11::basic_filebuf",
};

// And kernel code besides: threads (work on a thread the twin did not start has no core: it
// would be neither checked nor charged) and clocks (the device's kernel has none). Host code may
// use both: CANN's matmul tiling keeps a cache thread (common/op_host/op_tiling/cache_tiling.cc).
const char* const k_libstdcxx_refused_in_kernels[] = {
    "std::thread", "std::jthread", "std::this_thread", "std::condition_variable", "std::_V2::condition_variable_any",
    "std::__atomic_futex", "std::chrono::_V2::system_clock::now", "std::chrono::_V2::steady_clock::now",
};

// Namespaces a candidate may not define strong symbols in.
const char* const k_reserved_namespaces[] = {"std::", "__gnu_cxx::", "nlohmann::", "ascendopt_twin::", "__cxxabiv1::", "abi::"};

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

bool is_instrumentation(const std::string& name) {
    for (const char* p : {"__asan", "__sanitizer", "__ubsan", "__tsan", "__gcov", "__cyg_profile", "ascendopt_guard_"})
        if (starts_with(name, p)) return true;
    return false;
}

// Names the linker itself provides.
bool linker_defined(const std::string& name) {
    return name == "_GLOBAL_OFFSET_TABLE_" || name == "__dso_handle" || name == "_DYNAMIC" || starts_with(name, "__start_") ||
           starts_with(name, "__stop_");
}

// What `lib` defines: every name, and (into `strong`, when given) its strong definitions.
Status read_definitions(const std::string& nm, const std::filesystem::path& lib, bool dynamic, Names& all, Names* strong = nullptr) {
    std::vector<std::string> argv = {nm, "-P", "-g", "--defined-only"};
    if (dynamic) argv.push_back("-D");
    argv.push_back(lib.string());
    const ProcessResult r = run_process(argv, {.timeout_seconds = 60, .keep_bytes = size_t(64) << 20, .separate_stderr = true});
    if (!r.succeeded()) return make_error("cannot list the symbols of " + lib.string() + " (" + r.describe_end() + ")", "is binutils installed? (scripts/install-deps.sh)");
    size_t start = 0;
    while (start < r.output.size()) {
        size_t end = r.output.find('\n', start);
        if (end == std::string::npos) end = r.output.size();
        const std::string line = r.output.substr(start, end - start);
        start = end + 1;
        const size_t space = line.find(' ');
        if (space == std::string::npos || line.back() == ':') continue;  // archive member headers end in ':'
        std::string name = line.substr(0, space);
        if (const size_t at = name.find('@'); at != std::string::npos) name.resize(at);  // symbol versions
        if (name.empty()) continue;
        const char type = space + 1 < line.size() ? line[space + 1] : '?';
        const bool weak = type == 'W' || type == 'w' || type == 'V' || type == 'v' || type == 'u';
        if (strong && !weak) strong->insert(name);
        all.insert(std::move(name));
    }
    return ok_status();
}

Result<std::filesystem::path> library_path(const Toolchain& tc, const std::string& file) {
    const ProcessResult r = run_process({tc.cxx, "-print-file-name=" + file}, {.timeout_seconds = 30});
    std::string path = r.output;
    while (!path.empty() && (path.back() == '\n' || path.back() == ' ')) path.pop_back();
    std::error_code ec;
    if (!r.succeeded() || path.empty() || !std::filesystem::exists(path, ec))
        return make_error("the compiler does not know where " + file + " is", "check the toolchain (" + tc.cxx + ")");
    return std::filesystem::path(path);
}

// The qualified name of what a demangled symbol names, without its return type, template
// arguments or parameters: "char* ns::f<double>(char*, std::string)" is "ns::f".
std::string entity_name(const std::string& readable) {
    std::string name;
    int depth = 0;
    for (char c : readable) {
        if (c == '<') ++depth;
        else if (c == '>' && depth > 0) --depth;
        else if (depth == 0 && c == '(') break;
        else if (depth == 0) name += c;
    }
    const size_t space = name.rfind(' ');
    return space == std::string::npos ? name : name.substr(space + 1);
}

std::string describe(const CandidateObject& o) { return "object check: " + o.label + ": "; }

}  // namespace

std::string demangled(const std::string& name) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && out ? std::string(out.get()) : name;
}

const std::vector<std::pair<std::string, std::string>>& kernel_symbol_renames() {
    static const std::vector<std::pair<std::string, std::string>> renames = {
        {"memcpy", "ascendopt_guard_memcpy"},
        {"memmove", "ascendopt_guard_memmove"},
        {"memset", "ascendopt_guard_memset"},
        {"strlen", "ascendopt_guard_strlen"},
        {"snprintf", "ascendopt_guard_snprintf"},
        {"vsnprintf", "ascendopt_guard_vsnprintf"},
        {"sprintf", "ascendopt_guard_sprintf"},
        {"vsprintf", "ascendopt_guard_vsprintf"},
    };
    return renames;
}

const std::vector<std::pair<std::string, std::string>>& host_symbol_renames() {
    static const std::vector<std::pair<std::string, std::string>> renames = {{"syscall", "ascendopt_guard_syscall"},
                                                                              {"prctl", "ascendopt_guard_prctl"}};
    return renames;
}

Result<SymbolGate> SymbolGate::load(const Toolchain& tc) {
    SymbolGate g;
    const std::string nm = "nm";
    struct Source {
        const char* file;
        bool dynamic;
        Names* into;
    };
    const Source sources[] = {{"libc.so.6", true, &g.m_libc},           {"libm.so.6", true, &g.m_libm},
                              {"libstdc++.so", true, &g.m_libstdcxx},   {"libgcc_s.so.1", true, &g.m_libgcc},
                              {"libgcc.a", false, &g.m_libgcc},         {"ld-linux-x86-64.so.2", true, &g.m_loader}};
    for (const Source& s : sources) {
        auto path = library_path(tc, s.file);
        if (!path) {
            if (std::string(s.file).starts_with("ld-linux")) continue;  // another architecture's loader name
            return path.error();
        }
        if (auto read = read_definitions(nm, *path, s.dynamic, *s.into); !read) return read.error();
    }
    for (const auto& lib : tc.link_libs)
        if (auto read = read_definitions(nm, lib, false, g.m_twin, &g.m_twin_strong); !read) return read.error();
    return g;
}

std::string SymbolGate::check_definition(const CandidateObject& o, const std::string& name, bool strong) const {
    const std::string readable = demangled(name);
    if (is_instrumentation(name))
        return describe(o) + "it defines " + readable + ", a function of the instrumentation that checks and charges its memory accesses";
    const bool system = m_libc.count(name) || m_libm.count(name) || m_libstdcxx.count(name) || m_libgcc.count(name) || m_loader.count(name);
    const bool cxx = starts_with(name, "_Z");
    // The twin's weak definitions outside its own and the libraries' namespaces are hooks an
    // operator may replace (the log library's CheckLogLevel); its template instantiations are not.
    const bool twin_owned = m_twin_strong.count(name) || (m_twin.count(name) && starts_with(entity_name(readable), "AscendC::"));
    if (strong && (system || twin_owned))
        return describe(o) + "it defines " + readable + ", which " + (system ? "the C or C++ runtime" : "the twin") +
               " already defines: an operator may not replace code the harness itself runs";
    if (!strong && system && !cxx)
        return describe(o) + "it defines " + readable + " (weak), a C runtime function the harness itself calls";
    if (strong && cxx)
        for (const char* ns : k_reserved_namespaces)
            if (starts_with(entity_name(readable), ns))
                return describe(o) + "it defines " + readable + " in the reserved namespace " + std::string(ns, std::string(ns).size() - 2) +
                       ": specialising the library's or the twin's code is not allowed";
    return "";
}

std::vector<std::pair<std::string, std::string>> SymbolGate::private_copies(const ObjectSymbols& kernel_object) const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& name : kernel_object.defined_weak)
        if (m_twin.count(name) && !starts_with(name, "DW.ref.")) out.emplace_back(name, "ascendopt_kernel_copy." + name);
    return out;
}

bool SymbolGate::provided_by_a_library(const std::string& name) const {
    return m_twin.count(name) || m_libc.count(name) || m_libm.count(name) || m_libstdcxx.count(name) || m_libgcc.count(name) ||
           m_loader.count(name);
}

std::string SymbolGate::check_import(const CandidateObject& o, const std::string& name) const {
    if (m_twin.count(name) || m_libm.count(name) || m_libgcc.count(name) || m_loader.count(name) || linker_defined(name)) return "";
    const std::string readable = demangled(name);
    if (m_libstdcxx.count(name)) {
        for (const char* refused : k_libstdcxx_refused)
            if (starts_with(entity_name(readable), refused))
                return describe(o) + "it calls " + readable + ": operators may not use files or random devices of the C++ library";
        if (o.kernel)
            for (const char* refused : k_libstdcxx_refused_in_kernels)
                if (starts_with(entity_name(readable), refused))
                    return describe(o) + "it calls " + readable +
                           ": kernel code may not start threads or read a clock (work on a thread the twin did not start is "
                           "neither checked nor charged; the device's kernel has no clock)";
        return "";
    }
    if (m_libc.count(name)) {
        const Names& allowed = o.kernel ? k_libc_for_kernel : k_libc_for_host;
        if (allowed.count(name)) return "";
        return describe(o) + "it calls the C library's " + readable + ", which " +
               (o.kernel ? "kernel code may not use (the device has no C library; use the Ascend C API)"
                         : "operators may not use (docs/sandbox.md lists what host code may call)");
    }
    return describe(o) + "it needs " + readable + ", which no library an operator may use provides";
}

std::string SymbolGate::check(const std::vector<CandidateObject>& objects, bool imports) const {
    struct Definer {
        bool by_kernel = false;
        bool by_host = false;
    };
    std::map<std::string, Definer> defined;
    std::vector<ObjectSymbols> symbols;
    for (const auto& o : objects) {
        auto s = object_symbols(o.path);
        if (!s) return describe(o) + "it is not a readable ELF object";
        for (const auto* list : {&s->defined_strong, &s->defined_weak})
            for (const auto& name : *list) (o.kernel ? defined[name].by_kernel : defined[name].by_host) = true;
        symbols.push_back(std::move(*s));
    }
    for (size_t i = 0; i < objects.size(); ++i) {
        const CandidateObject& o = objects[i];
        for (const auto& name : symbols[i].defined_strong)
            if (auto why = check_definition(o, name, true); !why.empty()) return why;
        for (const auto& name : symbols[i].defined_weak)
            if (auto why = check_definition(o, name, false); !why.empty()) return why;
        for (const auto& name : imports ? symbols[i].undefined : std::vector<std::string>{}) {
            const auto it = defined.find(name);
            if (it != defined.end() && (o.kernel ? it->second.by_kernel : it->second.by_host)) continue;
            if (it != defined.end() && !provided_by_a_library(name))
                return describe(o) + (o.kernel ? "kernel code calls " + demangled(name) + ", which only host code defines"
                                               : "host code calls " + demangled(name) + ", which only kernel code defines") +
                       ": the two sides of an operator share no functions (kernel code runs on the device)";
            if (auto why = check_import(o, name); !why.empty()) return why;
        }
    }
    return "";
}

}  // namespace ascendopt
