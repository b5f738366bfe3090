// `ascendopt check TREE`: how much of a tree of operators (a whole cann-ops src/) the twin
// builds and runs. Each operator folder is evaluated with its cases when a manifest covers it,
// else with the smoke case derived from its OpDef (smoke_case.h); a build failure is reduced
// to the names the twin lacks (build_diagnosis.h), which the summary ranks by how many
// operators each one blocks. docs/cann-ops.md holds a table made with it.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "eval/build_diagnosis.h"
#include "eval/evaluator.h"

namespace ascendopt {

// The operator folders (op_host/ and op_kernel/) under `tree`, in path order; `tree` itself
// may be one. Hidden folders are skipped, and an operator folder is not searched further.
std::vector<std::filesystem::path> find_operator_folders(const std::filesystem::path& tree);

// Manifests that describe operators of a cann-ops checkout (`cann_ops = "src/math/cos"`), from
// the subfolders of suite folders such as suite/cann-ops-level1.
class ManifestIndex {
public:
    // A suite folder that does not exist is skipped; a manifest that does not parse is skipped
    // too (its own evaluation would report it).
    static ManifestIndex from_suites(const std::vector<std::filesystem::path>& suites);

    struct Match {
        std::filesystem::path manifest;
        std::filesystem::path checkout;  // the folder that the manifest's cann_ops path is relative to
    };
    // The manifest for the operator folder `dir`: its own ascendopt.toml, else an indexed
    // manifest whose cann_ops path is a trailing part of `dir`.
    std::optional<Match> find(const std::filesystem::path& dir) const;
    size_t size() const { return m_by_path.size(); }

private:
    std::map<std::string, std::filesystem::path> m_by_path;  // "src/math/cos" -> manifest
};

struct OperatorCheck {
    std::string name;      // the folder relative to the tree: "math/add_custom"
    std::string op_type;   // from the OpDef, once the host code built
    std::string mode;      // "cases" (a manifest's) or "smoke"
    std::filesystem::path manifest;
    bool builds = false;       // host code and kernels compiled
    bool host_builds = false;  // the host code compiled (the OpDef could be read)
    int cases = 0;          // cases run (expected failures included)
    int passed = 0;         // cases that passed, expected failures not counted
    int known_defects = 0;  // expected failures that reproduced
    std::vector<std::string> failed_cases;
    EvalStatus status = EvalStatus::ok;
    std::string failure;               // one line: the first missing API, or why it failed
    std::string detail;                // the compiler output, or the failing case's verdict and log (bounded)
    std::vector<MissingApi> missing;   // every missing name its build reported
    double seconds = 0;
    // Why the operator cannot be evaluated on one device at all (it communicates with other
    // devices: HCCL, MC2); empty for every other operator. Such an operator is listed, not run,
    // and not counted in the summary.
    std::string out_of_scope;
    bool passes() const { return out_of_scope.empty() && status == EvalStatus::ok; }
};

// Why an operator folder needs several devices, from its sources: an HCCL header or API, or an
// OpDef that declares MC2 (communication fused with computation). nullopt for the others.
std::optional<std::string> needs_several_devices(const std::filesystem::path& dir);

struct TreeCheckOptions {
    std::filesystem::path tree;
    std::vector<std::filesystem::path> suites;  // where manifests for the tree's operators live
};

// Evaluates one operator folder. Bad input (a manifest that does not parse, a golden that is
// missing) is a failed check with the message, not an error; a missing tool is an error.
Result<OperatorCheck> check_operator(Evaluator& evaluator, const TreeCheckOptions& options, const ManifestIndex& manifests,
                                     const std::filesystem::path& dir);

struct ApiRank {
    std::string api;
    std::vector<std::string> operators;  // the operators whose build reported it
};
// Every missing name, the one that blocks most operators first (ties by name).
std::vector<ApiRank> rank_missing_apis(const std::vector<OperatorCheck>& checks);

nlohmann::json to_json(const OperatorCheck& c);

}  // namespace ascendopt
