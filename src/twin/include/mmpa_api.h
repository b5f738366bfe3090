// CANN's portability layer (mmpa) as host code of the tree calls it: the AOE knowledge-bank log
// macros (runtime_kb/common/kb_log.h) print the calling thread's id.
#pragma once

#include <sys/syscall.h>
#include <unistd.h>

inline int mmGetTid() { return static_cast<int>(syscall(SYS_gettid)); }
