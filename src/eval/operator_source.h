// Locating an operator and reading its cases. An operator is a folder in the cann-ops layout
// (op_host/, op_kernel/, optional tests/st/*.json), optionally described by an ascendopt.toml
// manifest that lives inside the folder or anywhere else and points at it (docs/operators.md).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "eval/case_draft.h"
#include "eval/hidden_case.h"
#include "util/result.h"

namespace ascendopt {

struct OperatorSource {
    std::filesystem::path root;      // the cann-ops folder
    std::filesystem::path manifest;  // empty when the operator has none
    std::string op_type;             // empty: the single operator op_host registers
    // Where the operator's files came from: `root` itself, or for a candidate the original
    // operator folder, against which its CMakeLists.txt and paths leaving the folder resolve
    // (`../../mat_mul_v3/op_host/...`).
    std::filesystem::path origin;
    // The cann-ops checkout (the folder holding src/) the operator was built in, if any.
    std::optional<std::filesystem::path> checkout;
    // The host sources: those of the tiling, proto and OpDef libraries its CMakeLists.txt names
    // (op_cmake.h), some of which may live elsewhere in the checkout; without one, op_host/*.cpp.
    std::vector<std::filesystem::path> host_sources;
    std::vector<std::filesystem::path> kernel_sources;  // op_kernel/*.cpp
    // The kernel's translation units: op_kernel/*.cpp that no other op_kernel file #includes
    // (trunc.cpp includes trunc_.cpp and trunc_f32.cpp; CANN compiles trunc.cpp alone).
    std::vector<std::filesystem::path> kernel_units;
    // Headers declaring tiling data (BEGIN_TILING_DATA_DEF) that the host code reaches, and
    // op_host/*tiling*.h: the kernel build includes them (docs/twin.md, "How an operator runs").
    std::vector<std::filesystem::path> tiling_headers;
    // Include folders beyond op_host/ and op_kernel/, from CMakeLists.txt and the checkout.
    std::vector<std::filesystem::path> host_include_dirs, kernel_include_dirs;
    std::vector<std::string> kernel_defines;            // -D options of add_ops_compile_options
    std::vector<std::string> host_defines;              // -D options of every host compile (op_cmake.h)
    std::vector<std::filesystem::path> all_files;       // every file under op_host/ and op_kernel/: what a candidate may change
    // The files of all_files that the build compiles or includes (op_host/ also holds the
    // aclnn API's files, which the twin's build never reads): what the static screen reads.
    std::vector<std::filesystem::path> build_files;
    // Files outside `root` that the build reads (shared headers and sources of the checkout,
    // a sibling operator's headers); read-only for candidates.
    std::vector<std::filesystem::path> context_files;
    std::vector<std::string> build_notes;  // what reading CMakeLists.txt left out
    std::vector<CaseDraft> cases;
    // Whether a random-shape check case may be derived from the perf case (hidden_case.h);
    // manifests turn it off for operators whose shapes come from attributes or input values.
    bool hidden_case = true;
    // How its shapes relate, for operators that are not elementwise (the manifest's [hidden]).
    std::optional<HiddenShapes> hidden_shapes;
    // No cases: the evaluator runs the smoke case it derives from the OpDef (smoke_case.h).
    bool smoke = false;
    std::string display_name() const;
    // `file` as messages show it: relative to the operator folder, or to the checkout for a
    // file of the checkout's.
    std::string display_path(const std::filesystem::path& file) const;
    // Every include folder of a host (or kernel) compile after op_host/ and op_kernel/ of `root`.
    std::vector<std::filesystem::path> include_dirs(bool kernel) const;
};

// The user's cann-ops checkout: $ASCENDOPT_CANN_OPS (which --cann-ops DIR sets). An error says
// how to name one when it is unset or not a folder.
Result<std::filesystem::path> cann_ops_checkout();

// `path` is an operator folder, a folder holding ascendopt.toml, or a manifest file.
// A folder in the cann-ops layout (op_host/ and op_kernel/ beside each other).
bool is_operator_folder(const std::filesystem::path& dir);
// An operator folder, or a folder whose ascendopt.toml names the operator's sources elsewhere
// (suite/cann-ops-level1/cos: `cann_ops = "src/math/cos"` in the user's checkout).
bool names_an_operator(const std::filesystem::path& dir);

Result<OperatorSource> load_operator(const std::filesystem::path& path);

// A copy of `original`'s folder at `dir` (a candidate: some of its files changed), built the
// way the original is (its CMakeLists.txt, checkout and include folders) and with its cases.
Result<OperatorSource> load_copy_of(const std::filesystem::path& dir, const OperatorSource& original);

// The operator folder `dir` with no cases read, for a smoke run (OperatorSource::smoke).
Result<OperatorSource> load_operator_for_smoke(const std::filesystem::path& dir);

// Readers of the two case formats, appending to `out`. `default_golden` applies to cases
// that name none. A golden a case names must lie inside the operator folder (`operator_folder`
// for msopst files; empty: none) or the folder of the file that names it (golden.h).
Status read_manifest(const std::filesystem::path& file, OperatorSource& out);
Status read_msopst(const std::filesystem::path& file, const GoldenSpec& default_golden, std::vector<CaseDraft>& out,
                   const std::filesystem::path& operator_folder = {});

// "file.py:function" resolved against `base`; the function defaults to calc_expect_func.
Result<GoldenSpec> parse_golden_ref(const std::string& ref, const std::filesystem::path& base);

}  // namespace ascendopt
