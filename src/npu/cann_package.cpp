#include "npu/cann_package.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>

#include "npu/invoker_source.h"
#include "npu/op_prototype.h"
#include "util/file_lock.h"
#include "util/files.h"
#include "util/hash.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// How long each step may take: a package build compiles host and kernel for every dtype
// combination the OpDef lists, which takes minutes on a busy machine.
constexpr double k_generate_s = 300, k_build_s = 3600, k_install_s = 600, k_compile_s = 300;

std::string command_line(const std::vector<std::string>& argv) {
    std::string out;
    for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
    return out;
}

// The last `lines` lines of `text`.
std::string tail(const std::string& text, int lines) {
    size_t at = text.size();
    while (lines-- > 0 && at > 0) {
        const size_t nl = text.rfind('\n', at - 1);
        if (nl == std::string::npos) return text;
        at = nl;
    }
    return text.substr(at == 0 ? 0 : at + 1);
}

// Whose failure a step's is when it runs but fails: the package build compiles the candidate's
// code (a compile error there is the candidate's verdict); the other steps are the toolkit's.
enum class Blame { toolkit, candidate };

// Runs one step, its output appended to the log; an error names the step, the log and, in its
// detail, the end of the output.
Status run_step(const CannCommand& cmd, const fs::path& log, double timeout_s, Blame blame = Blame::toolkit) {
    ProcessResult r = run_process(cmd.argv, {.cwd = cmd.cwd, .env = cmd.env, .timeout_seconds = timeout_s, .keep_bytes = 256 * 1024});
    std::ofstream(log, std::ios::app) << "$ " << command_line(cmd.argv) << "   (in " << cmd.cwd.string() << ")\n" << r.output << "\n";
    if (r.succeeded()) return ok_status();
    Error e = make_error("npu backend: " + cmd.purpose + " failed (" + (r.started ? r.describe_end() : "could not start") + "): " +
                             command_line(cmd.argv) + "; the whole log is " + log.string(),
                         "the end of its output is below; the log has the rest");
    e.detail = tail(r.output, 30);
    e.missing_tool = !r.started;
    e.build_failure = r.started && !r.timed_out && blame == Blame::candidate;
    return e;
}

// What the package build reads of the candidate: its op_host/ and op_kernel/ files, keyed by
// their path in the operator folder. Its CMakeLists.txt files belong to the cann-ops build, not
// to msopgen's project, and stay out.
std::vector<std::pair<fs::path, fs::path>> candidate_files(const OperatorSource& src) {
    std::vector<std::pair<fs::path, fs::path>> out;
    for (const auto& f : src.all_files) {
        const fs::path rel = f.lexically_relative(src.root);
        if (rel.empty() || *rel.begin() == ".." || f.filename() == "CMakeLists.txt") continue;
        out.emplace_back(rel, f);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The candidate's files in place of msopgen's templates in op_host/ and op_kernel/ (the
// project's own CMakeLists.txt there stay: they compile whatever sources the folder holds).
Status place_candidate_files(const OperatorSource& src, const fs::path& project) {
    for (const char* dir : {"op_host", "op_kernel"}) {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(project / dir, ec))
            if (e.is_regular_file() && e.path().filename() != "CMakeLists.txt") fs::remove(e.path(), ec);
        if (ec) return make_error("npu backend: msopgen's project has no readable " + (project / dir).string(),
                                  "msopgen from a CANN release other than " + std::string(k_cann_written_against) +
                                      " may lay its project out differently; docs/npu.md says what to send back");
    }
    for (const auto& [rel, from] : candidate_files(src)) {
        std::error_code ec;
        fs::create_directories((project / rel).parent_path(), ec);
        fs::copy_file(from, project / rel, fs::copy_options::overwrite_existing, ec);
        if (ec) return make_error("npu backend: cannot copy " + from.string() + " into the package project: " + ec.message());
    }
    return ok_status();
}

Status point_presets(const CannToolchain& toolchain, const PackageLayout& layout, const std::string& soc) {
    auto text = read_text(layout.presets());
    if (!text) return make_error("npu backend: msopgen's project has no " + layout.presets().string(), text.error().message);
    json doc = json::parse(*text, nullptr, false);
    auto pointed = configure_presets(std::move(doc), toolchain.install(), layout, soc);
    if (!pointed) return pointed.error();
    return write_atomic(layout.presets(), pointed->dump(2));
}

// The one .run file the build leaves in build_out/.
Result<fs::path> built_run_file(const PackageLayout& layout) {
    const fs::path out = layout.project() / "build_out";
    const auto runs = list_files(out, ".run");
    if (runs.size() == 1) return runs.front();
    return make_error("npu backend: the package build left " + std::to_string(runs.size()) + " .run files in " + out.string() + ", expected one",
                      "the build log says what it produced");
}

// The installed package must hold the aclnn API ascendopt derived; a different generated name
// means our derivation and the toolkit's disagree.
Status check_installed(const PackageLayout& layout, const AclnnSignature& sig) {
    for (const fs::path& p : {layout.op_api_include() / sig.header, layout.op_api_lib() / "libcust_opapi.so"})
        if (std::error_code ec; !fs::exists(p, ec))
            return make_error("npu backend: the installed package has no " + p.string(),
                              "ascendopt derives the aclnn API's names from the OpDef as " + std::string(k_cann_written_against) +
                                  " generates them; a toolkit that names them otherwise is not supported yet (docs/npu.md)");
    return ok_status();
}

Status build_into(const CannToolchain& toolchain, const PackageRequest& request, const PackageLayout& layout, const fs::path& log) {
    auto prototype = op_prototype(*request.opdef);
    if (!prototype) return prototype.error();
    if (auto s = write_atomic(layout.prototype(), prototype->dump(2)); !s) return s;
    if (auto s = run_step(toolchain.generate_project(layout, request.soc_version), log, k_generate_s); !s) return s;
    if (auto s = place_candidate_files(*request.source, layout.project()); !s) return s;
    if (auto s = point_presets(toolchain, layout, request.soc_version); !s) return s;
    if (auto s = run_step(toolchain.build_package(layout), log, k_build_s, Blame::candidate); !s) return s;
    auto run_file = built_run_file(layout);
    if (!run_file) return run_file.error();
    if (auto s = run_step(toolchain.install_package(*run_file, layout), log, k_install_s); !s) return s;
    if (auto s = check_installed(layout, *request.signature); !s) return s;
    auto main_source = invoker_source(*request.signature);
    if (!main_source) return main_source.error();
    if (auto s = write_atomic(layout.work / "invoker.cpp", *main_source); !s) return s;
    std::vector<fs::path> includes = {toolchain.install().root / "include"};
    includes.insert(includes.end(), request.invoker_includes.begin(), request.invoker_includes.end());
    return run_step(toolchain.compile_invoker(layout.work / "invoker.cpp", layout.work / "invoker", layout, includes), log, k_compile_s);
}

// Files outside the operator folder (a checkout's shared headers) would need the checkout's own
// build; msopgen's project holds the operator folder alone.
Status check_self_contained(const OperatorSource& src) {
    if (src.context_files.empty()) return ok_status();
    std::string names;
    for (size_t i = 0; i < src.context_files.size() && i < 3; ++i) names += (i ? ", " : "") + src.context_files[i].string();
    if (src.context_files.size() > 3) names += " and " + std::to_string(src.context_files.size() - 3) + " more";
    return make_error("npu backend: " + src.display_name() + " reads files outside its folder (" + names +
                          "), and the package is built from its op_host/ and op_kernel/ alone",
                      "the npu backend does not yet build operators that share a checkout's headers; docs/npu.md lists what it builds");
}

// The packages that failed to build in this process, by key: a search that meets the same
// candidate again gets the same verdict without another build of minutes. Not kept on disk: a
// build can also fail for the machine's reasons (a full disk), and the next run should retry.
class FailedBuilds {
public:
    void remember(const std::string& key, const Error& e) {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_failed.emplace(key, e);
    }
    std::optional<Error> find(const std::string& key) {
        std::lock_guard<std::mutex> lock(m_mutex);
        auto it = m_failed.find(key);
        if (it == m_failed.end()) return std::nullopt;
        return it->second;
    }

private:
    std::mutex m_mutex;
    std::map<std::string, Error> m_failed;
};

FailedBuilds& failed_builds() {
    static FailedBuilds builds;
    return builds;
}

}  // namespace

Result<std::string> package_key(const CannToolchain& toolchain, const PackageRequest& request) {
    std::string material = "ascendopt-cann-package 1\n" + request.soc_version + "\n" + toolchain.install().root.string() + "\n" +
                           toolchain.install().version + "\n";
    auto prototype = op_prototype(*request.opdef);
    if (!prototype) return prototype.error();
    auto main_source = invoker_source(*request.signature);
    if (!main_source) return main_source.error();
    material += prototype->dump() + "\n" + sha256_hex(*main_source) + "\n";
    for (const auto& [rel, from] : candidate_files(*request.source)) {
        auto bytes = read_text(from);
        if (!bytes) return bytes.error();
        material += rel.string() + " " + sha256_hex(*bytes) + "\n";
    }
    return sha256_hex(material);
}

Result<CannPackage> cann_package(const CannToolchain& toolchain, const PackageRequest& request) {
    if (auto s = check_self_contained(*request.source); !s) return s.error();
    auto key = package_key(toolchain, request);
    if (!key) return key.error();
    std::error_code ec;
    fs::create_directories(request.cache_dir, ec);
    auto lock = FileLock::acquire(request.cache_dir / (key->substr(0, 24) + ".lock"));
    if (!lock) return lock.error();
    // The vendor name is the package's own, so that two installed packages never shadow each other.
    CannPackage out{PackageLayout{request.cache_dir / key->substr(0, 24), "ascendopt_" + key->substr(0, 12)}, {}, {}, false};
    out.invoker = out.layout.work / "invoker";
    out.log = out.layout.work / "build.log";
    const fs::path complete = out.layout.work / "complete";
    if (fs::exists(complete, ec) && fs::exists(out.invoker, ec)) {
        out.cached = true;
        return out;
    }
    if (auto known = failed_builds().find(*key)) return *known;
    fs::remove_all(out.layout.work, ec);  // what a build that died left
    if (request.note)
        request.note("building " + request.opdef->type + "'s operator package for " + request.soc_version + " (log: " + out.log.string() + ")");
    fs::create_directories(out.layout.work, ec);
    if (ec) return make_error("npu backend: cannot make " + out.layout.work.string() + ": " + ec.message());
    if (auto s = build_into(toolchain, request, out.layout, out.log); !s) {
        if (s.error().build_failure) failed_builds().remember(*key, s.error());
        return s.error();
    }
    if (auto s = write_atomic(complete, *key); !s) return s.error();
    return out;
}

}  // namespace ascendopt
