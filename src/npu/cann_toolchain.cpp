#include "npu/cann_toolchain.h"

#include <cctype>
#include <algorithm>

namespace ascendopt {
namespace fs = std::filesystem;

std::string compute_unit_of(const std::string& soc_version) {
    std::string s;
    for (char c : soc_version) s += char(std::tolower(static_cast<unsigned char>(c)));
    // A series letter or suffix followed by the bin number: ascend910b2 -> ascend910b,
    // ascend310p3 -> ascend310p, ascend910_9391 -> ascend910_93.
    for (const char* series : {"ascend910_93", "ascend910b", "ascend310p", "ascend310b"}) {
        const std::string prefix = series;
        const bool bin_number = s.rfind(prefix, 0) == 0 &&
                                std::all_of(s.begin() + long(prefix.size()), s.end(), [](char c) { return c >= '0' && c <= '9'; });
        if (bin_number) return prefix;
    }
    return s;
}

Result<nlohmann::json> configure_presets(nlohmann::json presets, const CannInstall& cann, const PackageLayout& layout,
                                         const std::string& soc_version) {
    if (!presets.is_object() || !presets.contains("configurePresets") || !presets["configurePresets"].is_array())
        return make_error("the generated project's CMakePresets.json has no configurePresets list",
                          "msopgen from a CANN release other than " + std::string(k_cann_written_against) +
                              " may lay its project out differently; docs/npu.md says what to send back");
    bool found = false;
    for (auto& preset : presets["configurePresets"]) {
        if (!preset.is_object() || !preset.contains("cacheVariables") || !preset["cacheVariables"].is_object()) continue;
        auto& vars = preset["cacheVariables"];
        vars["ASCEND_CANN_PACKAGE_PATH"] = {{"type", "PATH"}, {"value", cann.root.string()}};
        vars["vendor_name"] = {{"type", "STRING"}, {"value", layout.vendor}};
        vars["ASCEND_COMPUTE_UNIT"] = {{"type", "STRING"}, {"value", compute_unit_of(soc_version)}};
        found = true;
    }
    if (!found)
        return make_error("the generated project's CMakePresets.json has no configure preset with cacheVariables",
                          "msopgen from a CANN release other than " + std::string(k_cann_written_against) +
                              " may lay its project out differently; docs/npu.md says what to send back");
    return presets;
}

std::string CannToolchain::prepended(const std::string& var, const std::vector<fs::path>& dirs) const {
    std::string out;
    // An empty entry would mean the current folder: pieces the toolkit lacks add nothing.
    for (const auto& d : dirs)
        if (!d.empty()) out += (out.empty() ? "" : ":") + d.string();
    if (auto inherited = m_env(var); inherited && !inherited->empty()) out += ":" + *inherited;
    return out;
}

std::map<std::string, std::string> CannToolchain::toolkit_env() const {
    const fs::path& root = m_cann.root;
    return {{"ASCEND_HOME_PATH", root.string()},
            {"ASCEND_TOOLKIT_HOME", root.string()},
            {"ASCEND_OPP_PATH", (root / "opp").string()},
            {"ASCEND_AICPU_PATH", root.string()},
            {"PATH", prepended("PATH", {m_cann.kernel_compiler.parent_path(), m_cann.msopgen.parent_path(), root / "bin"})},
            {"LD_LIBRARY_PATH", prepended("LD_LIBRARY_PATH", {root / "lib64"})},
            {"PYTHONPATH", prepended("PYTHONPATH", {root / "python" / "site-packages"})}};
}

CannCommand CannToolchain::generate_project(const PackageLayout& layout, const std::string& soc_version) const {
    return {"generate the custom-operator project",
            {m_cann.msopgen.string(), "gen", "-i", layout.prototype().string(), "-c", "ai_core-" + soc_version, "-lan", "cpp", "-out",
             layout.project().string()},
            layout.work,
            toolkit_env()};
}

CannCommand CannToolchain::build_package(const PackageLayout& layout) const {
    return {"build the operator package", {"bash", "build.sh"}, layout.project(), toolkit_env()};
}

CannCommand CannToolchain::install_package(const fs::path& run_file, const PackageLayout& layout) const {
    return {"install the operator package", {run_file.string(), "--install-path=" + layout.opp().string()}, layout.work, toolkit_env()};
}

CannCommand CannToolchain::compile_invoker(const fs::path& source, const fs::path& output, const PackageLayout& layout,
                                           const std::vector<fs::path>& include_dirs) const {
    const fs::path lib64 = m_cann.root / "lib64";
    std::vector<std::string> argv = {"g++", "-std=c++17", "-O2", source.string(), "-o", output.string()};
    for (const auto& d : include_dirs) argv.push_back("-I" + d.string());
    argv.push_back("-I" + layout.op_api_include().string());
    for (const auto& d : {layout.op_api_lib(), lib64}) {
        argv.push_back("-L" + d.string());
        argv.push_back("-Wl,-rpath," + d.string());
    }
    for (const char* lib : {"-lcust_opapi", "-lnnopbase", "-lascendcl"}) argv.push_back(lib);
    return {"compile the invoker", argv, layout.work, toolkit_env()};
}

CannCommand CannToolchain::run_invoker(const fs::path& invoker, const std::vector<std::string>& args, const PackageLayout& layout,
                                       int device) const {
    CannCommand c{"run the cases on NPU " + std::to_string(device), {invoker.string()}, layout.work, toolkit_env()};
    c.argv.insert(c.argv.end(), args.begin(), args.end());
    // Only this candidate's package: the runtime looks up custom operators in these vendor
    // folders before the toolkit's own.
    c.env["ASCEND_CUSTOM_OPP_PATH"] = layout.vendor_dir().string();
    c.env["LD_LIBRARY_PATH"] = prepended("LD_LIBRARY_PATH", {layout.op_api_lib(), m_cann.root / "lib64"});
    c.env["ASCEND_RT_VISIBLE_DEVICES"] = std::to_string(device);
    return c;
}

Result<CannCommand> CannToolchain::profile(const CannCommand& run, const fs::path& out_dir) const {
    if (!m_cann.msprof) {
        Error e = make_error("--profile on the npu backend needs msprof, which the toolkit at " + m_cann.root.string() + " lacks",
                             "install the toolkit's profiling tools (tools/profiler/bin/msprof)");
        e.missing_tool = true;
        return e;
    }
    CannCommand c = run;
    c.purpose = "profile: " + run.purpose;
    c.argv = {m_cann.msprof->string(), "op", "--output=" + out_dir.string(), "--aic-metrics=PipeUtilization"};
    c.argv.insert(c.argv.end(), run.argv.begin(), run.argv.end());
    return c;
}

}  // namespace ascendopt
