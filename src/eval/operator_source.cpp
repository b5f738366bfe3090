#include "eval/operator_source.h"

#include "util/files.h"

namespace ascendopt {

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
    if (!fs::is_directory(src.root / "op_host", ec) || !fs::is_directory(src.root / "op_kernel", ec))
        return make_error(src.root.string() + " is not an operator folder: it needs op_host/ and op_kernel/ (the cann-ops layout)");
    src.host_sources = list_files(src.root / "op_host", ".cpp");
    src.kernel_sources = list_files(src.root / "op_kernel", ".cpp");
    if (src.host_sources.empty()) return make_error(src.root.string() + "/op_host has no .cpp file", "the tiling function and OpDef live in op_host/<op>.cpp");
    if (src.kernel_sources.empty()) return make_error(src.root.string() + "/op_kernel has no .cpp file", "the kernel lives in op_kernel/<op>.cpp");
    for (const auto& h : list_files(src.root / "op_host", ".h"))
        if (h.filename().string().find("tiling") != std::string::npos) src.tiling_headers.push_back(h);
    for (const auto& dir : {src.root / "op_host", src.root / "op_kernel"})
        for (const auto& f : list_files(dir, "", true)) src.all_files.push_back(f);
    return src;
}

}  // namespace ascendopt
