#include "eval/builder.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <regex>
#include <set>

#include "core/format.h"
#include "eval/candidate_launch.h"
#include "eval/elf_screen.h"
#include "eval/generated_names.h"
#include "eval/symbol_gate.h"
#include "eval/include_scan.h"
#include "util/cache_trim.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/json_bounded.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace {

// The host sources' merged object; the ascendopt_candidate_ prefix is what the link's
// section script matches candidate objects by (k_candidate_data_script).
constexpr const char* k_host_object = "ascendopt_candidate_host.o";
constexpr const char* k_host_binary = "host";

constexpr double k_compile_timeout = 300;

// Everything a host build depends on besides the toolchain: the operator's files by their path
// in the folder, the checkout's files it reads by their path in the checkout, the include
// folders and kernel defines, all by name and content.
std::string build_inputs_hash(const OperatorSource& op) {
    Sha256 h;
    for (const auto* files : {&op.all_files, &op.context_files})
        for (const auto& f : *files) {
            auto text = read_text(f);
            h.update(op.display_path(f)).update("\n").update(text ? *text : std::string()).update("\n");
        }
    for (const auto* list : {&op.host_sources, &op.tiling_headers}) {
        h.update("--\n");
        for (const auto& f : *list) h.update(op.display_path(f)).update("\n");
    }
    for (bool kernel : {false, true}) {
        h.update(kernel ? "kernel-dirs\n" : "host-dirs\n");
        for (const auto& d : op.include_dirs(kernel)) h.update(op.display_path(d)).update("\n");
    }
    for (const auto* defines : {&op.kernel_defines, &op.host_defines})
        for (const auto& d : *defines) h.update("-D").update(d).update("\n");
    return h.hex();
}

std::vector<std::string> include_flags(const OperatorSource& op, bool kernel) {
    std::vector<std::string> flags;
    if (kernel) flags.push_back("-I" + (op.root / "op_kernel").string());
    flags.push_back("-I" + (op.root / "op_host").string());
    for (const auto& d : op.include_dirs(kernel)) flags.push_back("-I" + d.string());
    return flags;
}

std::string upper(std::string s) {
    for (auto& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

const char* ge_name(DType t) {
    switch (t) {
        case DType::f16: return "DT_FLOAT16";
        case DType::bf16: return "DT_BF16";
        case DType::f32: return "DT_FLOAT";
        case DType::i8: return "DT_INT8";
        case DType::u8: return "DT_UINT8";
        case DType::i16: return "DT_INT16";
        case DType::u16: return "DT_UINT16";
        case DType::i32: return "DT_INT32";
        case DType::u32: return "DT_UINT32";
        case DType::i64: return "DT_INT64";
        case DType::u64: return "DT_UINT64";
        case DType::boolean: return "DT_BOOL";
        default: return "DT_UNDEFINED";
    }
}


// CANN's kernel_type.h defines the data type codes as macros (ge::DataType's values), which
// kernels compare ORIG_DTYPE_<NAME> with in #if and in C++ expressions.
std::string kernel_dtype_macros() {
    static const std::pair<const char*, int> codes[] = {
        {"DT_FLOAT", 0}, {"DT_FLOAT16", 1}, {"DT_INT8", 2}, {"DT_INT32", 3}, {"DT_UINT8", 4}, {"DT_INT16", 6},
        {"DT_UINT16", 7}, {"DT_UINT32", 8}, {"DT_INT64", 9}, {"DT_UINT64", 10}, {"DT_DOUBLE", 11}, {"DT_BOOL", 12},
        {"DT_STRING", 13}, {"DT_DUAL_SUB_INT8", 14}, {"DT_DUAL_SUB_UINT8", 15}, {"DT_COMPLEX64", 16},
        {"DT_COMPLEX128", 17}, {"DT_QINT8", 18}, {"DT_QINT16", 19}, {"DT_QINT32", 20}, {"DT_QUINT8", 21},
        {"DT_QUINT16", 22}, {"DT_RESOURCE", 23}, {"DT_STRING_REF", 24}, {"DT_DUAL", 25}, {"DT_VARIANT", 26},
        {"DT_BF16", 27}, {"DT_UNDEFINED", 28}, {"DT_INT4", 29}, {"DT_UINT1", 30}, {"DT_INT2", 31}, {"DT_UINT2", 32},
        {"DT_COMPLEX32", 33}, {"DT_HIFLOAT8", 34}, {"DT_FLOAT8_E5M2", 35}, {"DT_FLOAT8_E4M3FN", 36},
        {"DT_FLOAT8_E8M0", 37}};
    std::string out;
    for (const auto& [name, code] : codes) out += std::string("#define ") + name + " " + std::to_string(code) + "\n";
    return out;
}

// The interesting part of a compiler log: its lines, paths shown relative to the operator (and
// to the checkout for its files).
std::string tidy_log(std::string log, const SourceView& where) {
    std::vector<std::string> prefixes = {where.root.string() + "/"};
    if (where.checkout) prefixes.push_back(where.checkout->string() + "/");
    for (const auto& prefix : prefixes)
        for (size_t p = log.find(prefix); p != std::string::npos; p = log.find(prefix, p)) log.erase(p, prefix.size());
    return log;
}

// CANN generates the kernel's tiling structs at global scope, and nothing else of the host's
// tiling headers: the kernel build includes those headers, then brings each tiling struct they
// declare inside namespace optiling to global scope (not the namespace's constants, which the
// kernel may declare again under the same names).
std::string tiling_struct_names(const std::vector<fs::path>& headers) {
    static const std::regex declared(R"(BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\))");
    std::set<std::string> names;
    for (const auto& h : headers) {
        const auto text = read_text(h);
        if (!text || text->find("namespace optiling") == std::string::npos) continue;
        for (std::sregex_iterator it(text->begin(), text->end(), declared), end; it != end; ++it) names.insert((*it)[1].str());
    }
    std::string out = "// Generated by ascendopt: the tiling structs as the kernel sees them.\n#pragma once\nnamespace optiling {}\n";
    for (const auto& n : names) out += "using optiling::" + n + ";\n";
    return out;
}

// The include guard of a header: the macro of its first #ifndef when the next line defines it.
std::string include_guard(const fs::path& header) {
    static const std::regex guard(R"(^\s*#\s*ifndef\s+(\w+)\s*\n\s*#\s*define\s+(\w+))");
    const auto text = read_text(header);
    if (!text) return {};
    // Skip the leading comments: the guard is the first preprocessor conditional.
    const size_t first = text->find('#');
    if (first == std::string::npos) return {};
    const size_t line = text->rfind('\n', first);
    const std::string rest = text->substr(line == std::string::npos ? 0 : line + 1);
    std::smatch m;
    if (!std::regex_search(rest, m, guard, std::regex_constants::match_continuous) || m[1] != m[2]) return {};
    return m[1].str();
}

}  // namespace

// DTYPE_<NAME> of the optional parameters a case leaves out: CANN compiles a kernel per dtype
// combination of the OpDef, so every parameter's macro exists, the absent ones with their
// type in the combination the present ones select (dequant_swiglu_quant names
// DTYPE_QUANT_SCALE without a quant_scale). Types ascendopt cannot represent are left out.
std::string absent_param_dtype_macros(const OpDefInfo& opdef, const Case& sample, const std::set<std::string>& typed) {
    std::map<std::string, DType> present;
    for (const auto* list : {&sample.inputs, &sample.outputs})
        for (const auto& t : *list) present.emplace(t.name, t.dtype);
    size_t columns = 0;
    for (const auto* list : {&opdef.inputs, &opdef.outputs})
        for (const auto& p : *list) columns = std::max(columns, p.dtypes.size());
    for (size_t c = 0; c < columns; ++c) {
        bool matches = true;
        for (const auto* list : {&opdef.inputs, &opdef.outputs})
            for (const auto& p : *list) {
                const auto it = present.find(p.name);
                if (it != present.end() && (c >= p.dtypes.size() || p.dtypes[c] != it->second)) matches = false;
            }
        if (!matches) continue;
        std::string out;
        for (const auto* list : {&opdef.inputs, &opdef.outputs})
            for (const auto& p : *list)
                if (!typed.count(upper(p.name)) && c < p.dtypes.size() && !p.unsupported_columns.count(c))
                    out += "#define DTYPE_" + upper(p.name) + " " + dtype_cpp(p.dtypes[c]) + "\n#define ORIG_DTYPE_" + upper(p.name) + " " +
                           ge_name(p.dtypes[c]) + "\n";
        return out;
    }
    return "";
}

std::vector<std::string> colliding_include_guards(const std::vector<fs::path>& tiling_headers, const std::vector<fs::path>& kernel_files) {
    std::vector<std::string> out;
    for (const auto& h : tiling_headers) {
        const std::string g = include_guard(h);
        if (g.empty()) continue;
        for (const auto& k : kernel_files)
            if (k != h && include_guard(k) == g) {
                if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
                break;
            }
    }
    return out;
}

Result<std::pair<std::string, int>> find_kernel_entry(const std::vector<fs::path>& kernel_sources) {
    // extern "C" (with or without a space) then the qualifiers in any order, then void name(...).
    static const std::regex entry(R"(extern\s*"C"\s*(?:(?:__global__|__aicore__|inline)\s+)+void\s+(\w+)\s*\(([^)]*)\))");
    for (const auto& f : kernel_sources) {
        auto text = read_text(f);
        if (!text) return text.error();
        std::smatch m;
        if (std::regex_search(*text, m, entry)) {
            const std::string params = m[2].str();
            int args = params.find_first_not_of(" \t\r\n") == std::string::npos ? 0 : 1;
            for (char c : params) args += c == ',';
            return std::make_pair(m[1].str(), args);
        }
    }
    return make_error("no kernel entry found in op_kernel/*.cpp",
                      "the kernel must be declared extern \"C\" __global__ __aicore__ void <name>(GM_ADDR ...)");
}

std::optional<std::string> rewrite_launch_chevrons(const std::string& text) {
    if (text.find("<<<") == std::string::npos) return std::nullopt;
    static const std::regex launch(R"(\b((?:\w+::)*\w+)\s*<<<([^;]*?)>>>)");
    std::string out = std::regex_replace(text, launch, "::ascendopt_twin::chevron_launch(\"$1\", $2)");
    if (out == text) return std::nullopt;
    return out;
}

std::string tiling_class_in_headers(const std::vector<fs::path>& headers, const std::string& op_type) {
    if (op_type.empty()) return {};
    const std::regex registered(R"(REGISTER_TILING_DATA_CLASS\s*\(\s*)" + op_type + R"(\s*,\s*(\w+)\s*\))");
    static const std::regex declared(R"(BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\))");
    std::set<std::string> classes;
    for (const auto& h : headers) {
        const auto text = read_text(h);
        if (!text) continue;
        std::smatch m;
        if (std::regex_search(*text, m, registered)) return m[1].str();
        for (std::sregex_iterator it(text->begin(), text->end(), declared), end; it != end; ++it) classes.insert((*it)[1].str());
    }
    // No registration at all (scatter_add_with_sorted): the one class the headers declare.
    return classes.size() == 1 ? *classes.begin() : std::string();
}

std::string tensor_dtype_defines(const Case& sample) {
    std::string out;
    std::set<std::string> inputs;
    for (const auto& t : sample.inputs) inputs.insert(t.name);
    for (const auto* list : {&sample.inputs, &sample.outputs})
        for (const auto& t : *list) {
            const bool ref_output = list == &sample.outputs && inputs.count(t.name) > 0;
            // An output of an input's name (a parameter updated in place, eye_fp64's y) is seen
            // by the kernel as <NAME>_REF; the input keeps <NAME>.
            const std::string name = upper(t.name) + (ref_output ? "_REF" : "");
            out += "#define DTYPE_" + name + " " + dtype_cpp(t.dtype) + "\n";
            out += "#define ORIG_DTYPE_" + name + " " + ge_name(t.dtype) + "\n";
        }
    return out;
}

bool clashes_with_c_library(const std::string& name) {
    // Functions the C library declares at global scope, which a kernel entry of the same name
    // would redeclare (cann-ops has kernels named cos, sqrt, trunc, exp, log, abs, ...).
    static const std::set<std::string> names = {
        "abs",   "acos",  "acosh", "asin",  "asinh", "atan",  "atan2", "atanh", "cbrt",      "ceil",  "copysign", "cos",
        "cosh",  "div",   "erf",   "erfc",  "exp",   "exp2",  "expm1", "fabs",  "fdim",      "floor", "fma",      "fmax",
        "fmin",  "fmod",  "frexp", "hypot", "ilogb", "labs",  "ldexp", "lgamma", "llabs",    "llrint", "llround", "log",
        "log10", "log1p", "log2",  "logb",  "lrint", "lround", "modf", "nan",   "nearbyint", "nextafter", "pow", "remainder",
        "remquo", "rint", "round", "scalbln", "scalbn", "sin", "sinh", "sqrt",  "tan",       "tanh",  "tgamma",   "trunc",
        "exit",  "free",  "malloc", "rand",  "memcpy", "memset", "strlen", "printf", "puts",  "sleep", "time",    "signal"};
    return names.count(name) > 0;
}

Builder::Builder(Toolchain tc, fs::path cache_dir, uint64_t cache_limit_bytes) : m_tc(std::move(tc)), m_cache(std::move(cache_dir)) {
    // Half-made builds of runs that were killed or crashed.
    for (const char* area : {"builds", "pch"}) sweep_abandoned_temp_dirs(m_cache / area, "tmp-");
    // Every candidate of every search is a build of its own: without a limit the cache grows
    // until the disk is full (a Level-1 study left 39 GB).
    trim_cache(m_cache / "builds", {.max_bytes = cache_limit_bytes});
}

std::string SourceView::show(const fs::path& file) const {
    if (path_within(file, root) || !checkout || !path_within(file, *checkout)) return file.lexically_relative(root).generic_string();
    return file.lexically_normal().lexically_relative(checkout->lexically_normal()).generic_string();
}

SourceView source_view(const OperatorSource& op) {
    SourceView v{op.root, {}, op.checkout};
    if (op.checkout) v.visible.push_back(*op.checkout / "src");
    if (!op.origin.empty() && op.origin != op.root) v.visible.push_back(op.origin);
    return v;
}

SandboxSpec Builder::build_view(const SourceView& where, const fs::path& out_dir) const {
    SandboxSpec view;
    // Earlier builds are visible read-only: kernel links take the host objects from there.
    view.read_only = {m_tc.twin_include, m_tc.share_dir, m_tc.src_dir, m_cache / "pch", m_cache / "builds", where.root};
    for (const auto& v : where.visible) view.read_only.push_back(v);
    for (const auto& lib : m_tc.link_libs) view.read_only.push_back(lib.parent_path());
    if (auto cxx = find_program(m_tc.cxx)) view.read_only.push_back(fs::canonical(*cxx).parent_path());
    view.writable = {out_dir};
    view.cwd = out_dir;
    return view;
}

ProcessResult Builder::run_confined(const std::vector<std::string>& argv, const fs::path& out_dir, double timeout) {
    ProcessOptions limits{.env = {{"PATH", "/usr/bin:/bin"}, {"LC_ALL", "C"}}, .inherit_env = false, .timeout_seconds = timeout,
                          .memory_limit_bytes = 8ull << 30, .cpu_seconds = uint64_t(timeout), .file_size_bytes = 1ull << 30,
                          .keep_bytes = 32 * 1024};
    if (!m_bwrap) {
        add_launch_walls(limits, nullptr);
        return run_process(argv, limits);
    }
    SandboxSpec view;
    view.writable = {out_dir};
    view.cwd = out_dir;
    add_launch_walls(limits, &view);
    ProcessResult r = run_process(sandboxed_argv(*m_bwrap, argv, view), limits);
    undo_sandbox_exit_code(r);
    return r;
}

Status Builder::compile(const std::vector<std::string>& args, const fs::path& source, const SourceView& where, const fs::path& out_dir,
                        uint64_t largest_output) {
    // A candidate can make the compiler itself run away (a macro-expanded initializer, a
    // template recursion): it gets the memory, CPU time and file size a real operator needs.
    const ProcessOptions limits{.timeout_seconds = k_compile_timeout, .memory_limit_bytes = m_compile_memory,
                                .cpu_seconds = uint64_t(k_compile_timeout), .file_size_bytes = largest_output, .max_tasks = 256,
                                .keep_bytes = 32 * 1024};
    const ProcessResult r = m_bwrap ? run_process(sandboxed_argv(*m_bwrap, args, build_view(where, out_dir)), limits) : run_process(args, limits);
    if (r.succeeded()) return ok_status();
    const std::string what = source.empty() ? "linking" : "compiling " + where.show(source);
    if (r.output.find("memory exhausted") != std::string::npos || r.output.find("out of memory allocating") != std::string::npos ||
        r.output.find("std::bad_alloc") != std::string::npos) {
        char gib[32];
        std::snprintf(gib, sizeof gib, "%g", double(m_compile_memory) / double(1ull << 30));
        return make_error(what + " failed: the compiler ran out of its " + gib + " GiB of memory (--compiler-memory)", "",
                          tidy_log(r.output, where));
    }
    if (r.output.find("No space left on device") != std::string::npos) {
        Error e{what + " failed: the disk is full (No space left on device); this says nothing about the operator",
                "free space where the build cache lives (" + m_cache.string() + "; $ASCENDOPT_CACHE_DIR moves it) and rerun",
                tidy_log(r.output, where)};
        e.missing_tool = true;  // the machine's failure, not the operator's (Evaluator: not a verdict)
        return e;
    }
    return make_error(what + " failed (" + r.describe_end() + ")", "", tidy_log(r.output, where));
}

Status Builder::compile_objects(const std::vector<fs::path>& sources, const std::vector<std::string>& flags,
                                const fs::path& out_dir, const std::string& prefix, const SourceView& where,
                                std::vector<std::string>& objects) {
    for (size_t i = 0; i < sources.size(); ++i) {
        const fs::path obj = out_dir / (prefix + std::to_string(i) + ".o");
        std::vector<std::string> args = {m_tc.cxx};
        args.insert(args.end(), flags.begin(), flags.end());
        args.insert(args.end(), {"-c", sources[i].string(), "-o", obj.string()});
        if (auto s = compile(args, sources[i], where, out_dir); !s) return s;
        if (const auto why = startup_code_in_object(obj); !why.empty()) {
            Error e = make_error("object check: " + where.show(sources[i]) + ": its object holds " + why,
                                 "an operator may not run code before the harness's walls are up (docs/sandbox.md)");
            e.refused = true;
            return e;
        }
        objects.push_back(obj.string());
    }
    return ok_status();
}

// Gathers the candidate objects' writable statics into one output section whose bounds the twin
// knows (__ascendopt_candidate_data_start/_end): kernel code may write there and nowhere else
// outside its stack, GM and on-chip memory (twin/rt/candidate_memory.h).
constexpr const char* k_candidate_data_script = R"(SECTIONS
{
  ascendopt_candidate_data : ALIGN(64)
  {
    __ascendopt_candidate_data_start = .;
    *ascendopt_candidate_*.o(.data .data.* .bss .bss.* COMMON)
    __ascendopt_candidate_data_end = .;
  }
}
INSERT AFTER .bss;
)";

Status Builder::link(const std::vector<CandidateObject>& objects, const fs::path& output, const SourceView& where,
                     const std::vector<CandidateObject>& checked_alongside) {
    auto gate = symbol_gate();
    if (!gate) return gate.error();
    std::vector<CandidateObject> checked = objects;
    checked.insert(checked.end(), checked_alongside.begin(), checked_alongside.end());
    if (const auto why = (*gate)->check(checked, m_check_imports); !why.empty()) {
        Error e = make_error(why, "an operator calls the Ascend C API, libm and a small part of the C and C++ libraries, and defines "
                                  "nothing those or the twin define (docs/sandbox.md, \"The object gate\")");
        e.refused = true;
        return e;
    }
    const fs::path script = output.parent_path() / "candidate_data.ld";
    if (auto s = write_atomic(script, k_candidate_data_script); !s) return s.error();
    // The twin's libraries come first and whole: where a candidate object holds a weak copy of
    // a function or template the twin also has, the twin's own copy is the one linked.
    // -gz: the twin's libraries bring most of a binary's debug sections; compressed, a build
    // takes less than half the space (the test suite's cache holds about 900 of them).
    std::vector<std::string> args = {m_tc.cxx, "-rdynamic", "-gz", "-o", output.string(), "-Wl,-T," + script.string(), "-Wl,--whole-archive"};
    for (const auto& lib : m_tc.link_libs) args.push_back(lib.string());
    args.push_back("-Wl,--no-whole-archive");
    for (const auto& o : objects) args.push_back(o.path.string());
    args.insert(args.end(), {"-lpthread", "-ldl"});
    auto linked = compile(args, {}, where, output.parent_path());
    std::error_code ec;
    fs::remove(script, ec);
    return linked;
}

Result<const SymbolGate*> Builder::symbol_gate() {
    std::lock_guard<std::mutex> lock(m_gate_mutex);
    if (!m_gate) {
        auto loaded = SymbolGate::load(m_tc);
        if (!loaded) return loaded.error();
        m_gate = std::move(*loaded);
    }
    return &*m_gate;
}

// Host code's raw system calls go through a version that makes only the harmless ones
// (twin/rt/candidate_memory.h): CANN's log headers ask for the thread id that way.
Status Builder::rename_host_symbols(const fs::path& object, const SourceView& where) {
    std::vector<std::string> args = {"objcopy"};
    for (const auto& [from, to] : host_symbol_renames()) args.push_back("--redefine-sym=" + from + "=" + to);
    args.push_back(object.string());
    return compile(args, {}, where, object.parent_path());
}

// Kernel objects call charged, confined versions of the C library's memory functions
// (twin/rt/candidate_memory.h): every byte they move is the kernel's own scalar access.
// Its template instantiations that the twin also has become its own (SymbolGate::private_copies).
Status Builder::rename_kernel_symbols(const fs::path& object, const SourceView& where) {
    auto gate = symbol_gate();
    if (!gate) return gate.error();
    const auto symbols = object_symbols(object);
    if (!symbols) return make_error("cannot read the symbols of " + object.string());
    std::vector<std::string> args = {"objcopy"};
    for (const auto& [from, to] : kernel_symbol_renames()) args.push_back("--redefine-sym=" + from + "=" + to);
    for (const auto& [from, to] : (*gate)->private_copies(*symbols)) args.push_back("--redefine-sym=" + from + "=" + to);
    args.push_back(object.string());
    return compile(args, {}, where, object.parent_path());
}

Result<fs::path> Builder::publish(const fs::path& tmp, const std::string& key) {
    const fs::path final_dir = m_cache / "builds" / key;
    std::error_code ec;
    fs::rename(tmp, final_dir, ec);
    if (ec) {
        fs::remove_all(tmp, ec);  // another process published the same entry first
        if (!fs::is_directory(final_dir)) return make_error("cannot store a build in " + final_dir.string());
    }
    return final_dir;
}

Result<fs::path> Builder::precompiled_prelude() {
    std::lock_guard<std::mutex> lock(m_pch_mutex);
    if (!m_pch.empty()) return m_pch;
    const std::string key = sha256_hex(m_tc.fingerprint + "pch-v2");
    const fs::path dir = m_cache / "pch" / key;
    const fs::path header = dir / "ascendopt_kernel_prelude.h";
    std::error_code ec;
    if (!fs::exists(header.string() + ".gch", ec)) {
        auto made = make_temp_dir(m_cache / "pch", "tmp");
        if (!made) return made.error();
        ScratchDir tmp(*made);
        const fs::path tmp_header = tmp.path() / header.filename();
        if (auto s = write_atomic(tmp_header, "#pragma once\n#include \"kernel_operator.h\"\n"); !s) return s.error();
        auto args = std::vector<std::string>{m_tc.cxx};
        for (auto& f : m_tc.kernel_flags()) args.push_back(f);
        args.insert(args.end(), {"-x", "c++-header", tmp_header.string(), "-o", tmp_header.string() + ".gch"});
        if (auto s = compile(args, tmp_header, SourceView{tmp.path()}, tmp.path()); !s) return make_error("precompiling the twin headers failed", "", s.error().detail);
        fs::rename(tmp.path(), dir, ec);
        if (!ec) tmp.release();  // else another process stored it first; ours is removed
    }
    m_pch = header;
    return m_pch;
}

Result<HostBuild> Builder::build_host(const OperatorSource& op) {
    HostBuild hb;
    Sha256 key;
    key.update(m_tc.fingerprint).update(m_check_imports ? "host-v8\n" : "host-v8 imports unchecked\n").update(build_inputs_hash(op));
    hb.key = key.hex();
    std::error_code ec;
    fs::path dir = m_cache / "builds" / hb.key;
    hb.cached = fs::is_regular_file(dir / "describe.json", ec) && fs::is_regular_file(dir / k_host_binary, ec);
    if (hb.cached) touch_cache_entry(dir);  // least recently used builds are trimmed first
    if (!hb.cached) {
        auto made = make_temp_dir(m_cache / "builds", "tmp");
        if (!made) return made.error();
        ScratchDir tmp(*made);
        auto flags = m_tc.host_flags();
        for (auto& f : include_flags(op, false)) flags.push_back(std::move(f));
        for (const auto& d : op.host_defines) flags.push_back("-D" + d);
        std::vector<std::string> objects;
        if (auto s = compile_objects(op.host_sources, flags, tmp.path(), "host", source_view(op), objects); !s) return s.error();
        // One relocatable object of all host sources, in which a function several of them
        // define (gelu_quant's GetMod, defined in a header that two sources include) keeps the
        // first definition: CANN builds those sources into separate libraries (optiling,
        // opsproto), where the same function in both is no conflict. Between host code and the
        // twin's libraries a second definition is still an error.
        const fs::path merged = tmp.path() / k_host_object;
        std::vector<std::string> merge = {m_tc.cxx, "-r", "-nostdlib", "-Wl,--allow-multiple-definition", "-o", merged.string()};
        merge.insert(merge.end(), objects.begin(), objects.end());
        if (auto s = compile(merge, {}, source_view(op), tmp.path()); !s) return s.error();
        for (const auto& o : objects) fs::remove(o, ec);
        objects = {merged.string()};
        if (auto s = rename_host_symbols(merged, source_view(op)); !s) return s.error();
        // The host binary: the twin and the host code, no kernel. It describes the OpDef now and
        // runs every case's tiling later, each time in a process of its own (twin/rt/harness.h).
        if (auto s = link({{merged, "the host sources", false}}, tmp.path() / k_host_binary, source_view(op)); !s) return s.error();
        const ProcessResult d = run_confined({(tmp.path() / k_host_binary).string(), "--describe", (tmp.path() / "describe.json").string()},
                                             tmp.path(), 60);
        if (!d.succeeded())
            return make_error("the host code failed while registering the operator (" + d.describe_end() + ")", "", d.output);
        auto published = publish(tmp.path(), hb.key);
        tmp.release();
        if (!published) return published.error();
    }
    hb.dir = dir;
    auto text = read_text(dir / "describe.json");
    if (!text) return text.error();
    auto doc = parse_bounded_json(*text, "the OpDef the host code reported (describe.json)");
    if (!doc) return doc.error();
    auto info = parse_opdef(*doc, op.op_type, m_soc_name);
    if (!info) return info.error();
    hb.opdef = std::move(*info);
    return hb;
}

Result<KernelBuild> Builder::build_kernel(const OperatorSource& op, const HostBuild& host, const Case& sample) {
    auto entry = find_kernel_entry(op.kernel_units);
    if (!entry) return entry.error();
    KernelBuild kb;
    kb.kernel_name = entry->first;
    kb.kernel_args = entry->second;
    // The kernel's own sources and the kernel headers it reaches (in some op_kernel folder).
    std::vector<fs::path> kernel_files = op.kernel_units;
    for (const auto* list : {&op.build_files, &op.context_files})
        for (const auto& f : *list)
            if (f.generic_string().find("/op_kernel") != std::string::npos) kernel_files.push_back(f);
    kb.inferred_type = inferred_kernel_type(kernel_files);
    // The names written below come from the operator into headers no screen reads: each must be
    // an identifier (generated_names.h).
    if (auto s = check_kernel_build_names(op, host.opdef, sample, kb.kernel_name); !s) return s.error();

    // The per-build macros go into a generated header included after the precompiled twin
    // headers: GCC refuses a PCH when a macro the PCH mentions is defined on the command line.
    std::string defines;
    // FORMAT_<NAME> of each tensor and the FORMAT_* codes kernels compare them with: after the
    // tiling headers, whose host types name ge::FORMAT_* enumerators.
    std::string format_defines = kernel_dtype_macros();
    for (const auto& [name, code] : format_names()) format_defines += "#define FORMAT_" + name + " " + std::to_string(code) + "\n";
    for (const auto& d : m_target_defines) {
        const auto eq = d.find('=');
        defines += "#define " + (eq == std::string::npos ? d : d.substr(0, eq) + " " + d.substr(eq + 1)) + "\n";
    }
    defines += tensor_dtype_defines(sample);
    std::set<std::string> typed;
    for (const auto* list : {&sample.inputs, &sample.outputs})
        for (const auto& t : *list) {
            typed.insert(upper(t.name));
            format_defines += "#define FORMAT_" + upper(t.name) + " " + std::to_string(format_code(t.format).value_or(2)) + "\n";
        }
    defines += absent_param_dtype_macros(host.opdef, sample, typed);
    // Kernel builds include the host's tiling headers, which may use what host defines give.
    std::vector<std::string> kernel_defines = op.host_defines;
    kernel_defines.insert(kernel_defines.end(), op.kernel_defines.begin(), op.kernel_defines.end());
    for (const auto& d : kernel_defines) {
        const auto eq = d.find('=');
        defines += "#define " + (eq == std::string::npos ? d : d.substr(0, eq) + " " + d.substr(eq + 1)) + "\n";
    }
    // The host registers the kernel's tiling class; when the compiled host sources do not (the
    // tiling code lies in a file the CMakeLists.txt does not name), the tiling headers do.
    std::string tiling = host.opdef.tiling_class;
    if (tiling.empty()) tiling = tiling_class_in_headers(op.tiling_headers, host.opdef.type);
    if (tiling.empty()) tiling = "ascendopt_twin::NoTilingClassRegistered";
    if (auto s = check_generated_name("the tiling class the host code registers", tiling, true); !s) return s.error();
    defines += "#define ASCENDOPT_TILING_TYPE " + tiling + "\n";
    if (clashes_with_c_library(kb.kernel_name)) {
        // On the device no C library is in scope; here the twin's headers declared it already
        // (precompiled, before this macro), so only the kernel's own mentions are renamed.
        kb.kernel_name = "ascendopt_kernel_entry_" + kb.kernel_name;
        defines += "#define " + entry->first + " " + kb.kernel_name + "\n";
    }

    Sha256 key;
    key.update(host.key).update("kernel-v5\n");
    key.update(defines).update(format_defines);
    const std::string k = key.hex();
    std::error_code ec;
    const fs::path dir = m_cache / "builds" / k;
    kb.binary = dir / "op";
    kb.host_binary = host.dir / k_host_binary;
    kb.cached = fs::is_regular_file(kb.binary, ec);
    if (kb.cached) {
        touch_cache_entry(dir);
        return kb;
    }

    auto pch = precompiled_prelude();
    if (!pch) return pch.error();
    auto made = make_temp_dir(m_cache / "builds", "tmp");
    if (!made) return made.error();
    ScratchDir tmp(*made);
    const fs::path defines_header = tmp.path() / "build_defines.h";
    if (auto s = write_atomic(defines_header, "// Generated by ascendopt for this kernel build.\n#pragma once\n" + defines); !s)
        return s.error();
    auto flags = m_tc.kernel_flags();
    flags.push_back("-Winvalid-pch");
    for (auto& f : include_flags(op, true)) flags.push_back(std::move(f));
    flags.insert(flags.end(), {"-include", pch->string(), "-include", defines_header.string()});
    for (const auto& h : op.tiling_headers) flags.insert(flags.end(), {"-include", h.string()});
    const fs::path names_header = tmp.path() / "tiling_names.h";
    // A host tiling header whose include guard a kernel header of another name also uses
    // (ctc_loss_v3_grad: CTC_LOSS_V3_GRAD_H_ in op_host and op_kernel) would hide that kernel
    // header, since the kernel build includes the host header first, which CANN's does not.
    std::string undo_guards;
    for (const auto& g : colliding_include_guards(op.tiling_headers, kernel_files)) undo_guards += "#undef " + g + "\n";
    if (auto s = write_atomic(names_header, tiling_struct_names(op.tiling_headers) + undo_guards + format_defines); !s) return s.error();
    flags.insert(flags.end(), {"-include", names_header.string()});
    // Units with <<<>>> launches compile from a rewritten copy that reports the original's
    // name and lines and finds its quoted includes beside the original.
    std::vector<fs::path> units;
    for (const auto& unit : op.kernel_units) {
        const auto text = read_text(unit);
        const auto rewritten = text ? rewrite_launch_chevrons(*text) : std::nullopt;
        if (!rewritten) {
            units.push_back(unit);
            continue;
        }
        const fs::path copy = tmp.path() / "launch_rewritten" / unit.filename();
        fs::create_directories(copy.parent_path(), ec);
        if (auto s = write_atomic(copy, "#line 1 \"" + unit.string() + "\"\n" + *rewritten); !s) return s.error();
        flags.push_back("-iquote" + unit.parent_path().string());
        units.push_back(copy);
    }
    std::vector<std::string> kernel_objects;
    if (auto s = compile_objects(units, flags, tmp.path(), "ascendopt_candidate_kernel", source_view(op), kernel_objects); !s) return s.error();
    std::vector<CandidateObject> objects;
    for (size_t i = 0; i < kernel_objects.size(); ++i) {
        if (auto s = rename_kernel_symbols(kernel_objects[i], source_view(op)); !s) return s.error();
        objects.push_back({kernel_objects[i], source_view(op).show(op.kernel_units[i]), true});
    }
    // No host object: the operator binary runs the launch only, from the tiling the host binary
    // computed in its own process, so no host code shares a process with the measurement. The
    // gate still sees the host object, to name a kernel call into host code for what it is.
    if (auto s = link(objects, tmp.path() / "op", source_view(op), {{host.dir / k_host_object, "the host sources", false}}); !s)
        return s.error();
    // Nothing reads the kernel objects once the binary is linked (the host object stays: every
    // kernel build's gate checks it).
    for (const auto& o : kernel_objects) fs::remove(o, ec);
    auto published = publish(tmp.path(), k);
    tmp.release();
    if (!published) return published.error();
    return kb;
}

}  // namespace ascendopt
