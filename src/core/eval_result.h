// The outcome of evaluating an operator: one status per case and overall, never a sentinel.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/case.h"

namespace ascendopt {

// golden_failed: the case's golden could not be computed (it raised, or imports a module this
// Python lacks), so the case was not run; the operator is not to blame, the case is unchecked.
// race: the hazard checker (--races=fail) found on-chip bytes two pipes touch with nothing
// ordering them (twin/rt/hazard.h): the result holds on the twin, which runs instructions one
// after another, and may not on the device.
enum class EvalStatus { ok, build_failed, tiling_failed, run_failed, timeout, wrong_result, resource_exceeded, rejected, golden_failed, race };
const char* status_name(EvalStatus s);
std::optional<EvalStatus> parse_status(const std::string& s);

// The first disagreement between an output and its golden.
struct Mismatch {
    std::string output;
    int64_t flat_index = 0;
    std::vector<int64_t> index;  // multi-dimensional
    std::string lane;            // "real" or "imag" for complex outputs, else empty
    double actual = 0;
    double expected = 0;
    std::string note;  // what is wrong beyond the values, e.g. a byte that is no bool; else empty
};

struct OutputComparison {
    std::string name;
    int64_t elements = 0;
    int64_t mismatches = 0;
    double max_abs_error = 0;
    double max_rel_error = 0;
    std::optional<Mismatch> first;
};

struct CaseResult {
    std::string name;
    CaseRole role = CaseRole::check;
    EvalStatus status = EvalStatus::ok;
    std::string reason;  // one line: why it is not ok
    std::vector<OutputComparison> outputs;
    double run_seconds = 0;  // wall time of the operator run (not a latency)
    // Simulated latency in microseconds (source "sim"): the median of `latency_samples`, which
    // holds one value unless --sim-noise asked for repeats.
    std::optional<double> latency_us;
    std::vector<double> latency_samples;
    // The latency under each timing variant of the evaluation (EvalRequest::timing_variants),
    // measured as latency_us is; empty when none was asked for or the run could not time them
    // in one go (the caller then times each variant on its own).
    std::vector<double> variant_latency_us;
    nlohmann::json twin;     // what the twin reported: block dim, tiling key, instruction counts
    std::string log_tail;    // operator stdout/stderr tail when not ok
    std::string known_defect;  // Case::known_defect: a failure here is expected
    std::optional<uint64_t> hidden_nonce;  // Case::hidden_nonce: what reproduces the hidden case
    bool expected_failure() const { return !known_defect.empty() && status != EvalStatus::ok; }
};

struct EvalResult {
    std::string op_name;
    std::string op_dir;
    EvalStatus status = EvalStatus::ok;  // first non-ok case status, or the build's
    std::string reason;
    std::string build_log;  // compiler output when the build failed
    std::vector<CaseResult> cases;
    double build_seconds = 0;
    bool build_cached = false;
    bool sandboxed = true;  // false: the user chose to build and run this candidate unconfined
    // What the latencies are: "sim" (the twin's timing model) or "npu" (device events).
    std::string latency_source = "sim";
    // The stored result of an identical earlier evaluation (eval/eval_memo.h), not a new run.
    bool replayed = false;
};

// The latency source of results measured on `backend` ("npu" for the npu backend, else "sim").
const char* latency_source_of(const std::string& backend);

nlohmann::json to_json(const EvalResult& r);
// The inverse of to_json, for results stored by ascendopt itself (eval/eval_memo.h); nullopt
// when `j` is not such a document.
std::optional<EvalResult> eval_result_from_json(const nlohmann::json& j);

}  // namespace ascendopt
