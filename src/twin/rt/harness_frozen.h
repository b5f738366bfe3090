// Memory that becomes read-only once the harness has filled it: the SoC description the timing
// model reads. No code of the operator can write it afterwards: its pages are mapped read-only
// and the operator may not call mprotect (the object gate, eval/symbol_gate.cpp), so a kernel or
// tiling function that finds it (GetPlatformInfo hands tiling a pointer to it) faults instead of
// changing the clock or a bandwidth.
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace ascendopt_twin {
struct SocSpec;
}

namespace ascendopt_twin::harness {

// Runs `fill` with every C++ allocation of the calling thread (operator new) placed in the frozen
// area, then makes what it allocated read-only. Objects built there are never freed.
void build_frozen(const std::function<void()>& fill);

// Room in the frozen area for one object of `bytes` (call inside build_frozen's `fill`).
void* frozen_allocate(std::size_t bytes);

// The job's SoC description, built in frozen memory: read-only from the first call on. The cases
// of a job share one; a job naming another SoC gets a second. Null with `error` when the
// description is invalid.
const SocSpec* frozen_soc(const nlohmann::json& description, std::string& error);

}  // namespace ascendopt_twin::harness
