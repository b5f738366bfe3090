// `ascendopt eval` when several cores of a launch fail: the verdict names the lowest failing
// core's failure however the cores' threads happen to run, and a kernel cannot catch its way
// out of a failure (docs/twin.md, "When cores fail").
#include "cli_runner.h"

using namespace ascendopt::e2e;

namespace {

// The 1-based line of `marker` in `file`, as "add_custom.cpp:N " reasons name it.
std::string line_of(const fs::path& file, const std::string& marker) {
    std::istringstream in(*ascendopt::read_text(file));
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
        if (line.find(marker) != std::string::npos) return std::to_string(n);
    ADD_FAILURE() << marker << " not in " << file;
    return "?";
}

nlohmann::json only_case(const ascendopt::ProcessResult& r) {
    const auto doc = json_of(r);
    if (!doc.is_object() || doc["cases"].size() != 1) return nlohmann::json::object();
    return doc["cases"][0];
}

}  // namespace

// Block 0 spins, then overruns the UB at one line; every other block overruns it at another
// line at once. The report names block 0's line, as it did before the threads ran.
TEST(CoreFailures, TheLowestFailingBlockIsReportedHoweverTheThreadsRun) {
    OperatorCopy op("add_custom");
    op.edit("op_kernel/add_custom.cpp", "        for (uint32_t offset = 0; offset < length; offset += tileLength) {",
            "        LocalTensor<DTYPE_X> big = inQueueX.AllocTensor<DTYPE_X>();\n"
            "        if (GetBlockIdx() == 0) {\n"
            "            for (volatile uint32_t spin = 0; spin < 30000000; spin = spin + 1) {}\n"
            "            DataCopy(big, xGm[0], 1u << 24);  // block 0, late\n"
            "        }\n"
            "        DataCopy(big, yGm[0], 1u << 23);  // the other blocks, at once\n"
            "        for (uint32_t offset = 0; offset < length; offset += tileLength) {");
    const std::string where = "(at op_kernel/add_custom.cpp:" + line_of(op.dir() / "op_kernel/add_custom.cpp", "// block 0, late") + " ";
    const auto r = run_cli({"eval", op.dir().string(), "--case", "Test_AddCustom_perf", "--json", "-q"});
    const auto c = only_case(r);
    EXPECT_NE(c.value("status", "ok"), "ok") << r.output;
    EXPECT_NE(c.value("reason", "").find(where), std::string::npos) << where << "\n" << r.output;
}

// A kernel that catches the twin's error and returns still failed; one that then loops forever
// gets the failure too, not a timeout (the device ends the kernel at the fault).
TEST(CoreFailures, AKernelCannotCatchItsWayOutOfAFailure) {
    for (const std::string handler : {"", " for (volatile int spin = 1; spin;) {} "}) {
        OperatorCopy op("add_custom");
        op.edit("op_host/add_custom.cpp", "tiling.set_tileLength(tileLength > 8192 ? 8192 : tileLength);", "tiling.set_tileLength(65536);");
        op.edit("op_kernel/add_custom.cpp", "    op.Process();", "    try { op.Process(); } catch (...) {" + handler + "}");
        const auto r = run_cli({"eval", op.dir().string(), "--case", "Test_AddCustom_perf", "--timeout", "20", "--json", "-q"});
        EXPECT_EQ(only_case(r).value("status", ""), "resource_exceeded") << handler << "\n" << r.output;
    }
}
