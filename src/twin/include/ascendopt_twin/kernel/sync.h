// Synchronization between the pipes of a core (SetFlag/WaitFlag, PipeBarrier) and between
// cores (SyncAll). Functionally the twin executes each core's instructions in program
// order, so pipe flags only feed the accounting; SyncAll is a real barrier across blocks.
#pragma once

#include "ascendopt_twin/attrs.h"

#include "ascendopt_twin/kernel/pipe.h"

namespace AscendC {

enum pipe_t : uint8_t { PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_FIX };
enum event_t : uint8_t { EVENT_ID0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

template <HardEvent event>
ASCENDOPT_TWIN_FN inline void SetFlag(int32_t eventId) {
    (void)eventId;
    ascendopt_twin::record_instr(ascendopt_twin::PipeId::S, "set_flag", 0);
}
template <HardEvent event>
ASCENDOPT_TWIN_FN inline void WaitFlag(int32_t eventId) {
    (void)eventId;
    ascendopt_twin::record_instr(ascendopt_twin::PipeId::S, "wait_flag", 0);
}
template <pipe_t pipe>
ASCENDOPT_TWIN_FN inline void PipeBarrier() {
    ascendopt_twin::record_instr(ascendopt_twin::PipeId::S, "pipe_barrier", 0);
}
ASCENDOPT_TWIN_FN inline void pipe_barrier(pipe_t) { ascendopt_twin::record_instr(ascendopt_twin::PipeId::S, "pipe_barrier", 0); }

template <bool isAIVOnly = true>
ASCENDOPT_TWIN_FN inline void SyncAll() {
    ascendopt_twin::sync_all();
}
// Software SyncAll through a GM workspace: same effect in the twin.
template <bool isAIVOnly = true>
ASCENDOPT_TWIN_FN inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, int32_t usedCores = 0) {
    (void)gmWorkspace;
    (void)ubWorkspace;
    (void)usedCores;
    ascendopt_twin::sync_all();
}

}  // namespace AscendC
