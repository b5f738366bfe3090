// ListTensorDesc and TensorDesc: the tensor list a dynamic (list) parameter hands the kernel,
// decoded as the runtime lays it out (twin_rt.h tensor_list_words): the byte offset of the data
// pointers, per tensor (its index << 32 | its dimension count) and its dimensions, then one
// data pointer per tensor. The words are GM, read as scalar GM loads.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <string>

#include "ascendopt_twin/kernel/tensor.h"

namespace ascendopt_twin::detail {

ASCENDOPT_TWIN_FN inline uint64_t gm_word(const uint64_t* addr, const char* api) {
    account_scalar(nullptr, false);
    uint64_t v;
    ascendopt_twin::raw_copy(&v, gm_translate(reinterpret_cast<uint64_t>(addr), sizeof v, false, api), sizeof v);
    return v;
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

template <class T>
class TensorDesc {
public:
    // Where GetDesc writes the shape; it must hold GetDim() values.
    ASCENDOPT_TWIN_FN void SetShapeAddr(uint64_t* shape) { m_shape = shape; }
    ASCENDOPT_TWIN_FN uint64_t GetDim() const { return m_dim; }
    ASCENDOPT_TWIN_FN uint64_t GetIndex() const { return m_index; }
    ASCENDOPT_TWIN_FN uint64_t GetShape(uint32_t i) const {
        if (i >= m_dim || m_shape == nullptr)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "TensorDesc::GetShape",
                                 "dimension " + std::to_string(i) + " of a tensor of " + std::to_string(m_dim) + " dimensions");
        return m_shape[i];
    }
    ASCENDOPT_TWIN_FN __gm__ T* GetDataPtr() const { return m_data; }
    ASCENDOPT_TWIN_FN GlobalTensor<T> GetDataObj() const {
        uint64_t n = 1;
        for (uint64_t i = 0; i < m_dim; ++i) n *= m_shape[i];
        GlobalTensor<T> g;
        g.SetGlobalBuffer(m_data, n);
        return g;
    }

    // For ListTensorDesc::GetDesc.
    ASCENDOPT_TWIN_FN uint64_t* shape_addr() const { return m_shape; }
    ASCENDOPT_TWIN_FN void set(uint32_t dim, uint32_t index, __gm__ T* data) {
        m_dim = dim;
        m_index = index;
        m_data = data;
    }

private:
    uint32_t m_dim = 0;
    uint32_t m_index = 0;
    uint64_t* m_shape = nullptr;
    __gm__ T* m_data = nullptr;
};

class ListTensorDesc {
public:
    ListTensorDesc() = default;
    ASCENDOPT_TWIN_FN explicit ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
        Init(data, length, shapeSize);
    }
    // `length` (bytes) and `shapeSize` (tensors), when given, must match the list.
    ASCENDOPT_TWIN_FN void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
        using ascendopt_twin::detail::gm_word;
        const char* api = "ListTensorDesc::Init";
        if (data == nullptr) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "the tensor list is null (an absent input)");
        m_head = static_cast<const uint64_t*>(data);
        const uint64_t offset = gm_word(m_head, api);
        const uint64_t first = gm_word(m_head + 1, api);
        m_dim = uint32_t(first & 0xffffffffu);
        m_stride = m_dim == 0 ? 2 : 1 + m_dim;
        m_pointers = m_head + offset / sizeof(uint64_t);
        const uint32_t high = uint32_t(first >> 32);
        m_count = high != 0 ? high : uint32_t(gm_word(m_pointers - m_stride, api) >> 32) + 1;
        // The decoding steps over every tensor's entry by the first one's size: the tensors of a
        // list it decodes share one rank (the documented layout). Walking the entries by their
        // own ranks tells whether they do.
        if (m_dim != 0) {
            const uint64_t* entry = m_head + 1;
            for (uint32_t i = 0; entry < m_pointers; ++i) {
                const uint32_t dim = uint32_t(gm_word(entry, api) & 0xffffffffu);
                if (dim != m_dim)
                    ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api,
                                         "tensor " + std::to_string(i) + " of the list has " + std::to_string(dim) + " dimensions, tensor 0 has " +
                                             std::to_string(m_dim) + "; ListTensorDesc decodes lists whose tensors share one rank "
                                             "(read the data pointers at the list's pointer offset instead, as the foreach kernels do)");
                entry += 1 + dim;
            }
        }
        if (shapeSize != 0xffffffff && length != 0xffffffff && (shapeSize != m_count || length != offset + uint64_t(m_count) * 8))
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api,
                                 "the list holds " + std::to_string(m_count) + " tensors in " + std::to_string(offset + uint64_t(m_count) * 8) +
                                     " bytes; the kernel said " + std::to_string(shapeSize) + " in " + std::to_string(length));
    }
    ASCENDOPT_TWIN_FN uint32_t GetSize() const { return m_count; }
    template <class T>
    ASCENDOPT_TWIN_FN __gm__ T* GetDataPtr(uint32_t index) const {
        check(index, "ListTensorDesc::GetDataPtr");
        return reinterpret_cast<__gm__ T*>(ascendopt_twin::detail::gm_word(m_pointers + index, "ListTensorDesc::GetDataPtr"));
    }
    template <class T>
    ASCENDOPT_TWIN_FN void GetDesc(TensorDesc<T>& desc, uint32_t index) const {
        const char* api = "ListTensorDesc::GetDesc";
        check(index, api);
        if (m_dim == 0) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "the list holds data pointers only, no shapes");
        if (desc.shape_addr() == nullptr)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "call TensorDesc::SetShapeAddr before GetDesc");
        const uint64_t* entry = m_head + 1 + uint64_t(index) * m_stride;
        for (uint32_t d = 0; d < m_dim; ++d) desc.shape_addr()[d] = ascendopt_twin::detail::gm_word(entry + 1 + d, api);
        desc.set(m_dim, index, GetDataPtr<T>(index));
    }

private:
    ASCENDOPT_TWIN_FN void check(uint32_t index, const char* api) const {
        if (m_head == nullptr) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "ListTensorDesc used before Init");
        if (index >= m_count)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api,
                                 "index " + std::to_string(index) + " is past the list's " + std::to_string(m_count) + " tensors");
    }
    const uint64_t* m_head = nullptr;
    const uint64_t* m_pointers = nullptr;
    uint32_t m_dim = 0;
    uint32_t m_stride = 0;
    uint32_t m_count = 0;
};

}  // namespace AscendC
