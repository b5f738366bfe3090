// The Evaluator: build -> run (isolated subprocess with time and memory limits) -> check.
// Search, bank, agent and bench see only this interface; TwinEvaluator runs operators on the
// Ascend C twin. A failing case is a value in EvalResult; only problems with the inputs or
// the machine (bad manifest, golden crash, missing compiler) are errors.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/eval_result.h"
#include "eval/device_launch.h"
#include "eval/builder.h"
#include "eval/case_data.h"
#include "eval/golden.h"
#include "eval/operator_source.h"

namespace ascendopt {

enum class RaceCheck { off, note, fail };
const char* race_check_name(RaceCheck r);  // "off", "note", "fail"

struct EvalOptions {
    // Where candidates run: "twin" (the Ascend C twin, this file's evaluator), "twin-acl" (the
    // same, each case launched through the ACL runtime and aclnn API by the npu backend's
    // invoker: `device_launcher`), or "npu" (a real device through the user's CANN toolkit,
    // src/npu/, docs/npu.md).
    std::string backend = "twin";
    // Launches planned cases in place of the twin's own operator process (device_launch.h);
    // empty: the operator process runs them directly.
    DeviceLauncher device_launcher;
    // --device: the NPUs the npu backend runs on ("0,2"), one launch at a time on each; unset:
    // every NPU the process may use.
    std::optional<std::string> npu_devices;
    // --profile: the npu backend also runs each passing case under the CANN profiler (msprof op)
    // and keeps its per-pipe profile in the case's timing, as the twin's (npu/npu_launcher.h).
    bool device_profile = false;
    std::string soc = "Ascend910B2";
    nlohmann::json soc_description;            // load_soc(soc); filled by the caller
    double sim_noise_pct = 0;                  // relative std-dev of simulated measurement noise
    int repeats = 1;                           // latency samples per perf case (median reported)
    std::optional<std::filesystem::path> trace_dir;  // write <case>.trace.json per run case
    uint64_t seed = 0;                         // input data seed
    double timeout_seconds = 60;               // per case run
    double golden_timeout_seconds = 120;       // per golden computation
    uint64_t compile_memory_bytes = uint64_t(4) << 30;  // per compiler run
    uint64_t memory_limit_bytes = 8ull << 30;  // address space per case run
    int jobs = 2;                              // parallel kernel builds
    bool keep_work_dirs = false;
    bool timing = true;                        // false: functional run only, no simulated latency
    // The bubblewrap that confines candidate builds and runs (see util/sandbox.h); empty only when
    // the user asked to run unsandboxed, which every result then says.
    std::optional<std::filesystem::path> sandbox;
    bool unsandboxed = false;  // the user's explicit choice (--unsandboxed); sandbox stays empty
    // The static screen (screen.h) before every build; off only for code the user vouches for
    // (`eval --no-screen`): the seccomp filter, the ELF check and the sandbox still hold.
    bool screen = true;
    // Add a check case of a random shape to every full evaluation (hidden_case.h), drawn from a
    // fresh nonce each time, or from `hidden_nonce` when the user reproduces one
    // (--hidden-nonce, ASCENDOPT_HIDDEN_NONCE).
    bool hidden_case = true;
    std::optional<uint64_t> hidden_nonce;
    // GM accesses past a tensor's end fail even inside its allocation padding (docs/twin.md).
    bool strict_gm = false;
    // UB accesses past their tensor's buffer fail even inside the UB (docs/twin.md).
    bool strict_ub = false;
    // The hazard checker (twin/rt/hazard.h, docs/twin.md "Races"): off, or on with each race
    // reported in the case's twin notes (note) or failing the case with status race (fail).
    RaceCheck races = RaceCheck::off;
    // --robust: Stage I and Stage II accept a change only when it is faster under every SoC
    // variant here (eval/soc_variants.h: nominal, then each estimated parameter at the ends of
    // its range), each {label, soc}; empty: accepted on the nominal SoC alone. Filled by the
    // session from the SoC file's ranges.
    bool robust = false;
    nlohmann::json robust_variants = nlohmann::json::array();
    // Replay the stored result of an identical earlier evaluation (eval_memo.h). On for the
    // searches (tune, optimize, rewind, bench); eval and profile always run.
    bool replay = false;
    // SoC descriptions timed beside soc_description in the same runs (EvalRequest::timing_variants).
    nlohmann::json timing_variants = nlohmann::json::array();
};

// What one evaluation asks for beyond the session's settings.
struct EvalRequest {
    std::map<std::string, std::string> env;  // extra environment of the operator runs (host tunables)
    std::optional<std::string> case_filter;  // run only the case with this name
    std::optional<CaseRole> role_filter;     // run only the cases with this role
    // Time under this SoC description instead of the session's (a sensitivity re-timing): the
    // same cases, inputs and goldens. It must describe the same chip (cores, memories).
    std::optional<nlohmann::json> soc_description;
    // Generate the cases' inputs from this seed instead of the session's (a study seed: each
    // repetition measures on inputs of its own). Goldens follow the inputs.
    std::optional<uint64_t> input_seed;
    // Also time every run under these SoC descriptions, in the same run (CaseResult::
    // variant_latency_us): a sensitivity re-timing without re-running anything. Each must
    // describe the same chip with other timing parameters (same_chip, eval/soc_variants.h).
    std::optional<nlohmann::json> timing_variants;
};

// Progress events for the command line: "build", "case".
using ProgressFn = std::function<void(const std::string& what, const std::string& detail)>;

// What a preflight found; see Evaluator::preflight.
struct PreflightResult {
    EvalStatus status = EvalStatus::ok;  // build_failed, tiling_failed, resource_exceeded, run_failed
    std::string reason;
    uint32_t block_dim = 0;              // largest over the probed cases
    uint32_t ub_bytes = 0;               // most UB a block allocated, over the probed cases
};

class Evaluator {
public:
    virtual ~Evaluator() = default;
    // Safe to call from several threads at once.
    virtual Result<EvalResult> evaluate(const OperatorSource& op, const EvalRequest& request, const ProgressFn& progress) = 0;
    Result<EvalResult> evaluate(const OperatorSource& op, const EvalRequest& request = {}) {
        return evaluate(op, request, [](const std::string&, const std::string&) {});
    }
    // A cheap look before an evaluation: builds the operator and runs its perf cases (the
    // largest case when none is marked perf) only as far as the tiling, the launch and every
    // InitBuffer, with no data. A failure here is certain; ok does not promise the evaluation passes.
    virtual Result<PreflightResult> preflight(const OperatorSource& op, const EvalRequest& request) = 0;
    // The session's settings, fixed when the evaluator was made (SoC, input seed, limits).
    virtual const EvalOptions& options() const = 0;
};

// Evaluations through `inner` with their inputs drawn from `seed` (EvalRequest::input_seed),
// unless a request names its own: what a study gives the jobs of one of its seeds.
class InputSeedEvaluator : public Evaluator {
public:
    InputSeedEvaluator(Evaluator& inner, uint64_t seed) : m_inner(inner), m_seed(seed) {}
    Result<EvalResult> evaluate(const OperatorSource& op, const EvalRequest& request, const ProgressFn& progress) override {
        return m_inner.evaluate(op, seeded(request), progress);
    }
    Result<PreflightResult> preflight(const OperatorSource& op, const EvalRequest& request) override {
        return m_inner.preflight(op, seeded(request));
    }
    const EvalOptions& options() const override { return m_inner.options(); }

private:
    EvalRequest seeded(EvalRequest r) const {
        if (!r.input_seed) r.input_seed = m_seed;
        return r;
    }
    Evaluator& m_inner;
    uint64_t m_seed;
};

// The evaluator of a session: built once (cli/session.cpp) and handed to every layer above
// eval. Its evaluations share the prepared inputs and goldens of the cases they run.
std::unique_ptr<Evaluator> make_twin_evaluator(Builder& builder, GoldenRunner& golden, EvalOptions options);

}  // namespace ascendopt
