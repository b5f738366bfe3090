// CrossCoreSetFlag / CrossCoreWaitFlag: synchronization between cores through the scheduler's
// per-core flag counters (Ascend C docs, "核间同步"). Modes (the 910B has 0, 1 and 2):
//   0: all AICs (or all AIVs) of the launch: when every one of them has set flag f, each one's
//      counter for f goes up by one;
//   1: the AIVs of one block: when both have set f, each one's counter goes up;
//   2: the AIC of a block and its AIVs: the AIC's set raises each AIV's counter; when every AIV
//      of the block has set f, the AIC's counter goes up.
// CrossCoreWaitFlag(f) blocks the core until its counter for f is positive and takes one off.
// flagId keeps its low 4 bits, as documented. The twin runs each core on its own thread, so a
// wait is a real wait; one that no core can satisfy any more is an error (it hangs an NPU).
#pragma once

#include "ascendopt_twin/attrs.h"

#include "ascendopt_twin/kernel/sync.h"

namespace AscendC {

// Flag ids the kernel library reserves for its all-core barriers; published kernels name them
// for barriers of their own (CrossCoreSetFlag<0, ...>(SYNC_AIC_FLAG)).
constexpr uint16_t SYNC_AIC_FLAG = 11;
constexpr uint16_t SYNC_AIV_FLAG = 12;
constexpr uint16_t SYNC_AIC_AIV_FLAG = 13;
constexpr uint16_t SYNC_AIV_ONLY_ALL = 14;

template <uint8_t modeId, pipe_t pipe>
ASCENDOPT_TWIN_FN inline void CrossCoreSetFlag(uint16_t flagId) {
    static_assert(modeId == 0 || modeId == 1 || modeId == 2, "CrossCoreSetFlag: the 910B has modes 0, 1 and 2");
    static_assert(pipe != PIPE_ALL && pipe != PIPE_S, "CrossCoreSetFlag: pipe may not be PIPE_S or PIPE_ALL");
    ascendopt_twin::cross_core_set(modeId, ascendopt_twin::detail::flag_pipe(pipe), uint16_t(flagId & 0xF));
}

// On the 910B the mode and pipe of a wait have no effect: it blocks every pipe.
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
ASCENDOPT_TWIN_FN inline void CrossCoreWaitFlag(uint16_t flagId) {
    ascendopt_twin::cross_core_wait(uint16_t(flagId & 0xF));
}

// The kernel library's names for the mode-2 pair (an AIC and the AIVs of its block): NotifyEvent
// sets a flag in mode 2 after `pipe`, WaitEvent waits on it.
template <pipe_t pipe>
ASCENDOPT_TWIN_FN inline void NotifyEvent(uint16_t flagId) {
    CrossCoreSetFlag<2, pipe>(flagId);
}

template <pipe_t pipe = PIPE_S>
ASCENDOPT_TWIN_FN inline void WaitEvent(uint16_t flagId) {
    CrossCoreWaitFlag(flagId);
}

}  // namespace AscendC

// The device compiler's raw wait on a cross-core flag, which CrossCoreWaitFlag wraps.
ASCENDOPT_TWIN_FN inline void wait_flag_dev(int64_t flagId) { AscendC::CrossCoreWaitFlag(uint16_t(flagId)); }
// The device compiler's raw set of a cross-core flag: config = 1 | mode << 4 | flagId << 8 (the
// message CrossCoreSetFlag sends), issued after `pipe`'s work.
ASCENDOPT_TWIN_FN inline void ffts_cross_core_sync(pipe_t pipe, uint64_t config) {
    ascendopt_twin::cross_core_set(int((config >> 4) & 0x3), ascendopt_twin::detail::flag_pipe(pipe), uint16_t((config >> 8) & 0xF));
}
