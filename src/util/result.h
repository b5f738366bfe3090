// Result<T>: a value or an Error, for failures a caller is expected to handle (a missing
// file, a malformed manifest, a tool that is not installed). Exceptions are kept for bugs
// and fatal conditions, caught once in main.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace ascendopt {

struct Error {
    std::string message;  // what went wrong, with the values involved
    std::string hint;     // what to do about it; may be empty
    std::string detail;   // long supporting text (a compiler log); may be empty
    bool missing_tool = false;  // the machine lacks something (compiler, Python with numpy), not the input
    bool refused = false;       // a check of ascendopt's refused the input on purpose (it is not broken)
    // The candidate's code failed to build on a device's toolchain after building for the twin
    // (npu/cann_package.h): its verdict (build_failed), not the evaluation's error.
    bool build_failure = false;
};

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : m_v(std::move(value)) {}  // NOLINT: implicit by design
    Result(Error error) : m_v(std::move(error)) {}  // NOLINT: implicit by design

    bool ok() const { return std::holds_alternative<T>(m_v); }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<T>(m_v); }
    const T& value() const { return std::get<T>(m_v); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const Error& error() const { return std::get<Error>(m_v); }

private:
    std::variant<T, Error> m_v;
};

struct Unit {};
using Status = Result<Unit>;
inline Status ok_status() { return Unit{}; }

inline Error make_error(std::string message, std::string hint = {}, std::string detail = {}) {
    return Error{std::move(message), std::move(hint), std::move(detail)};
}

}  // namespace ascendopt
