// CANN's portability layer (mmpa) as host code of the tree calls it: the AOE knowledge-bank log
// macros (runtime_kb/common/kb_log.h) print the calling thread's id. Defined in the runtime
// (rt/host_strings.cpp): operator code itself may not make system calls.
#pragma once

int mmGetTid();
