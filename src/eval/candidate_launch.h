// The launcher's walls around every run of a candidate's binary (its host binary's describe and
// tiling runs, its operator binary's launch): the system calls it may make are cut down
// (core/syscall_filter.h, FilterStage::from_exec) by the launcher before the binary's first
// instruction, so no code of it, its loader's, its runtimes' start-up or a candidate
// constructor's, ever runs without them. The harness takes more away once it has opened its
// files (twin/rt/harness_confine.h).
#pragma once

#include "util/sandbox.h"
#include "util/subprocess.h"

namespace ascendopt {

// Sets the walls on `process`: installed by ascendopt's child just before it executes the
// binary, or, when `view` is given (the run goes through bubblewrap), by bubblewrap just before
// it executes the binary inside the sandbox.
void add_launch_walls(ProcessOptions& process, SandboxSpec* view);

}  // namespace ascendopt
