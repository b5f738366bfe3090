// Which failure a launch reports when cores fail (RaisedFailure in twin_rt.h): the lowest core
// that failed on its own, whichever thread got there first; a wait that another core's failure
// left unfinishable never hides the failure; a kernel that catches its failure still failed.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "kernel_operator.h"
#include "test_soc.h"
#include "twin_rt.h"

using namespace AscendC;

namespace {

[[noreturn]] void block_fails(const char* what) { ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "test", what); }

// Block 1 fails only after the others have failed.
extern "C" void late_low_block_kernel(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR) {
    if (GetBlockIdx() == 0) return;
    if (GetBlockIdx() == 1) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        block_fails("block 1, late");
    }
    block_fails("a higher block, at once");
}

// Block 2 fails before SyncAll; the others then wait at a SyncAll it can never reach.
extern "C" void fail_before_sync_all_kernel(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR) {
    if (GetBlockIdx() == 2) block_fails("block 2 fails before SyncAll");
    SyncAll();
}

// Block 0 swallows its failure and returns as if it had finished.
extern "C" void swallowing_kernel(GM_ADDR, GM_ADDR, GM_ADDR, GM_ADDR) {
    if (GetBlockIdx() != 0) return;
    try {
        block_fails("block 0 fails and catches it");
    } catch (...) {
    }
}

std::string failure_of(void* kernel, uint32_t blocks) {
    ascendopt_twin::GmSpace gm(1 << 20);
    try {
        ascendopt_twin::launch(ascendopt_twin::testing::test_soc(), kernel, {gm.add("a", 32), gm.add("b", 32), gm.add("ws", 0), gm.add("t", 0)},
                               blocks, 0, gm);
    } catch (const ascendopt_twin::TwinError& e) {
        return e.message;
    }
    return "(the launch succeeded)";
}

}  // namespace

TEST(LaunchFailures, TheLowestFailingCoreReportsEvenWhenItFailsLast) {
    EXPECT_EQ(failure_of(reinterpret_cast<void*>(&late_low_block_kernel), 6), "block 1, late");
}

TEST(LaunchFailures, AWaitAnotherCoresFailureLeftOpenDoesNotHideIt) {
    EXPECT_EQ(failure_of(reinterpret_cast<void*>(&fail_before_sync_all_kernel), 4), "block 2 fails before SyncAll");
}

TEST(LaunchFailures, AKernelThatCatchesItsFailureStillFailed) {
    EXPECT_EQ(failure_of(reinterpret_cast<void*>(&swallowing_kernel), 3), "block 0 fails and catches it");
}
