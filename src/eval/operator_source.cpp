#include "eval/operator_source.h"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <set>

#include "eval/include_scan.h"
#include "eval/op_cmake.h"
#include "util/files.h"

namespace ascendopt {

Result<fs::path> cann_ops_checkout() {
    const char* env = std::getenv("ASCENDOPT_CANN_OPS");
    if (!env || !*env)
        return make_error("no cann-ops checkout was named",
                          "give your clone of cann-ops with --cann-ops DIR or ASCENDOPT_CANN_OPS=DIR (the folder that holds src/)");
    std::error_code ec;
    if (!fs::is_directory(env, ec))
        return make_error(std::string("the cann-ops checkout ") + env + " (--cann-ops / ASCENDOPT_CANN_OPS) is not a folder",
                          "name the folder of your cann-ops clone, the one that holds src/");
    return fs::canonical(env, ec);
}

std::string OperatorSource::display_name() const { return op_type.empty() ? root.filename().string() : op_type; }

std::string OperatorSource::display_path(const fs::path& file) const {
    if (path_within(file, root) || !checkout || !path_within(file, *checkout)) return file.lexically_relative(root).generic_string();
    return file.lexically_normal().lexically_relative(checkout->lexically_normal()).generic_string();
}

std::vector<fs::path> OperatorSource::include_dirs(bool kernel) const {
    std::vector<fs::path> dirs = kernel ? kernel_include_dirs : host_include_dirs;
    // Kernel builds include the host's tiling headers, which include what the host code sees.
    if (kernel)
        for (const auto& d : host_include_dirs)
            if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
    return dirs;
}

Result<GoldenSpec> parse_golden_ref(const std::string& ref, const fs::path& base) {
    GoldenSpec g;
    std::string file = ref;
    const auto colon = ref.rfind(':');
    if (colon != std::string::npos) {
        file = ref.substr(0, colon);
        g.function = ref.substr(colon + 1);
    }
    fs::path p = file;
    if (p.is_relative()) p = base / p;
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) return make_error("golden file " + p.string() + " does not exist", "golden is \"path/relative/to/the/file.py:function\"");
    g.file = fs::canonical(p, ec).string();
    if (p.extension() == ".py") {
        g.kind = GoldenSpec::Kind::python;
        if (g.function.empty()) g.function = "calc_expect_func";
    } else if (p.extension() == ".cpp" || p.extension() == ".cc") {
        g.kind = GoldenSpec::Kind::cpp;
    } else {
        return make_error("golden file " + p.string() + " must be a .py (numpy) or .cpp (C++ reference) file");
    }
    return g;
}

namespace {

// The op_kernel/*.cpp files that no file of op_kernel/ includes by name.
std::vector<fs::path> translation_units(const fs::path& kernel_dir, const std::vector<fs::path>& sources) {
    static const std::regex include(R"(#\s*include\s*["<]([^">]+\.cpp)[">])");
    std::set<std::string> included;
    for (const auto& f : list_files(kernel_dir, "", true)) {
        auto text = read_text(f);
        if (!text) continue;
        for (std::sregex_iterator it(text->begin(), text->end(), include), end; it != end; ++it)
            included.insert(fs::path((*it)[1].str()).filename().string());
    }
    std::vector<fs::path> units;
    for (const auto& f : sources)
        if (!included.count(f.filename().string())) units.push_back(f);
    return units.empty() ? sources : units;  // files that include each other: compile them all
}

// op_host/aclnn_*.{cpp,h} and op_host/*_l0.{cpp,h} are the operator's aclnn API (level 2 and
// level 0), which the CANN build compiles into the separate op_api library: no part of tiling or OpDef.
bool is_aclnn_api_file(const fs::path& f) {
    const std::string stem = f.stem().string();
    return stem.rfind("aclnn_", 0) == 0 || (stem.size() > 3 && stem.compare(stem.size() - 3, 3, "_l0") == 0);
}

// `p` with the prefix `from` replaced by `to` (a path of the original operator folder as the
// candidate's copy has it); other paths unchanged.
fs::path rebase(const fs::path& p, const fs::path& from, const fs::path& to) {
    if (from == to || !path_within(p, from)) return p;
    return (to / p.lexically_normal().lexically_relative(from.lexically_normal())).lexically_normal();
}

void add_unique(std::vector<fs::path>& v, const fs::path& p) {
    if (std::find(v.begin(), v.end(), p) == v.end()) v.push_back(p);
}

bool declares_tiling_data(const fs::path& f) {
    const auto text = read_text(f);
    return text && (text->find("BEGIN_TILING_DATA_DEF") != std::string::npos || text->find("REGISTER_TILING_DATA_CLASS") != std::string::npos);
}

bool any_file_mentions(const std::vector<fs::path>& files, const std::string& what) {
    for (const auto& f : files)
        if (const auto text = read_text(f); text && text->find(what) != std::string::npos) return true;
    return false;
}

// Some CMakeLists.txt leave out the op_host file that registers the operator (add_layer_norm_quant
// comments its _def.cpp out): when the sources it names have no OP_ADD, the op_host/*.cpp files
// with one are added. (Tiling code in files no CMakeLists.txt names, the .cc files of the
// multi_scale_deformable_attn family, is not: those files include headers from folders no
// CMakeLists.txt names either.)
void add_unlisted_op_def(OperatorSource& src) {
    if (any_file_mentions(src.host_sources, "OP_ADD(")) return;
    for (const auto& f : list_files(src.root / "op_host", ".cpp"))
        if (!is_aclnn_api_file(f) && any_file_mentions({f}, "OP_ADD(")) add_unique(src.host_sources, f);
}

// Host sources and include folders from the CMakeLists.txt of the original folder (paths inside
// it mapped to the copy in src.root), or op_host/*.cpp without one.
Status find_host_sources(OperatorSource& src) {
    auto plan = read_op_cmake(src.origin, src.checkout);
    if (!plan) return plan.error();
    if (!*plan) {
        for (const auto& f : list_files(src.root / "op_host", ".cpp"))
            if (!is_aclnn_api_file(f)) src.host_sources.push_back(f);
        if (src.checkout) {
            add_unique(src.host_include_dirs, *src.checkout / "src" / "common" / "inc");
            src.host_defines = checkout_host_defines();
        }
        src.kernel_include_dirs = src.host_include_dirs;
    } else {
        for (const auto& f : (*plan)->host_sources) src.host_sources.push_back(rebase(f, src.origin, src.root));
        for (const auto& d : (*plan)->host_include_dirs) add_unique(src.host_include_dirs, rebase(d, src.origin, src.root));
        for (const auto& d : (*plan)->kernel_include_dirs) add_unique(src.kernel_include_dirs, rebase(d, src.origin, src.root));
        src.kernel_defines = (*plan)->kernel_defines;
        src.host_defines = (*plan)->host_defines;
        src.build_notes = (*plan)->notes;
        add_unlisted_op_def(src);
    }
    // A candidate's includes that leave its folder reach the original's neighbours.
    if (src.origin != src.root)
        for (auto* dirs : {&src.host_include_dirs, &src.kernel_include_dirs})
            for (const char* sub : {"op_host", "op_kernel"}) add_unique(*dirs, src.origin / sub);
    return ok_status();
}

// The include search of src's build: its folders, and the roots whose files count as the
// operator's context (its own folder, and the checkout's src/ or the original's folder).
IncludeSearch include_search(const OperatorSource& src) {
    IncludeSearch search;
    search.roots = {src.root};
    if (src.checkout) search.roots.push_back(*src.checkout / "src");
    else if (src.origin != src.root) search.roots.push_back(src.origin);
    search.dirs = {src.root / "op_host", src.root / "op_kernel"};
    for (const auto& d : src.include_dirs(false)) search.dirs.push_back(d);
    for (const auto& d : src.include_dirs(true)) add_unique(search.dirs, d);
    return search;
}

// The source file beside `header` in another operator's op_host/ (X.cpp or X.cc for X.h), or
// empty: the header's definitions, which that operator's build compiles.
fs::path sibling_source_of(const fs::path& header, const OperatorSource& src) {
    const auto dir = header.parent_path();
    if (dir.filename() != "op_host" || !is_operator_folder(dir.parent_path())) return {};
    if (path_within(header, src.root) || path_within(header, src.origin)) return {};
    std::error_code ec;
    for (const char* ext : {".cpp", ".cc"}) {
        auto candidate = fs::path(header).replace_extension(ext);
        if (fs::is_regular_file(candidate, ec) && !is_aclnn_api_file(candidate)) return candidate;
    }
    return {};
}

// cann-ops links the tiling sources of every operator into one library, so an operator whose
// host code includes a sibling operator's op_host header (gemm_v2 includes mat_mul_v3's base
// tiling class) links against that header's definitions. The twin builds one operator at a
// time, so it adds the sibling's source of each such header, and of the headers those reach.
void add_sibling_sources(OperatorSource& src) {
    for (size_t added = 1; added != 0;) {
        added = 0;
        for (const auto& f : include_closure(src.host_sources, include_search(src))) {
            const auto source = sibling_source_of(f, src);
            if (source.empty() || std::find(src.host_sources.begin(), src.host_sources.end(), source) != src.host_sources.end()) continue;
            src.host_sources.push_back(source);
            ++added;
        }
    }
}

// The files outside src.root that the build reads, and the tiling headers.
void find_context(OperatorSource& src) {
    const auto search = include_search(src);
    std::vector<fs::path> start = src.host_sources;
    start.insert(start.end(), src.kernel_units.begin(), src.kernel_units.end());
    const auto reached = include_closure(start, search);
    const std::vector<fs::path>* built[] = {&src.host_sources, &src.kernel_units, &reached};
    for (const auto* list : built)
        for (const auto& f : *list) add_unique(path_within(f, src.root) ? src.build_files : src.context_files, f);
    // The headers that declare tiling data, which CANN turns into the kernel's tiling structs:
    // op_host/*tiling*.h, and what the host code reaches (a tiling header shared by a family of
    // operators, in the checkout's src/common). Only those that declare some: a tiling helper
    // header with function definitions would be defined twice in the kernel build.
    for (const auto& h : list_files(src.root / "op_host", ".h"))
        if (h.filename().string().find("tiling") != std::string::npos && declares_tiling_data(h)) src.tiling_headers.push_back(h);
    const auto host_reached = include_closure(src.host_sources, search);
    for (const auto& f : host_reached)
        if (f.extension() != ".cpp" && f.extension() != ".cc" && declares_tiling_data(f)) add_unique(src.tiling_headers, f);
}

// Fills in the source files of the operator folder src.root.
Status find_sources(OperatorSource& src) {
    std::error_code ec;
    if (!fs::is_directory(src.root / "op_host", ec) || !fs::is_directory(src.root / "op_kernel", ec))
        return make_error(src.root.string() + " is not an operator folder: it needs op_host/ and op_kernel/ (the cann-ops layout)");
    if (src.origin.empty()) src.origin = src.root;
    if (!src.checkout) src.checkout = enclosing_checkout(src.origin);
    if (auto s = find_host_sources(src); !s) return s;
    src.kernel_sources = list_files(src.root / "op_kernel", ".cpp");
    if (src.host_sources.empty()) return make_error(src.root.string() + "/op_host has no .cpp file", "the tiling function and OpDef live in op_host/<op>.cpp");
    if (src.kernel_sources.empty()) return make_error(src.root.string() + "/op_kernel has no .cpp file", "the kernel lives in op_kernel/<op>.cpp");
    src.kernel_units = translation_units(src.root / "op_kernel", src.kernel_sources);
    add_sibling_sources(src);
    for (const auto& dir : {src.root / "op_host", src.root / "op_kernel"})
        for (const auto& f : list_files(dir, "", true))
            if (!is_aclnn_api_file(f)) src.all_files.push_back(f);
    find_context(src);
    return ok_status();
}

}  // namespace

Result<OperatorSource> load_operator_for_smoke(const fs::path& dir) {
    std::error_code ec;
    OperatorSource src;
    if (!fs::is_directory(dir, ec)) return make_error("no such operator folder: " + dir.string());
    src.root = fs::canonical(dir, ec);
    src.smoke = true;
    src.hidden_case = false;
    if (auto s = find_sources(src); !s) return s.error();
    return src;
}

bool is_operator_folder(const fs::path& dir) {
    std::error_code ec;
    return fs::is_directory(dir / "op_host", ec) && fs::is_directory(dir / "op_kernel", ec);
}

bool names_an_operator(const fs::path& dir) {
    std::error_code ec;
    return is_operator_folder(dir) || fs::is_regular_file(dir / "ascendopt.toml", ec);
}

Result<OperatorSource> load_operator(const fs::path& path) {
    std::error_code ec;
    OperatorSource src;
    if (!fs::exists(path, ec)) return make_error("no such operator: " + path.string() + " does not exist");
    if (fs::is_regular_file(path, ec)) {
        if (path.extension() != ".toml") return make_error(path.string() + " is a file but not an ascendopt.toml manifest");
        if (auto s = read_manifest(path, src); !s) return s.error();
    } else if (fs::is_regular_file(path / "ascendopt.toml", ec)) {
        if (auto s = read_manifest(path / "ascendopt.toml", src); !s) return s.error();
    } else {
        src.root = fs::canonical(path, ec);
        for (const auto& json : list_files(src.root / "tests" / "st", ".json"))
            if (auto s = read_msopst(json, {}, src.cases, src.root); !s) return s.error();
    }
    if (auto s = find_sources(src); !s) return s.error();
    return src;
}

Result<OperatorSource> load_copy_of(const fs::path& dir, const OperatorSource& original) {
    std::error_code ec;
    OperatorSource src;
    if (!fs::is_directory(dir, ec)) return make_error("no such operator folder: " + dir.string());
    src.root = fs::canonical(dir, ec);
    src.origin = original.origin.empty() ? original.root : original.origin;
    src.checkout = original.checkout;
    if (auto s = find_sources(src); !s) return s.error();
    src.cases = original.cases;
    src.op_type = original.op_type;
    src.hidden_case = original.hidden_case;
    src.hidden_shapes = original.hidden_shapes;
    src.smoke = original.smoke;
    src.manifest = original.manifest;
    return src;
}

}  // namespace ascendopt
