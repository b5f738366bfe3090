// The logging macros of CANN's operator API (opdev), which some host files of the tree include
// for their shape inference. As the device log (base/alog_pub.h): errors go to stderr, the rest
// nowhere. Each macro is defined only if the including file has not defined its own.
#pragma once

#include <cstdio>

namespace ascendopt_twin::host {
template <class Where, class... Args>
inline void log_error(const Where&, const char* fmt, Args... args) {
    std::fputs("[host error] ", stderr);
    if constexpr (sizeof...(Args) == 0) std::fputs(fmt, stderr);
    else std::fprintf(stderr, fmt, args...);
    std::fputc('\n', stderr);
}
}  // namespace ascendopt_twin::host

#ifndef OP_LOGE
#define OP_LOGE(where, ...) ::ascendopt_twin::host::log_error((where), __VA_ARGS__)
#endif
#ifndef OP_LOGE_WITHOUT_REPORT
#define OP_LOGE_WITHOUT_REPORT(where, ...) ::ascendopt_twin::host::log_error((where), __VA_ARGS__)
#endif
#ifndef OP_LOGW
#define OP_LOGW(where, ...) ((void)0)
#endif
#ifndef OP_LOGI
#define OP_LOGI(where, ...) ((void)0)
#endif
#ifndef OP_LOGD
#define OP_LOGD(where, ...) ((void)0)
#endif
#ifndef OP_CHECK
#define OP_CHECK(cond, log_func, expr) \
    do {                               \
        if (cond) {                    \
            log_func;                  \
            expr;                      \
        }                              \
    } while (0)
#endif
