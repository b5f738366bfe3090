#include "npu/cann_install.h"

#include <sys/utsname.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>

namespace ascendopt {
namespace fs = std::filesystem;

namespace {

// One thing the backend needs under the toolkit: its candidate paths (the first that exists
// wins) and what it is for, which the error message gives.
struct Piece {
    std::vector<fs::path> candidates;  // relative to the toolkit root
    std::string what;
};

std::optional<fs::path> first_existing(const fs::path& root, const std::vector<fs::path>& candidates) {
    for (const auto& c : candidates) {
        std::error_code ec;
        if (fs::exists(root / c, ec)) return root / c;
    }
    return std::nullopt;
}

std::string machine_arch() {
    utsname u{};
    return uname(&u) == 0 ? u.machine : "x86_64";
}

// "version=8.0.RC3" from the toolkit's install record; "" when there is none.
std::string toolkit_version(const fs::path& root) {
    std::ifstream in(root / (machine_arch() + "-linux") / "ascend_toolkit_install.info");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("version=", 0) == 0) return line.substr(8);
    return "";
}

Error missing_tool(std::string message, std::string hint) {
    Error e = make_error(std::move(message), std::move(hint));
    e.missing_tool = true;
    return e;
}

// The toolkit root to check, with how it was found; an error when a variable names no folder.
// Unset variables and absent default folders are recorded in `looked`.
Result<std::optional<std::pair<fs::path, std::string>>> locate_root(const EnvLookup& env, const CannSearchPaths& paths,
                                                                    std::vector<std::string>& looked) {
    for (const char* var : {"ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME"}) {
        const auto value = env(var);
        if (!value || value->empty()) {
            looked.push_back(std::string(var) + " is not set");
            continue;
        }
        std::error_code ec;
        if (!fs::is_directory(*value, ec))
            return missing_tool(std::string(var) + "=" + *value + " is not a folder",
                              "point it at the toolkit's version folder (the one holding lib64/ and set_env.sh), or "
                              "run `source <toolkit>/set_env.sh`");
        return std::optional{std::pair{fs::path(*value), std::string(var)}};
    }
    std::vector<fs::path> defaults;
    if (paths.home) defaults.push_back(*paths.home / "Ascend/ascend-toolkit/latest");
    defaults.push_back(paths.system_root);
    for (const auto& d : defaults) {
        std::error_code ec;
        if (fs::is_directory(d, ec)) return std::optional{std::pair{d, std::string("the default path")}};
        looked.push_back(d.string() + " does not exist");
    }
    return std::optional<std::pair<fs::path, std::string>>{};
}

std::string joined(const std::vector<std::string>& items, const std::string& sep) {
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
    return out;
}

// "/dev/davinci0, /dev/davinci1" for {0, 1}.
std::string device_files(const std::vector<int>& ids) {
    std::vector<std::string> names;
    for (int id : ids) names.push_back("/dev/davinci" + std::to_string(id));
    return joined(names, ", ");
}

}  // namespace

EnvLookup process_environment() {
    return [](const std::string& name) -> std::optional<std::string> {
        const char* v = std::getenv(name.c_str());
        return v ? std::optional<std::string>(v) : std::nullopt;
    };
}

CannSearchPaths default_search_paths(const EnvLookup& env) {
    CannSearchPaths p;
    if (auto home = env("HOME"); home && !home->empty()) p.home = *home;
    // Where the driver's device files are, for a container that mounts them elsewhere (and for
    // the tests' stand-in machine).
    if (auto dev = env("ASCENDOPT_NPU_DEV_DIR"); dev && !dev->empty()) p.dev = *dev;
    return p;
}

Result<CannInstall> find_cann(const EnvLookup& env, const CannSearchPaths& paths) {
    std::vector<std::string> looked;
    auto located = locate_root(env, paths, looked);
    if (!located) return located.error();
    if (!*located)
        return missing_tool("--backend npu needs the CANN toolkit, and none was found: " + joined(looked, "; "),
                            "install the CANN toolkit (the Ascend-cann-toolkit package for your NPU) and run "
                            "`source <install folder>/ascend-toolkit/set_env.sh`, or set ASCEND_HOME_PATH");
    const auto& [root, found_by] = **located;
    const Piece acl{{"lib64/libascendcl.so", "runtime/lib64/libascendcl.so"}, "lib64/libascendcl.so (the ACL runtime)"};
    const Piece nnopbase{{"lib64/libnnopbase.so"}, "lib64/libnnopbase.so (aclCreateTensor and the aclnn executor)"};
    const Piece msopgen{{"python/site-packages/bin/msopgen", "bin/msopgen"},
                        "python/site-packages/bin/msopgen (generates the custom-operator project)"};
    const Piece compiler{{"compiler/ccec_compiler/bin/ccec", "compiler/ccec_compiler/bin/bisheng", "tools/ccec_compiler/bin/ccec"},
                         "compiler/ccec_compiler/bin/ccec (the kernel compiler)"};
    std::vector<std::string> missing;
    auto need = [&](const Piece& p) {
        auto found = first_existing(root, p.candidates);
        if (!found) missing.push_back(p.what);
        return found.value_or(fs::path());
    };
    CannInstall c;
    c.root = root;
    c.found_by = found_by;
    c.acl_library = need(acl);
    c.nnopbase_library = need(nnopbase);
    c.msopgen = need(msopgen);
    c.kernel_compiler = need(compiler);
    if (!missing.empty())
        return missing_tool("the CANN toolkit at " + root.string() + " (found by " + found_by + ") lacks " + joined(missing, ", "),
                            "install the full Ascend-cann-toolkit package there (the nnae or runtime-only packages do not "
                            "build operators), or point ASCEND_HOME_PATH at one that has them");
    c.msprof = first_existing(root, {"tools/profiler/bin/msprof", "bin/msprof"});
    c.version = toolkit_version(root);
    return c;
}

Result<std::vector<int>> parse_device_list(const std::string& text) {
    std::vector<int> out;
    std::set<int> seen;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = std::min(text.find(',', start), text.size());
        std::string item = text.substr(start, comma - start);
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (item.empty() || item.size() > 4 || !std::all_of(item.begin(), item.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
            return make_error("'" + text + "' is not a list of NPU ids: item '" + item + "' is not a device number",
                              "give device ids separated by commas, as in ASCEND_RT_VISIBLE_DEVICES=0,1");
        const int id = std::stoi(item);
        if (!seen.insert(id).second) return make_error("'" + text + "' names NPU " + item + " twice");
        out.push_back(id);
        start = comma + 1;
    }
    return out;
}

Result<std::vector<int>> visible_devices(const EnvLookup& env, const fs::path& dev) {
    std::vector<int> present;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dev, ec)) {
        // "davinci<N>": the device files; davinci_manager and the rest are not devices.
        const std::string name = e.path().filename().string();
        const std::string digits = name.rfind("davinci", 0) == 0 ? name.substr(7) : "";
        if (!digits.empty() && digits.size() <= 4 && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            present.push_back(std::stoi(digits));
    }
    std::sort(present.begin(), present.end());
    std::vector<std::string> absent;
    if (!fs::exists(dev / "davinci_manager", ec)) absent.push_back((dev / "davinci_manager").string());
    if (present.empty()) absent.push_back((dev / "davinci<N>").string());
    if (!absent.empty())
        return missing_tool("no NPU is visible: " + joined(absent, " and ") + (absent.size() == 1 ? " does" : " do") + " not exist",
                            "install the Ascend driver, or start this container with the NPU devices "
                            "(--device /dev/davinci_manager --device /dev/davinci0 ...)");
    const auto listed = env("ASCEND_RT_VISIBLE_DEVICES");
    if (!listed || listed->empty()) return present;
    auto ids = parse_device_list(*listed);
    if (!ids) return make_error("ASCEND_RT_VISIBLE_DEVICES: " + ids.error().message, ids.error().hint);
    for (int id : *ids)
        if (!std::binary_search(present.begin(), present.end(), id))
            return make_error("ASCEND_RT_VISIBLE_DEVICES names NPU " + std::to_string(id) + ", which this machine does not have",
                              "this machine has " + device_files(present));
    return ids;
}

}  // namespace ascendopt
