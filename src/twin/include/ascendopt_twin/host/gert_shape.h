// gert:: shapes and tensors as tiling and shape inference see them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "ascendopt_twin/host/ge_types.h"

namespace gert {

class Shape {
public:
    static constexpr size_t kMaxDimNum = 25;
    Shape() = default;
    Shape(std::initializer_list<int64_t> dims) : m_dims(dims) {}
    explicit Shape(std::vector<int64_t> dims) : m_dims(std::move(dims)) {}
    size_t GetDimNum() const { return m_dims.size(); }
    int64_t GetDim(size_t i) const { return i < m_dims.size() ? m_dims[i] : 0; }
    int64_t operator[](size_t i) const { return GetDim(i); }
    int64_t& operator[](size_t i) {
        if (i >= m_dims.size()) m_dims.resize(i + 1, 0);
        return m_dims[i];
    }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (int64_t d : m_dims) n *= d;
        return n;
    }
    void SetDimNum(size_t n) { m_dims.resize(n, 1); }
    void SetDim(size_t i, int64_t v) {
        if (i < m_dims.size()) m_dims[i] = v;
    }
    Shape& AppendDim(int64_t v) {
        m_dims.push_back(v);
        return *this;
    }
    void SetScalar() { m_dims.clear(); }
    bool IsScalar() const { return m_dims.empty(); }
    bool operator==(const Shape& o) const { return m_dims == o.m_dims; }
    bool operator!=(const Shape& o) const { return !(*this == o); }
    const std::vector<int64_t>& dims() const { return m_dims; }

private:
    std::vector<int64_t> m_dims;
};

class StorageShape {
public:
    StorageShape() = default;
    explicit StorageShape(const Shape& s) : m_origin(s), m_storage(s) {}
    StorageShape(std::initializer_list<int64_t> origin, std::initializer_list<int64_t> storage) : m_origin(origin), m_storage(storage) {}
    const Shape& GetOriginShape() const { return m_origin; }
    const Shape& GetStorageShape() const { return m_storage; }
    Shape& MutableOriginShape() { return m_origin; }
    Shape& MutableStorageShape() { return m_storage; }
    bool operator==(const StorageShape& o) const { return m_origin == o.m_origin && m_storage == o.m_storage; }
    bool operator!=(const StorageShape& o) const { return !(*this == o); }

private:
    Shape m_origin, m_storage;
};

// The dtype and format of one input or output instance, known before its data.
class CompileTimeTensorDesc {
public:
    ge::DataType GetDataType() const { return m_dtype; }
    ge::Format GetOriginFormat() const { return m_format; }
    ge::Format GetStorageFormat() const { return m_format; }
    // The storage format as an object with GetStorageFormat/GetOriginFormat (CANN's StorageFormat).
    class Formats {
    public:
        explicit Formats(ge::Format f) : m_f(f) {}
        ge::Format GetStorageFormat() const { return m_f; }
        ge::Format GetOriginFormat() const { return m_f; }
        operator ge::Format() const { return m_f; }  // NOLINT: implicit, as code compares it
    private:
        ge::Format m_f;
    };
    Formats GetFormat() const { return Formats(m_format); }
    void set(ge::DataType t, ge::Format f) {
        m_dtype = t;
        m_format = f;
    }

private:
    ge::DataType m_dtype = ge::DT_FLOAT;
    ge::Format m_format = ge::FORMAT_ND;
};

class Tensor {
public:
    const Shape& GetOriginShape() const { return m_shape.GetOriginShape(); }
    const Shape& GetStorageShape() const { return m_shape.GetStorageShape(); }
    const StorageShape& GetShape() const { return m_shape; }
    int64_t GetShapeSize() const { return m_shape.GetStorageShape().GetShapeSize(); }
    ge::DataType GetDataType() const { return m_dtype; }
    ge::Format GetOriginFormat() const { return ge::FORMAT_ND; }
    ge::Format GetStorageFormat() const { return ge::FORMAT_ND; }
    // The tensor's contents on the host: present for inputs the OpDef marks ValueDepend (as in
    // CANN, where only those reach tiling), null otherwise.
    template <class T>
    const T* GetData() const { return static_cast<const T*>(m_data); }
    const void* GetAddr() const { return m_data; }
    size_t GetSize() const { return m_data_bytes; }
    void set(const StorageShape& s, ge::DataType t) {
        m_shape = s;
        m_dtype = t;
    }
    void set_data(const void* data, size_t bytes) {
        m_data = data;
        m_data_bytes = bytes;
    }

private:
    StorageShape m_shape;
    ge::DataType m_dtype = ge::DT_FLOAT;
    const void* m_data = nullptr;
    size_t m_data_bytes = 0;
};

}  // namespace gert
