#include "eval/operator_source.h"

#include <cstdlib>
#include <regex>
#include <set>

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

// Fills in the source files of the operator folder src.root.
Status find_sources(OperatorSource& src) {
    std::error_code ec;
    if (!fs::is_directory(src.root / "op_host", ec) || !fs::is_directory(src.root / "op_kernel", ec))
        return make_error(src.root.string() + " is not an operator folder: it needs op_host/ and op_kernel/ (the cann-ops layout)");
    for (const auto& f : list_files(src.root / "op_host", ".cpp"))
        if (!is_aclnn_api_file(f)) src.host_sources.push_back(f);
    src.kernel_sources = list_files(src.root / "op_kernel", ".cpp");
    if (src.host_sources.empty()) return make_error(src.root.string() + "/op_host has no .cpp file", "the tiling function and OpDef live in op_host/<op>.cpp");
    if (src.kernel_sources.empty()) return make_error(src.root.string() + "/op_kernel has no .cpp file", "the kernel lives in op_kernel/<op>.cpp");
    src.kernel_units = translation_units(src.root / "op_kernel", src.kernel_sources);
    for (const auto& h : list_files(src.root / "op_host", ".h"))
        if (h.filename().string().find("tiling") != std::string::npos) src.tiling_headers.push_back(h);
    for (const auto& dir : {src.root / "op_host", src.root / "op_kernel"})
        for (const auto& f : list_files(dir, "", true))
            if (!is_aclnn_api_file(f)) src.all_files.push_back(f);
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
            if (auto s = read_msopst(json, {}, src.cases); !s) return s.error();
    }
    if (auto s = find_sources(src); !s) return s.error();
    return src;
}

}  // namespace ascendopt
