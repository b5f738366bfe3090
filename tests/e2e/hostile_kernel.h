// Hostile kernels for the e2e tests of the walls (test_hostile.cpp, test_integrity.cpp):
// exp_custom with a snippet run first in every block.
#pragma once

#include "cli_runner.h"

namespace ascendopt::e2e {

// exp_custom with `snippet` run first in every block, and `includes` added to the kernel.
// Hostile code here hides its names by token pasting (P(fo,rk) is fork), as a determined
// candidate would. The screen's second pass sees through that (Hostile.PastedNamesAreRejected),
// so these tests evaluate with --no-screen to reach the walls behind it.
struct HostileKernel {
    OperatorCopy op{"exp_custom"};
    HostileKernel(const std::string& includes, const std::string& snippet) {
        op.edit("op_kernel/exp_custom.cpp", "#include \"kernel_operator.h\"",
                "#include \"kernel_operator.h\"\n#define P(a, b) a##b\n" + includes);
        op.edit("op_kernel/exp_custom.cpp", "    GET_TILING_DATA(t, tiling);", "    GET_TILING_DATA(t, tiling);\n" + snippet);
    }
    // One small case is enough: the snippet runs in every case alike.
    ProcessResult eval(std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {"eval", op.dir().string(), "--case", "ragged[float32]", "--timeout", "3", "--json", "-q",
                                         "--no-screen"};
        args.insert(args.end(), extra.begin(), extra.end());
        return run_cli(args);
    }
    // The same with the static screen on, as every real evaluation runs.
    ProcessResult eval_screened() { return run_cli({"eval", op.dir().string(), "--case", "ragged[float32]", "--json", "-q"}); }
};

inline std::string case_status(const ProcessResult& r) {
    const auto doc = json_of(r);
    return doc.is_object() && !doc["cases"].empty() ? doc["cases"][0].value("status", "") : "(no result: " + r.output.substr(0, 2000) + ")";
}

inline std::string case_reason(const ProcessResult& r) {
    const auto doc = json_of(r);
    return doc.is_object() && !doc["cases"].empty() ? doc["cases"][0].value("reason", "") : "";
}

// The simulated latency of the first case, or -1 when it has none.
inline double case_latency(const ProcessResult& r) {
    const auto doc = json_of(r);
    if (!doc.is_object() || doc["cases"].empty() || !doc["cases"][0].contains("latency")) return -1.0;
    return doc["cases"][0]["latency"].value("value", -1.0);
}

// The evaluation's own status and reason (a rejection, a build failure), as --json reports them.
inline std::string top_status(const ProcessResult& r) {
    const auto doc = json_of(r);
    return doc.is_object() ? doc.value("status", "") : "";
}

inline std::string top_reason(const ProcessResult& r) {
    const auto doc = json_of(r);
    return doc.is_object() ? doc.value("reason", "") : "";
}

inline const std::string k_open_decl = "extern \"C\" int P(op, en)(const char*, int, ...);";

#define REQUIRE_SANDBOX()                                                                     \
    if (auto bwrap = ascendopt::working_bubblewrap(); !bwrap) GTEST_SKIP() << bwrap.error().message

}  // namespace ascendopt::e2e
