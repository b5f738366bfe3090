// Expected outputs of a case, from a numpy script (run by a Python that has numpy) or a C++
// reference function (compiled once, cached). Goldens are cached by the content of the
// golden source, the inputs, the output specs and the attributes.
// Thread-safe for concurrent compute() calls.
#pragma once

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/case.h"
#include "eval/toolchain.h"

namespace ascendopt {

// Finds a Python 3 with numpy: $ASCENDOPT_PYTHON if set, else python3 on PATH, /usr/bin/python3,
// python. The error lists every interpreter tried and why it was rejected.
Result<std::string> find_python_with_numpy();

class GoldenRunner {
public:
    // A golden that runs longer than `timeout_seconds` is killed with its whole process group
    // and fails its case (golden_failed); the other cases go on.
    GoldenRunner(Toolchain tc, std::filesystem::path cache_dir, double timeout_seconds = 120);

    // One vector of doubles per output, in the case's output order. `inputs` are the case's
    // input bytes and `input_files` where they were written, both in the case's input order.
    Result<std::vector<std::vector<double>>> compute(const Case& c, const std::vector<std::vector<char>>& inputs,
                                                     const std::vector<std::filesystem::path>& input_files,
                                                     const std::filesystem::path& work_dir);

private:
    Result<std::string> python();
    Result<std::filesystem::path> cpp_binary(const std::string& source);

    Toolchain m_tc;
    std::filesystem::path m_cache;
    double m_timeout;
    std::mutex m_mutex;
    std::optional<std::string> m_python;
};

}  // namespace ascendopt
