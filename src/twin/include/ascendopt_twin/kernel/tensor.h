// GlobalTensor (a view of device GM, reached only through the runtime) and LocalTensor
// (a view of the current core's Unified Buffer). Every element access is bounds-checked;
// a violation is a run_failed error naming the API and the values involved.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <string>
#include <utility>

#include "ascendopt_twin/kernel/defs.h"
#include "ascendopt_twin/kernel/shape_info.h"
#include "ascendopt_twin/runtime.h"

namespace ascendopt_twin::detail {

ASCENDOPT_TWIN_FN inline std::string str(uint64_t v) { return std::to_string(v); }

ASCENDOPT_TWIN_FN [[noreturn]] inline void out_of_range(const char* api, uint64_t index, uint64_t size) {
    fail(ErrorKind::run_failed, api,
         "index " + str(index) + " is out of range of a tensor of " + str(size) + " elements");
}

// A scalar access to element `index` of a tensor at `data` whose buffer holds `extent` elements.
ASCENDOPT_TWIN_FN inline void check_element(const char* api, const void* data, uint64_t index, uint64_t extent, size_t elem) {
    check_ub_access(api, "", static_cast<const uint8_t*>(data) + index * elem, elem, index < extent ? elem : 0);
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

// A LocalTensor has a size (GetSize: what AllocTensor, TBuf::Get(count) or SetSize made it) and
// an extent: the elements from its start to the end of the UB buffer it lies in. The hardware
// knows only addresses, so the twin checks every access against the extent (an access past it
// is an error naming the buffer); an access past the size but inside the buffer proceeds, as
// on the device (arange reads eight floats through TBuf::Get<float>(0)).
template <class T>
class LocalTensor {
public:
    using PrimType = T;

    LocalTensor() = default;
    ASCENDOPT_TWIN_FN LocalTensor(T* data, uint32_t size) : m_data(data), m_size(size), m_extent(size) {}
    ASCENDOPT_TWIN_FN LocalTensor(T* data, uint32_t size, uint32_t extent) : m_data(data), m_size(size), m_extent(extent) {}
    LocalTensor(const LocalTensor&) = default;
    LocalTensor& operator=(const LocalTensor&) = default;
    // `dst = a < b` and the like: the expression (vec_select.h) runs its instruction into *this.
    template <class Expr, class = decltype(std::declval<const Expr&>().assign_to(std::declval<const LocalTensor&>()))>
    ASCENDOPT_TWIN_FN LocalTensor& operator=(const Expr& e) {
        e.assign_to(*this);
        return *this;
    }

    ASCENDOPT_TWIN_FN T GetValue(uint32_t index) const {
        check(index, "LocalTensor::GetValue");
        ascendopt_twin::account_scalar(m_data + index, false, sizeof(T));
        return m_data[index];
    }
    template <class U>
    ASCENDOPT_TWIN_FN void SetValue(uint32_t index, const U& value) const {
        check(index, "LocalTensor::SetValue");
        ascendopt_twin::account_scalar(m_data + index, true, sizeof(T));
        m_data[index] = static_cast<T>(value);
    }
    ASCENDOPT_TWIN_FN T& operator()(uint32_t index) const {
        check(index, "LocalTensor::operator()");
        return m_data[index];
    }
    // Address arithmetic, as on the device: an offset past the buffer gives a tensor whose
    // accesses all lie past it (checked when they happen).
    ASCENDOPT_TWIN_FN LocalTensor operator[](uint32_t offset) const {
        return LocalTensor(m_data + offset, offset < m_size ? m_size - offset : 0, offset < m_extent ? m_extent - offset : 0);
    }
    template <class U>
    ASCENDOPT_TWIN_FN LocalTensor<U> ReinterpretCast() const {
        return LocalTensor<U>(reinterpret_cast<U*>(m_data), static_cast<uint32_t>(uint64_t(m_size) * sizeof(T) / sizeof(U)),
                              static_cast<uint32_t>(uint64_t(m_extent) * sizeof(T) / sizeof(U)));
    }
    ASCENDOPT_TWIN_FN uint32_t GetSize() const { return m_size; }
    ASCENDOPT_TWIN_FN void SetSize(uint32_t size) { m_size = size; }
    ASCENDOPT_TWIN_FN uint32_t GetLength() const { return m_size * sizeof(T); }
    // The tensor's address as an integer, as on the device (the CPU-debug library returns T*
    // instead): kernels cast it to a __ubuf__ pointer or add byte offsets to it (address lists
    // for TransDataTo5HD). In the twin the value is the host address of the tensor's memory.
    // `offset` counts elements.
    ASCENDOPT_TWIN_FN uint64_t GetPhyAddr() const { return reinterpret_cast<uint64_t>(m_data); }
    ASCENDOPT_TWIN_FN uint64_t GetPhyAddr(uint32_t offset) const { return reinterpret_cast<uint64_t>(m_data + offset); }

    // The shape the kernel attaches (documented for APIs that read a tensor's shape); a view
    // made by operator[] or ReinterpretCast starts without one, as a fresh tensor does.
    ASCENDOPT_TWIN_FN void SetShapeInfo(const ShapeInfo& info) { m_shape = info; }
    ASCENDOPT_TWIN_FN ShapeInfo GetShapeInfo() const { return m_shape; }

    // Twin internals: the host memory behind the tensor, and how many elements its UB buffer
    // holds from its start, for the API implementations.
    ASCENDOPT_TWIN_FN T* data() const { return m_data; }
    ASCENDOPT_TWIN_FN uint32_t extent() const { return m_extent; }

private:
    ASCENDOPT_TWIN_FN void check(uint32_t index, const char* api) const {
        ascendopt_twin::detail::check_element(api, m_data, index, m_extent, sizeof(T));
    }

    T* m_data = nullptr;
    uint32_t m_size = 0;
    uint32_t m_extent = 0;
    ShapeInfo m_shape;
};

// L2 cache hints of a GlobalTensor (the twin does not model L2: they change nothing).
enum class CacheMode : uint8_t { CACHE_MODE_DISABLE, CACHE_MODE_NORMAL, CACHE_MODE_LAST, CACHE_MODE_PERSISTENT };
enum class CacheRwMode : uint8_t { READ = 1, WRITE = 2, RW = 3 };

template <class T>
class GlobalTensor {
public:
    using PrimType = T;

    ASCENDOPT_TWIN_FN void SetGlobalBuffer(T* buffer, uint64_t size = 0) {
        m_addr = reinterpret_cast<uint64_t>(buffer);
        m_origin = m_addr;
        m_size = size;
    }
    ASCENDOPT_TWIN_FN GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor t;
        t.m_addr = m_addr + offset * sizeof(T);
        t.m_origin = m_origin;
        t.m_size = m_size > offset ? m_size - offset : 0;
        return t;
    }
    ASCENDOPT_TWIN_FN T GetValue(uint64_t index) const {
        ascendopt_twin::account_scalar(nullptr, false);
        T v;
        ascendopt_twin::raw_copy(&v, ascendopt_twin::gm_translate(address(index), sizeof(T), false, "GlobalTensor::GetValue", m_origin), sizeof(T));
        return v;
    }
    template <class U>
    ASCENDOPT_TWIN_FN void SetValue(uint64_t index, const U& value) const {
        ascendopt_twin::account_scalar(nullptr, true);
        const T v = static_cast<T>(value);
        ascendopt_twin::raw_copy(ascendopt_twin::gm_translate(address(index), sizeof(T), true, "GlobalTensor::SetValue", m_origin), &v, sizeof(T));
    }
    // operator()(i): element i as a scalar the kernel reads or assigns; each use is a GetValue or
    // SetValue (checked against GM and charged as one scalar access).
    class Element {
    public:
        ASCENDOPT_TWIN_FN Element(const GlobalTensor& t, uint64_t i) : m_t(t), m_i(i) {}
        ASCENDOPT_TWIN_FN operator T() const { return m_t.GetValue(m_i); }
        template <class U>
        ASCENDOPT_TWIN_FN const Element& operator=(const U& v) const {
            m_t.SetValue(m_i, v);
            return *this;
        }
        ASCENDOPT_TWIN_FN const Element& operator=(const Element& o) const { return *this = T(o); }

    private:
        GlobalTensor m_t;
        uint64_t m_i;
    };
    ASCENDOPT_TWIN_FN Element operator()(uint64_t index) const { return Element(*this, index); }
    ASCENDOPT_TWIN_FN T* GetPhyAddr() const { return reinterpret_cast<T*>(m_addr); }
    ASCENDOPT_TWIN_FN T* GetPhyAddr(uint64_t offset) const { return reinterpret_cast<T*>(address(offset)); }
    ASCENDOPT_TWIN_FN uint64_t GetSize() const { return m_size; }
    template <CacheRwMode rwMode = CacheRwMode::RW>
    ASCENDOPT_TWIN_FN void SetL2CacheHint(CacheMode mode) { (void)mode; }

    // Twin internals: the device address of element `index`, and where SetGlobalBuffer set the
    // tensor up (0: never), whose allocation every access through it must stay in.
    ASCENDOPT_TWIN_FN uint64_t address(uint64_t index = 0) const { return m_addr + index * sizeof(T); }
    ASCENDOPT_TWIN_FN uint64_t origin() const { return m_origin; }

private:
    uint64_t m_addr = 0;
    uint64_t m_origin = 0;
    uint64_t m_size = 0;
};

}  // namespace AscendC
