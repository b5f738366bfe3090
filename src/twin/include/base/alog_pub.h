// CANN's device-log API (slog) as host code calls it, usually through the logging macros of a
// cann-ops checkout (src/common/inc/log). The twin keeps debug, info and warning messages off
// and writes errors to stderr, which the evaluator keeps in a failing case's log: a tiling
// function that rejects its input says why.
#pragma once

#include <cstdarg>
#include <cstdio>

enum { DLOG_DEBUG = 0, DLOG_INFO = 1, DLOG_WARN = 2, DLOG_ERROR = 3, DLOG_NULL = 4, DLOG_TRACE = 5, DLOG_OPLOG = 6, DLOG_EVENT = 0x10 };
enum { DLOG_TYPE_DEBUG = 0, DLOG_TYPE_RUN = 1 };
// Module ids name the component that logs; only OP is used by operators.
enum { SLOG = 0, OP = 8, GE = 45, FE = 46, TEFUSION = 23, TBE = 51 };
// The AOE tuner's knowledge-bank logs (cann-ops' runtime_kb/common/kb_log.h); the value is ours.
enum { TUNE = 60 };

// 1 when messages of `level` from `module_id` are recorded: errors only.
inline int AlogCheckDebugLevel(int module_id, int level) {
    (void)module_id;
    return level == DLOG_ERROR ? 1 : 0;
}

__attribute__((format(printf, 4, 5))) inline void AlogRecord(int module_id, int log_type, int level, const char* fmt, ...) {
    (void)module_id;
    (void)log_type;
    if (level != DLOG_ERROR) return;
    va_list args;
    va_start(args, fmt);
    std::fputs("[host error] ", stderr);
    std::vfprintf(stderr, fmt, args);
    std::fputc('\n', stderr);
    va_end(args);
}

// The older spellings.
#define dlog_error(module_id, fmt, ...) AlogRecord((module_id), DLOG_TYPE_DEBUG, DLOG_ERROR, fmt, ##__VA_ARGS__)
#define dlog_warn(module_id, fmt, ...) ((void)0)
#define dlog_info(module_id, fmt, ...) ((void)0)
#define dlog_debug(module_id, fmt, ...) ((void)0)
#define dlog_event(module_id, fmt, ...) ((void)0)
// CheckLogLevel is the log library's function (not a macro): some host sources define their own
// (max_pool3_d_with_argmax_v2). The twin runtime's definition (rt/host_strings.cpp) is weak,
// so theirs takes its place; it answers as AlogCheckDebugLevel.
int CheckLogLevel(int module_id, int level);
