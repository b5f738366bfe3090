#include "eval/tree_check.h"

#include <toml++/toml.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <regex>
#include <set>

#include "util/files.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

// Sets an environment variable for the lifetime of the object (the manifest's cann_ops path
// resolves against ASCENDOPT_CANN_OPS); `check` evaluates one operator at a time.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::string& value) : m_name(name) {
        if (const char* old = std::getenv(name)) m_old = old;
        setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() {
        if (m_old) setenv(m_name, m_old->c_str(), 1);
        else unsetenv(m_name);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* m_name;
    std::optional<std::string> m_old;
};

std::string one_line(std::string s, size_t most = 240) {
    if (const auto nl = s.find('\n'); nl != std::string::npos) s.resize(nl);
    if (s.size() > most) s = s.substr(0, most - 3) + "...";
    return s;
}

std::string display_name(const fs::path& tree, const fs::path& dir) {
    std::error_code ec;
    const auto rel = fs::relative(dir, tree, ec).generic_string();
    return rel.empty() || rel == "." || ec ? dir.filename().string() : rel;
}

// What a user needs to see why an operator failed: the compiler's output, or the first failing
// case's verdict and the end of its log; head and tail of it when long.
std::string failure_detail(const EvalResult& r) {
    constexpr size_t k_most = 6000;
    std::string text;
    if (r.status == EvalStatus::build_failed || r.status == EvalStatus::rejected) {
        text = r.reason + (r.build_log.empty() ? "" : "\n" + r.build_log);
    } else {
        for (const auto& k : r.cases)
            if (k.status != EvalStatus::ok && !k.expected_failure()) {
                text = k.name + ": " + std::string(status_name(k.status)) + ": " + k.reason + (k.log_tail.empty() ? "" : "\n" + k.log_tail);
                break;
            }
        if (text.empty() && r.status != EvalStatus::ok) text = r.reason;
    }
    if (text.size() > k_most) text = text.substr(0, k_most / 2) + "\n[...]\n" + text.substr(text.size() - k_most / 2);
    return text;
}

// Fills the check from an evaluation that ran.
void record(const EvalResult& r, OperatorCheck& c) {
    c.op_type = r.op_name;
    c.status = r.status;
    c.builds = r.status != EvalStatus::build_failed && r.status != EvalStatus::rejected;
    c.host_builds = c.builds || (r.status == EvalStatus::build_failed && r.reason.find("op_kernel/") != std::string::npos);
    for (const auto& k : r.cases) {
        ++c.cases;
        if (k.expected_failure()) ++c.known_defects;
        else if (k.status == EvalStatus::ok) ++c.passed;
        else c.failed_cases.push_back(k.name);
    }
    static const std::string outside = "includes a header outside the allow-list (";
    if (const auto at = r.reason.find(outside); r.status == EvalStatus::rejected && at != std::string::npos) {
        // The screen passes every header the twin provides: this one the twin lacks.
        const auto from = at + outside.size(), to = r.reason.find(')', from);
        c.missing.push_back({"header " + r.reason.substr(from, to - from), ""});
        c.failure = "missing " + c.missing.front().api + " (" + one_line(r.reason) + ")";
    } else if (r.status == EvalStatus::build_failed) {
        c.missing = missing_apis(r.build_log);
        c.failure = c.missing.empty() ? "build: " + one_line(first_build_error(r.build_log.empty() ? r.reason : r.build_log))
                                      : "missing " + c.missing.front().api +
                                            (c.missing.front().location.empty() ? "" : " (" + c.missing.front().location + ")");
    } else if (r.status != EvalStatus::ok) {
        c.failure = std::string(status_name(r.status)) + ": " + one_line(r.reason);
    }
    c.detail = failure_detail(r);
}

}  // namespace

std::vector<fs::path> find_operator_folders(const fs::path& tree) {
    std::vector<fs::path> out;
    if (is_operator_folder(tree)) return {tree};
    std::error_code ec;
    fs::recursive_directory_iterator it(tree, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        if (!it->is_directory(ec)) continue;
        const std::string name = it->path().filename().string();
        if (!name.empty() && name[0] == '.') {
            it.disable_recursion_pending();
            continue;
        }
        if (is_operator_folder(it->path())) {
            out.push_back(it->path());
            it.disable_recursion_pending();
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

ManifestIndex ManifestIndex::from_suites(const std::vector<fs::path>& suites) {
    ManifestIndex index;
    for (const auto& suite : suites) {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(suite, ec)) {
            const fs::path manifest = e.path() / "ascendopt.toml";
            if (!fs::is_regular_file(manifest, ec)) continue;
            try {
                const auto table = toml::parse_file(manifest.string());
                if (const auto rel = table["operator"]["cann_ops"].value<std::string>()) {
                    std::string key = fs::path(*rel).lexically_normal().generic_string();
                    while (!key.empty() && key.back() == '/') key.pop_back();
                    if (!key.empty()) index.m_by_path.emplace(key, manifest);
                }
            } catch (const toml::parse_error&) {
                // skipped: a manifest that does not parse describes no operator here
            }
        }
    }
    return index;
}

std::optional<ManifestIndex::Match> ManifestIndex::find(const fs::path& dir) const {
    std::error_code ec;
    if (fs::is_regular_file(dir / "ascendopt.toml", ec)) return Match{dir / "ascendopt.toml", {}};
    const fs::path full = fs::weakly_canonical(dir, ec);
    const std::string text = full.generic_string();
    for (const auto& [rel, manifest] : m_by_path) {
        if (text.size() <= rel.size() || text.compare(text.size() - rel.size(), rel.size(), rel) != 0) continue;
        if (text[text.size() - rel.size() - 1] != '/') continue;  // "src/math/cos" must not match ".../acos"
        return Match{manifest, fs::path(text.substr(0, text.size() - rel.size() - 1))};
    }
    return std::nullopt;
}

std::optional<std::string> needs_several_devices(const fs::path& dir) {
    // The communication library's headers and entry points, and MC2 in an OpDef; a comment
    // that mentions them counts too, which errs towards listing an operator rather than
    // running one that cannot work.
    static const std::regex collective(R"(#\s*include\s*[<"][^>"]*hccl[^>"]*[>"]|\bHccl[A-Z]\w*\s*[<(]|\.MC2\s*\(\s*\))");
    std::error_code ec;
    for (const char* part : {"op_host", "op_kernel"}) {
        for (fs::recursive_directory_iterator it(dir / part, ec), end; !ec && it != end; it.increment(ec)) {
            const auto ext = it->path().extension().string();
            if (!it->is_regular_file(ec) || (ext != ".cpp" && ext != ".h" && ext != ".cc" && ext != ".hpp")) continue;
            const auto text = read_text(it->path());
            std::smatch m;
            if (text && std::regex_search(*text, m, collective))
                return "it communicates with other devices (" + m.str(0) + " in " + part + "/" +
                       it->path().filename().string() + "); the twin models one device";
        }
    }
    return std::nullopt;
}

Result<OperatorCheck> check_operator(Evaluator& evaluator, const TreeCheckOptions& options, const ManifestIndex& manifests,
                                     const fs::path& dir) {
    OperatorCheck c;
    c.name = display_name(options.tree, dir);
    if (auto why = needs_several_devices(dir)) {
        c.out_of_scope = *why;
        c.status = EvalStatus::rejected;
        c.failure = "out of scope: " + *why;
        return c;
    }
    const auto start = std::chrono::steady_clock::now();
    const auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    Result<OperatorSource> op = make_error("");
    std::optional<ScopedEnv> checkout;
    if (const auto match = manifests.find(dir)) {
        c.mode = "cases";
        c.manifest = match->manifest;
        if (!match->checkout.empty()) checkout.emplace("ASCENDOPT_CANN_OPS", match->checkout.string());
        op = load_operator(match->manifest);
    } else {
        c.mode = "smoke";
        op = load_operator_for_smoke(dir);
    }
    if (!op) {
        c.status = EvalStatus::rejected;
        c.failure = "cannot read the operator: " + one_line(op.error().message);
        c.seconds = seconds();
        return c;
    }
    auto result = evaluator.evaluate(*op);
    c.seconds = seconds();
    if (!result) {
        if (result.error().missing_tool) return result.error();
        c.host_builds = true;  // evaluate() fails with an error only after reading the OpDef
        c.status = EvalStatus::rejected;
        c.failure = "cannot evaluate: " + one_line(result.error().message);
        return c;
    }
    record(*result, c);
    return c;
}

std::vector<ApiRank> rank_missing_apis(const std::vector<OperatorCheck>& checks) {
    std::map<std::string, std::vector<std::string>> by_api;
    for (const auto& c : checks)
        for (const auto& m : c.missing) by_api[m.api].push_back(c.name);
    std::vector<ApiRank> out;
    for (auto& [api, ops] : by_api) out.push_back({api, std::move(ops)});
    std::stable_sort(out.begin(), out.end(), [](const ApiRank& a, const ApiRank& b) { return a.operators.size() > b.operators.size(); });
    return out;
}

nlohmann::json to_json(const OperatorCheck& c) {
    nlohmann::json missing = nlohmann::json::array();
    for (const auto& m : c.missing) missing.push_back({{"api", m.api}, {"location", m.location}});
    return {{"operator", c.name},
            {"op_type", c.op_type},
            {"mode", c.mode},
            {"manifest", c.manifest.string()},
            {"builds", c.builds},
            {"host_builds", c.host_builds},
            {"passes", c.passes()},
            {"status", status_name(c.status)},
            {"cases", c.cases},
            {"passed", c.passed},
            {"known_defects", c.known_defects},
            {"failed_cases", c.failed_cases},
            {"failure", c.failure},
            {"detail", c.detail},
            {"missing", missing},
            {"seconds", c.seconds},
            {"out_of_scope", c.out_of_scope}};
}

}  // namespace ascendopt
