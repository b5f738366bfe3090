// Synchronization between the pipes of a core (SetFlag/WaitFlag, PipeBarrier) and between
// cores (SyncAll; CrossCoreSetFlag/CrossCoreWaitFlag are in cross_core.h). Functionally the
// twin executes each core's instructions in program order, so pipe flags only feed the
// accounting; SyncAll is a real barrier across blocks.
#pragma once

#include "ascendopt_twin/attrs.h"

#include "ascendopt_twin/kernel/pipe.h"

namespace ascendopt_twin::detail {

// Source and destination pipe of a hardware event (PipeId values; -1: a pipe the twin does not model).
ASCENDOPT_TWIN_FN constexpr int event_src(AscendC::HardEvent e) {
    using H = AscendC::HardEvent;
    switch (e) {
        case H::MTE2_V: case H::MTE2_MTE3: case H::MTE2_S: case H::MTE2_MTE1: case H::MTE2_M: case H::MTE2_FIX: return int(PipeId::MTE2);
        case H::V_MTE2: case H::V_MTE3: case H::V_S: case H::V_V: case H::V_M: case H::V_MTE1: return int(PipeId::V);
        case H::MTE3_V: case H::MTE3_MTE2: case H::MTE3_S: case H::MTE3_MTE1: return int(PipeId::MTE3);
        case H::S_V: case H::S_MTE2: case H::S_MTE3: return int(PipeId::S);
        case H::MTE1_MTE2: case H::MTE1_M: case H::MTE1_MTE3: case H::MTE1_V: case H::MTE1_FIX: return int(PipeId::MTE1);
        case H::M_MTE1: case H::M_V: case H::M_MTE2: case H::M_FIX: case H::M_S: return int(PipeId::M);
        case H::FIX_M: case H::FIX_MTE2: case H::FIX_S: case H::FIX_MTE3: case H::FIX_MTE1: case H::FIX_FIX: return int(PipeId::FIX);
        default: return -1;
    }
}
ASCENDOPT_TWIN_FN constexpr int event_dst(AscendC::HardEvent e) {
    using H = AscendC::HardEvent;
    switch (e) {
        case H::MTE2_V: case H::MTE3_V: case H::S_V: case H::V_V: case H::M_V: case H::MTE1_V: return int(PipeId::V);
        case H::V_MTE2: case H::MTE3_MTE2: case H::S_MTE2: case H::M_MTE2: case H::MTE1_MTE2: case H::FIX_MTE2: return int(PipeId::MTE2);
        case H::V_MTE3: case H::MTE2_MTE3: case H::S_MTE3: case H::MTE1_MTE3: case H::FIX_MTE3: return int(PipeId::MTE3);
        case H::V_S: case H::MTE2_S: case H::MTE3_S: case H::M_S: case H::FIX_S: return int(PipeId::S);
        case H::MTE2_MTE1: case H::M_MTE1: case H::MTE3_MTE1: case H::V_MTE1: case H::FIX_MTE1: return int(PipeId::MTE1);
        case H::MTE1_M: case H::V_M: case H::MTE2_M: case H::FIX_M: return int(PipeId::M);
        case H::M_FIX: case H::MTE2_FIX: case H::MTE1_FIX: case H::FIX_FIX: return int(PipeId::FIX);
        default: return -1;
    }
}

// PipeId of a pipe the timing model has (-1: PIPE_ALL).
ASCENDOPT_TWIN_FN constexpr int flag_pipe(pipe_t p) {
    switch (p) {
        case PIPE_S: return int(PipeId::S);
        case PIPE_V: return int(PipeId::V);
        case PIPE_MTE2: return int(PipeId::MTE2);
        case PIPE_MTE3: return int(PipeId::MTE3);
        case PIPE_MTE1: return int(PipeId::MTE1);
        case PIPE_M: return int(PipeId::M);
        case PIPE_FIX: return int(PipeId::FIX);
        default: return -1;
    }
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

template <HardEvent event>
ASCENDOPT_TWIN_FN inline void SetFlag(int32_t eventId) {
    ascendopt_twin::account_flag(true, ascendopt_twin::detail::event_src(event), ascendopt_twin::detail::event_dst(event), eventId);
}
template <HardEvent event>
ASCENDOPT_TWIN_FN inline void WaitFlag(int32_t eventId) {
    ascendopt_twin::account_flag(false, ascendopt_twin::detail::event_src(event), ascendopt_twin::detail::event_dst(event), eventId);
}
template <pipe_t pipe>
ASCENDOPT_TWIN_FN inline void PipeBarrier() {
    ascendopt_twin::account_barrier(pipe == PIPE_ALL);
}
ASCENDOPT_TWIN_FN inline void pipe_barrier(pipe_t pipe) { ascendopt_twin::account_barrier(pipe == PIPE_ALL); }

// Flags between two pipes as an object: SetFlag(id) / WaitFlag(id) of the event src -> dst.
template <pipe_t src, pipe_t dst>
class TQueSync {
public:
    ASCENDOPT_TWIN_FN void SetFlag(int32_t eventId) {
        ascendopt_twin::account_flag(true, ascendopt_twin::detail::flag_pipe(src), ascendopt_twin::detail::flag_pipe(dst), eventId);
    }
    ASCENDOPT_TWIN_FN void WaitFlag(int32_t eventId) {
        ascendopt_twin::account_flag(false, ascendopt_twin::detail::flag_pipe(src), ascendopt_twin::detail::flag_pipe(dst), eventId);
    }
};

// Which pipes trigger and wait in SyncAll<true, config> (the twin joins all pipes either way).
struct SyncAllConfig {
    pipe_t triggerPipe;
    pipe_t waitPipe;
};
constexpr SyncAllConfig DEFAULT_SYNC_ALL_CONFIG = {PIPE_ALL, PIPE_ALL};

// isAIVOnly: in a mixed launch only the AIVs take part (on an AIC: only the AICs);
// SyncAll<false> joins every core of the launch (docs/twin.md "Cores").
template <bool isAIVOnly = true, const SyncAllConfig& config = DEFAULT_SYNC_ALL_CONFIG>
ASCENDOPT_TWIN_FN inline void SyncAll() {
    ascendopt_twin::sync_all(isAIVOnly);
}
// Software SyncAll through a GM workspace: same effect in the twin.
template <bool isAIVOnly = true>
ASCENDOPT_TWIN_FN inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t usedCores = 0) {
    (void)gmWorkspace;
    (void)ubWorkspace;
    (void)usedCores;
    ascendopt_twin::sync_all(isAIVOnly);
}

}  // namespace AscendC

// The device compiler's intrinsics, which kernels call at global scope (often inside macros):
// pipe_barrier(PIPE_ALL), set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0), wait_flag(...).
using AscendC::pipe_barrier;
ASCENDOPT_TWIN_FN inline void set_flag(pipe_t src, pipe_t dst, event_t id) {
    ascendopt_twin::account_flag(true, ascendopt_twin::detail::flag_pipe(src), ascendopt_twin::detail::flag_pipe(dst), int32_t(id));
}
ASCENDOPT_TWIN_FN inline void wait_flag(pipe_t src, pipe_t dst, event_t id) {
    ascendopt_twin::account_flag(false, ascendopt_twin::detail::flag_pipe(src), ascendopt_twin::detail::flag_pipe(dst), int32_t(id));
}
