// GlobalTensor (a view of device GM, reached only through the runtime) and LocalTensor
// (a view of the current core's Unified Buffer). Every element access is bounds-checked;
// a violation is a run_failed error naming the API and the values involved.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <string>

#include "ascendopt_twin/kernel/defs.h"
#include "ascendopt_twin/runtime.h"

namespace ascendopt_twin::detail {

ASCENDOPT_TWIN_FN inline std::string str(uint64_t v) { return std::to_string(v); }

ASCENDOPT_TWIN_FN [[noreturn]] inline void out_of_range(const char* api, uint64_t index, uint64_t size) {
    fail(ErrorKind::run_failed, api,
         "index " + str(index) + " is out of range of a tensor of " + str(size) + " elements");
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

template <class T>
class LocalTensor {
public:
    using PrimType = T;

    LocalTensor() = default;
    ASCENDOPT_TWIN_FN LocalTensor(T* data, uint32_t size) : m_data(data), m_size(size) {}

    ASCENDOPT_TWIN_FN T GetValue(uint32_t index) const {
        check(index, "LocalTensor::GetValue");
        ascendopt_twin::account_scalar(m_data + index, false);
        return m_data[index];
    }
    template <class U>
    ASCENDOPT_TWIN_FN void SetValue(uint32_t index, const U& value) const {
        check(index, "LocalTensor::SetValue");
        ascendopt_twin::account_scalar(m_data + index, true);
        m_data[index] = static_cast<T>(value);
    }
    ASCENDOPT_TWIN_FN T& operator()(uint32_t index) const {
        check(index, "LocalTensor::operator()");
        return m_data[index];
    }
    ASCENDOPT_TWIN_FN LocalTensor operator[](uint32_t offset) const {
        if (offset > m_size) ascendopt_twin::detail::out_of_range("LocalTensor::operator[]", offset, m_size);
        return LocalTensor(m_data + offset, m_size - offset);
    }
    template <class U>
    ASCENDOPT_TWIN_FN LocalTensor<U> ReinterpretCast() const {
        return LocalTensor<U>(reinterpret_cast<U*>(m_data), static_cast<uint32_t>(uint64_t(m_size) * sizeof(T) / sizeof(U)));
    }
    ASCENDOPT_TWIN_FN uint32_t GetSize() const { return m_size; }
    ASCENDOPT_TWIN_FN void SetSize(uint32_t size) {
        if (size > m_size) ascendopt_twin::detail::out_of_range("LocalTensor::SetSize", size, m_size);
        m_size = size;
    }
    ASCENDOPT_TWIN_FN uint32_t GetLength() const { return m_size * sizeof(T); }
    ASCENDOPT_TWIN_FN T* GetPhyAddr() const { return m_data; }
    ASCENDOPT_TWIN_FN T* GetPhyAddr(uint32_t offset) const { return m_data + offset; }

    // Twin internals: the host memory behind the tensor, for the API implementations.
    ASCENDOPT_TWIN_FN T* data() const { return m_data; }

private:
    ASCENDOPT_TWIN_FN void check(uint32_t index, const char* api) const {
        if (index >= m_size) ascendopt_twin::detail::out_of_range(api, index, m_size);
    }

    T* m_data = nullptr;
    uint32_t m_size = 0;
};

template <class T>
class GlobalTensor {
public:
    using PrimType = T;

    ASCENDOPT_TWIN_FN void SetGlobalBuffer(T* buffer, uint64_t size = 0) {
        m_addr = reinterpret_cast<uint64_t>(buffer);
        m_size = size;
    }
    ASCENDOPT_TWIN_FN GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor t;
        t.m_addr = m_addr + offset * sizeof(T);
        t.m_size = m_size > offset ? m_size - offset : 0;
        return t;
    }
    ASCENDOPT_TWIN_FN T GetValue(uint64_t index) const {
        ascendopt_twin::account_scalar(nullptr, false);
        T v;
        std::memcpy(&v, ascendopt_twin::gm_translate(address(index), sizeof(T), false, "GlobalTensor::GetValue"), sizeof(T));
        return v;
    }
    template <class U>
    ASCENDOPT_TWIN_FN void SetValue(uint64_t index, const U& value) const {
        ascendopt_twin::account_scalar(nullptr, true);
        const T v = static_cast<T>(value);
        std::memcpy(ascendopt_twin::gm_translate(address(index), sizeof(T), true, "GlobalTensor::SetValue"), &v, sizeof(T));
    }
    ASCENDOPT_TWIN_FN T* GetPhyAddr() const { return reinterpret_cast<T*>(m_addr); }
    ASCENDOPT_TWIN_FN T* GetPhyAddr(uint64_t offset) const { return reinterpret_cast<T*>(address(offset)); }
    ASCENDOPT_TWIN_FN uint64_t GetSize() const { return m_size; }

    // Twin internals: the device address of element `index`.
    ASCENDOPT_TWIN_FN uint64_t address(uint64_t index = 0) const { return m_addr + index * sizeof(T); }

private:
    uint64_t m_addr = 0;
    uint64_t m_size = 0;
};

}  // namespace AscendC
