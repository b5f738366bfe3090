// Expected outputs of a case, from a numpy script (run by a Python that has numpy) or a C++
// reference function (compiled once, cached). Goldens are cached by the content of the
// golden source, the inputs, the output specs and the attributes.
// Thread-safe for concurrent compute() calls.
//
// Goldens are untrusted programs: a manifest or msopst file from the wild names them, and they
// run outside the sandbox (docs/sandbox.md, wall 11). So a golden runs only from a file inside
// the operator folder or the folder of the file that names it (check_golden_location), with
// an environment of its own (no API key), an address-space limit, a task cap, and every task
// of its tree killed when it ends, also a task that left its session.
#pragma once

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/case.h"
#include "eval/toolchain.h"
#include "util/subprocess.h"

namespace ascendopt {

// The address space of one golden run unless the session gives --memory's value (the same
// default): numpy computes in float64, a few copies of a case's outputs at most.
constexpr uint64_t k_golden_memory_bytes = 8ull << 30;
// Tasks of a golden's whole tree at once: Python, numpy's BLAS threads (one per core) and what
// the golden starts. A golden that forks without end stops here.
constexpr uint32_t k_golden_tasks = 1024;

// Whether the golden `g`, named as `written` in the manifest or msopst file `named_in`, may run:
// its file, with `..` and every symlink resolved, must lie inside `operator_folder` (empty:
// none) or the folder of `named_in`. An absolute path is fine when it leads there. The error
// names the golden as written, where it leads and what to do.
Status check_golden_location(const GoldenSpec& g, const std::string& written, const std::filesystem::path& named_in,
                             const std::filesystem::path& operator_folder);

// Finds a Python 3 with numpy: $ASCENDOPT_PYTHON if set, else python3 on PATH, /usr/bin/python3,
// python. Each is asked for the interpreter it really runs (a pyenv shim finds it through the
// user's environment, which goldens do not get), and that one must import numpy in a golden's
// environment. The error lists every interpreter tried and why it was rejected.
Result<std::string> find_python_with_numpy();

class GoldenRunner {
public:
    // A golden that runs longer than `timeout_seconds` is killed with its whole tree and fails
    // its case (golden_failed); the other cases go on. One that reaches for more than
    // `memory_limit_bytes` of address space fails its case the same way. The golden cache is
    // trimmed to `cache_limit_bytes` (0: no limit) as the build cache is (util/cache_trim.h).
    GoldenRunner(Toolchain tc, std::filesystem::path cache_dir, double timeout_seconds = 120,
                 uint64_t memory_limit_bytes = k_golden_memory_bytes, uint64_t cache_limit_bytes = 0);

    // What a golden gives, per output in the case's output order: its values, or that the
    // operator leaves it unwritten by contract (the golden returned None for it, an output the
    // operator's documentation says it does not produce: neither compared nor required).
    struct Outputs {
        std::vector<std::vector<double>> expected;
        std::vector<char> left_unwritten;
    };
    // `inputs` are the case's input bytes and `input_files` where they were written, both in the
    // case's input order.
    Result<Outputs> compute(const Case& c, const std::vector<std::vector<char>>& inputs,
                            const std::vector<std::filesystem::path>& input_files, const std::filesystem::path& work_dir);

private:
    Result<std::string> python();
    Result<std::filesystem::path> cpp_binary(const std::string& source);
    // Runs the golden `argv` with its own environment and limits, in a scratch home under
    // `work_dir` that is removed afterwards.
    Result<ProcessResult> run_golden(const std::vector<std::string>& argv, const std::filesystem::path& work_dir) const;

    Toolchain m_tc;
    std::filesystem::path m_cache;
    double m_timeout;
    uint64_t m_memory;
    std::mutex m_mutex;
    std::optional<std::string> m_python;
};

}  // namespace ascendopt
