// A growable array for the twin's kernel-side headers.
//
// std::vector's members are instantiated in the kernel's translation unit with the kernel's
// instrumentation, so the writes a twin header made through one would count as the kernel's own,
// and be refused outside the memory the kernel owns (docs/sandbox.md). This one's members are
// the twin's (ASCENDOPT_TWIN_FN). For trivially copyable T only.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>

#include "ascendopt_twin/attrs.h"

namespace ascendopt_twin {

template <class T>
class TwinVector {
    static_assert(std::is_trivially_copyable_v<T>, "TwinVector holds trivially copyable values");

public:
    TwinVector() = default;
    ASCENDOPT_TWIN_FN TwinVector(const TwinVector& other) { copy_from(other); }
    ASCENDOPT_TWIN_FN TwinVector(TwinVector&& other) noexcept : m_data(other.m_data), m_size(other.m_size) {
        other.m_data = nullptr;
        other.m_size = 0;
    }
    ASCENDOPT_TWIN_FN TwinVector& operator=(const TwinVector& other) {
        if (this != &other) {
            release();
            copy_from(other);
        }
        return *this;
    }
    ASCENDOPT_TWIN_FN TwinVector& operator=(TwinVector&& other) noexcept {
        if (this != &other) {
            release();
            m_data = other.m_data;
            m_size = other.m_size;
            other.m_data = nullptr;
            other.m_size = 0;
        }
        return *this;
    }
    ASCENDOPT_TWIN_FN ~TwinVector() { release(); }

    // `n` copies of `value`; what it held before is gone.
    ASCENDOPT_TWIN_FN void assign(std::size_t n, T value) {
        release();
        m_data = n ? static_cast<T*>(::operator new(n * sizeof(T))) : nullptr;
        m_size = n;
        for (std::size_t i = 0; i < n; ++i) m_data[i] = value;
    }
    // `n` value-initialised elements; what it held before is gone (callers fill it).
    ASCENDOPT_TWIN_FN void resize(std::size_t n) { assign(n, T{}); }
    ASCENDOPT_TWIN_FN void clear() { release(); }
    ASCENDOPT_TWIN_FN bool empty() const { return m_size == 0; }
    ASCENDOPT_TWIN_FN std::size_t size() const { return m_size; }
    ASCENDOPT_TWIN_FN T* data() { return m_data; }
    ASCENDOPT_TWIN_FN const T* data() const { return m_data; }
    ASCENDOPT_TWIN_FN T& operator[](std::size_t i) { return m_data[i]; }
    ASCENDOPT_TWIN_FN const T& operator[](std::size_t i) const { return m_data[i]; }

private:
    ASCENDOPT_TWIN_FN void copy_from(const TwinVector& other) {
        m_size = other.m_size;
        m_data = m_size ? static_cast<T*>(::operator new(m_size * sizeof(T))) : nullptr;
        for (std::size_t i = 0; i < m_size; ++i) m_data[i] = other.m_data[i];
    }
    ASCENDOPT_TWIN_FN void release() {
        ::operator delete(m_data);
        m_data = nullptr;
        m_size = 0;
    }

    T* m_data = nullptr;
    std::size_t m_size = 0;
};

}  // namespace ascendopt_twin
