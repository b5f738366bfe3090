// The invoker's input and output files (the format is documented in
// share/include/ascendopt_invoker.h): the job ascendopt writes for a set of cases, and the
// per-case results the invoker writes back.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "util/result.h"

namespace ascendopt {

struct InvokerTensor {
    DType dtype = DType::f32;
    std::vector<int64_t> dims;
    std::filesystem::path in_file;   // tensor, ref, list element: the bytes to start from
    std::filesystem::path out_file;  // ref, output: where the checked run's bytes go
    std::array<uint8_t, 8> poison{};  // output: what it starts as
};

struct InvokerParam {
    enum class Kind { absent, tensor, ref, output, tensor_list, int_value, float_value, bool_value, str, int_array, float_array, bool_array };
    Kind kind = Kind::absent;
    InvokerTensor tensor;                // tensor, ref, output
    std::vector<InvokerTensor> elements;  // tensor_list
    int64_t i = 0;
    double f = 0;
    bool b = false;
    std::string s;
    std::vector<int64_t> ints;
    std::vector<double> floats;
    std::vector<bool> bools;
};

struct InvokerCase {
    std::string name;  // no whitespace
    std::vector<InvokerParam> params;  // one per aclnn parameter, in call order
};

struct InvokerJob {
    int device = 0;
    int warmup = 1;
    int repeats = 3;
    std::vector<InvokerCase> cases;
};

// The job file's text; an error for a case name or a path the line format cannot carry
// (whitespace, or empty).
Result<std::string> invoker_job_text(const InvokerJob& job);

struct InvokerCaseResult {
    std::string name;
    bool ok = false;
    uint64_t workspace_bytes = 0;
    std::vector<double> ms;  // the timed repeats' device times
    std::string stage;       // failed: where ("get_workspace", "launch", "copy in", ...)
    int code = 0;            // failed: the ACL or aclnn status
    std::string message;     // failed: the runtime's message
};

// The results file; an error names the first malformed line.
Result<std::vector<InvokerCaseResult>> parse_invoker_results(const std::string& text);

}  // namespace ascendopt
