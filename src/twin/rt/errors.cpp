// fail(): the single exit for errors the twin detects in kernel or host code.
#include <mutex>

#include "twin_rt.h"

namespace ascendopt_twin {
namespace {

std::mutex g_handler_mutex;

ErrorHandler& handler() {
    static ErrorHandler h = [](ErrorKind kind, const std::string& api, const std::string& message) {
        throw TwinError(kind, api, message);
    };
    return h;
}

}  // namespace

void set_error_handler(ErrorHandler h) {
    std::lock_guard<std::mutex> lock(g_handler_mutex);
    handler() = std::move(h);
}

const char* error_kind_name(ErrorKind kind) {
    return kind == ErrorKind::resource_exceeded ? "resource_exceeded" : "run_failed";
}

void fail(ErrorKind kind, const std::string& api, const std::string& message) {
    ErrorHandler h;
    {
        std::lock_guard<std::mutex> lock(g_handler_mutex);
        h = handler();
    }
    h(kind, api, message);
    std::abort();  // a handler must not return
}

}  // namespace ascendopt_twin
