// Test cases of an operator: the tensors it reads and writes, attributes, the role of the
// case (check: correctness only; perf: also timed) and the tolerance of the comparison.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/dtype.h"

namespace ascendopt {

enum class CaseRole { check, perf };
const char* role_name(CaseRole r);

enum class Distribution { uniform, normal };

struct Tolerance {
    double rtol = 0;
    double atol = 0;
};
// Defaults per dtype: fp16 1e-3/1e-3, bf16 8e-3/8e-3 (one bf16 ulp), fp32 1e-4/1e-5, exact otherwise.
Tolerance default_tolerance(DType t);

// A tolerance as a case or a tensor sets it: what it leaves unset keeps the value beneath it
// (the case's, then the dtype default), so `rtol` alone never makes atol 0.
struct ToleranceOverride {
    std::optional<double> rtol;
    std::optional<double> atol;
    bool empty() const { return !rtol && !atol; }
    Tolerance over(Tolerance base) const { return {rtol.value_or(base.rtol), atol.value_or(base.atol)}; }
};

struct TensorSpec {
    std::string name;  // the OpDef parameter
    DType dtype = DType::f32;
    std::vector<int64_t> shape;
    Distribution distribution = Distribution::uniform;
    double low = -1.0;   // uniform: range; normal: mean +- 3 sigma, clipped to the range
    double high = 1.0;
    // Exact contents (scalars in row-major order) instead of random data; one value fills the
    // tensor. For inputs whose values matter beyond their range: shapes, steps, zero-filled refs.
    std::vector<double> values;
    // The same values as the manifest's integers, exactly, when it gave only integers (TOML
    // integers are int64; a double holds them exactly only up to 2^53). Integer dtypes store
    // these; empty otherwise.
    std::vector<int64_t> int_values;
    // Whether int_values says more than values: an integer beyond +-2^53 (cache keys add them then).
    bool ints_beyond_double() const {
        for (int64_t v : int_values)
            if (v > (int64_t(1) << 53) || v < -(int64_t(1) << 53)) return true;
        return false;
    }
    ToleranceOverride tolerance;  // this output's, over the case's
    // -1 for a parameter holding one tensor; 0.. for the tensors of a dynamic (list) parameter,
    // which all share `name`.
    int list_index = -1;
    // An output that is the input of the same name as the kernel leaves it: the operator updates
    // it in place without declaring an output for it (the manifest's `inplace`).
    bool inplace = false;
    // An output whose shape the kernel computes (OutputShapeDependOnCompute): `shape` is the most
    // it may write; the kernel reports the shape it wrote, and the golden returns as many elements.
    bool shape_from_kernel = false;
    std::string format = "ND";  // its layout, as ge::Format names it (core/format.h)

    int64_t elements() const;
    // Scalars of the tensor: elements() times dtype_lanes (complex64 holds two per element).
    int64_t scalars() const { return elements() * int64_t(dtype_lanes(dtype)); }
    uint64_t bytes() const { return uint64_t(elements()) * dtype_size(dtype); }
    // "x", or "x[2]" for a tensor of a list: how messages name it.
    std::string label() const;
    // "x" or "x.2": the stem of the files that hold it.
    std::string file_stem() const;
};

// Where expected outputs come from.
struct GoldenSpec {
    enum class Kind { none, python, cpp } kind = Kind::none;
    std::string file;      // absolute path of the .py or .cpp file
    std::string function;  // python function name (msopst calling convention)
};

struct Case {
    std::string name;
    CaseRole role = CaseRole::check;
    std::vector<TensorSpec> inputs;
    std::vector<TensorSpec> outputs;
    nlohmann::json attrs = nlohmann::json::object();  // name -> value
    ToleranceOverride tolerance;                      // over the per-dtype default
    GoldenSpec golden;
    std::string origin;  // file the case came from, for messages
    // Set when the operator is known to get this case wrong on the device too (the reason, with
    // its evidence): the case still runs, and its failure is reported but does not fail the
    // operator (an "expected failure"); a pass is reported as the defect not reproducing.
    std::string known_defect;
    // Set on the hidden case only (eval/hidden_case.h): the nonce its shape was drawn from.
    std::optional<uint64_t> hidden_nonce;

    // "x:float16,y:float16,z:float16": the dtype combination, which selects a kernel build.
    std::string dtype_signature() const;
};

}  // namespace ascendopt
