// fail(): the single exit for errors the twin detects in kernel or host code.
#include <mutex>
#include <utility>

#include "twin_rt.h"

namespace ascendopt_twin {
namespace {

std::mutex g_handler_mutex;
thread_local RaisedFailure t_raised;
thread_local bool t_raising_consequence = false;  // while the handler runs

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

namespace {

// fail() and fail_in_sync(): runs the handler, remembering the thread's first failure.
[[noreturn]] void raise(ErrorKind kind, const std::string& api, const std::string& message, bool consequence) {
    ErrorHandler h;
    {
        std::lock_guard<std::mutex> lock(g_handler_mutex);
        h = handler();
    }
    t_raising_consequence = consequence;
    try {
        h(kind, api, message);
    } catch (...) {
        if (!t_raised.error) t_raised = {std::current_exception(), consequence};
        t_raising_consequence = false;
        throw;
    }
    std::abort();  // a handler must not return
}

}  // namespace

void fail(ErrorKind kind, const std::string& api, const std::string& message) { raise(kind, api, message, false); }

void fail_in_sync(bool consequence, ErrorKind kind, const std::string& api, const std::string& message) {
    raise(kind, api, message, consequence);
}

bool raising_consequence() { return t_raising_consequence; }

RaisedFailure take_raised_failure() { return std::exchange(t_raised, {}); }

}  // namespace ascendopt_twin
