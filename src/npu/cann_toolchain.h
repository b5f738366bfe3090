// Every CANN command line the npu backend runs, in one place (docs/npu.md "The toolchain
// interface"): generating a custom-operator project for a candidate, building it into an
// operator package, installing that package into the candidate's own OPP folder (never the
// user's global one), compiling and running the invoker, and profiling a run. Nothing here runs
// a command; the evaluator runs what these return, so the lines are unit-tested as data.
//
// Written against the CANN 8.0 toolkit layout and tools (msopgen, the project's build.sh, the
// makeself .run package, msprof op), from their public documentation; not yet run on hardware.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "npu/cann_install.h"

namespace ascendopt {

// One command: what it is for (progress and error messages), its arguments, its folder and the
// variables it adds to the environment.
struct CannCommand {
    std::string purpose;
    std::vector<std::string> argv;
    std::filesystem::path cwd;
    std::map<std::string, std::string> env;
};

// The folders of one candidate's package build, all under its own work folder. The vendor name
// is unique per candidate so that two installed packages can never shadow each other.
struct PackageLayout {
    std::filesystem::path work;
    std::string vendor = "ascendopt";

    std::filesystem::path prototype() const { return work / "op.json"; }  // msopgen's input
    std::filesystem::path project() const { return work / "project"; }
    std::filesystem::path presets() const { return project() / "CMakePresets.json"; }
    std::filesystem::path opp() const { return work / "opp"; }  // the package's --install-path
    std::filesystem::path vendor_dir() const { return opp() / "vendors" / vendor; }
    std::filesystem::path op_api_lib() const { return vendor_dir() / "op_api" / "lib"; }
    std::filesystem::path op_api_include() const { return vendor_dir() / "op_api" / "include"; }
};

// "Ascend910B2" -> "ascend910b": the chip series a project's ASCEND_COMPUTE_UNIT names.
std::string compute_unit_of(const std::string& soc_version);

// The generated project's CMakePresets.json pointed at this toolkit, this vendor and this chip:
// every configure preset's ASCEND_CANN_PACKAGE_PATH, vendor_name and ASCEND_COMPUTE_UNIT. An
// error when the document has no configure preset with cache variables (a layout we do not know).
Result<nlohmann::json> configure_presets(nlohmann::json presets, const CannInstall& cann, const PackageLayout& layout,
                                         const std::string& soc_version);

class CannToolchain {
public:
    // `env` gives the inherited search paths (PATH, LD_LIBRARY_PATH, PYTHONPATH) the commands
    // extend.
    CannToolchain(CannInstall cann, EnvLookup env) : m_cann(std::move(cann)), m_env(std::move(env)) {}
    const CannInstall& install() const { return m_cann; }

    // msopgen gen: the project skeleton (CMake files, build.sh, presets) for the prototype.
    CannCommand generate_project(const PackageLayout& layout, const std::string& soc_version) const;
    // The project's build.sh: host and kernel compiled for the chip, the aclnn API generated,
    // everything packed into build_out/custom_opp_<os>_<arch>.run.
    CannCommand build_package(const PackageLayout& layout) const;
    // The .run package installed under layout.opp() instead of the toolkit's opp folder.
    CannCommand install_package(const std::filesystem::path& run_file, const PackageLayout& layout) const;
    // The invoker, linked against the ACL runtime, libnnopbase and the package's libcust_opapi.
    CannCommand compile_invoker(const std::filesystem::path& source, const std::filesystem::path& output, const PackageLayout& layout,
                                const std::vector<std::filesystem::path>& include_dirs) const;
    // The invoker on one device: it sees only that device, as device 0, and only this package.
    CannCommand run_invoker(const std::filesystem::path& invoker, const std::vector<std::string>& args, const PackageLayout& layout,
                            int device) const;
    // `run` under msprof op, its per-pipe profile written under `out_dir`; an error when the
    // toolkit has no msprof.
    Result<CannCommand> profile(const CannCommand& run, const std::filesystem::path& out_dir) const;

private:
    // What the toolkit's set_env.sh sets, for a toolkit found by its default path as much as for
    // one whose set_env.sh the user sourced.
    std::map<std::string, std::string> toolkit_env() const;
    std::string prepended(const std::string& var, const std::vector<std::filesystem::path>& dirs) const;
    CannInstall m_cann;
    EnvLookup m_env;
};

}  // namespace ascendopt
