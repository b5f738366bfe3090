// CANN's error-message reporting (the error codes a framework shows the user). The twin writes
// the message to stderr, as it does errors of the device log (base/alog_pub.h).
#pragma once

#include <cstdarg>
#include <cstdio>

namespace ascendopt_twin::host {
__attribute__((format(printf, 2, 3))) inline int report_error(const char* code, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    std::fprintf(stderr, "[host error %s] ", code ? code : "");
    std::vfprintf(stderr, fmt, args);
    std::fputc('\n', stderr);
    va_end(args);
    return 0;
}
}  // namespace ascendopt_twin::host

#define REPORT_INNER_ERR_MSG(error_code, fmt, ...) ::ascendopt_twin::host::report_error((error_code), fmt, ##__VA_ARGS__)
#define REPORT_CALL_ERROR REPORT_INNER_ERR_MSG
#define REPORT_INNER_ERROR REPORT_INNER_ERR_MSG
#define REPORT_INPUT_ERROR(error_code, keys, values) ((void)(error_code), (void)(keys), (void)(values), 0)
