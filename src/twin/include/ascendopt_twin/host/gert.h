// gert:: runtime contexts handed to TilingFunc, InferShape and InferDataType. The harness
// fills them from a case; operator code only reads inputs and writes its decisions.
// Index accessors return null for an index out of range, as CANN does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <type_traits>
#include <vector>

#include "ascendopt_twin/host/ge_types.h"

namespace fe { class PlatFormInfos; }

namespace gert {

class Shape {
public:
    Shape() = default;
    Shape(std::initializer_list<int64_t> dims) : m_dims(dims) {}
    explicit Shape(std::vector<int64_t> dims) : m_dims(std::move(dims)) {}
    size_t GetDimNum() const { return m_dims.size(); }
    int64_t GetDim(size_t i) const { return i < m_dims.size() ? m_dims[i] : 0; }
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
    const Shape& GetOriginShape() const { return m_origin; }
    const Shape& GetStorageShape() const { return m_storage; }
    Shape& MutableOriginShape() { return m_origin; }
    Shape& MutableStorageShape() { return m_storage; }

private:
    Shape m_origin, m_storage;
};

class CompileTimeTensorDesc {
public:
    ge::DataType GetDataType() const { return m_dtype; }
    ge::Format GetOriginFormat() const { return m_format; }
    ge::Format GetStorageFormat() const { return m_format; }
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

// One attribute value; the stored kind decides which getter answers.
struct AttrValue {
    enum class Kind { none, i64, f32, boolean, str, list_i64, list_f32 } kind = Kind::none;
    int64_t i = 0;
    float f = 0;
    bool b = false;
    std::string s;
    std::vector<int64_t> li;
    std::vector<float> lf;
    // What a raw pointer to the attribute's storage sees, as CANN's untyped GetAttrPointer<T>
    // does: scalars in the low bytes of 8, a list's header (its element count) for lists.
    int64_t raw = 0;
    void refresh_raw() {
        raw = 0;
        switch (kind) {
            case Kind::i64: raw = i; break;
            case Kind::f32: std::memcpy(&raw, &f, sizeof f); break;
            case Kind::boolean: raw = b ? 1 : 0; break;
            case Kind::list_i64: raw = int64_t(li.size()); break;
            case Kind::list_f32: raw = int64_t(lf.size()); break;
            default: break;
        }
    }
};

class TypedContinuousVector {
public:
    explicit TypedContinuousVector(const std::vector<int64_t>* v) : m_v(v) {}
    size_t GetSize() const { return m_v->size(); }
    const int64_t* GetData() const { return m_v->data(); }

private:
    const std::vector<int64_t>* m_v;
};

class TypedContinuousVectorFloat {
public:
    explicit TypedContinuousVectorFloat(const std::vector<float>* v) : m_v(v) {}
    size_t GetSize() const { return m_v->size(); }
    const float* GetData() const { return m_v->data(); }

private:
    const std::vector<float>* m_v;
};

// Attribute getters by index in OpDef order. A getter of the attribute's own kind returns a
// typed pointer; GetAttrPointer<T> of another type reinterprets the storage, as CANN does (the
// value means nothing then, but the pointer is not null); an index out of range gives null.
class RuntimeAttrs {
public:
    template <class T>
    const T* GetAttrPointer(size_t i) const {
        if (i >= m_values.size()) return nullptr;
        const AttrValue& v = m_values[i];
        if constexpr (std::is_same_v<T, char>) {
            return v.kind == AttrValue::Kind::str ? v.s.c_str() : reinterpret_cast<const char*>(&v.raw);
        } else if constexpr (std::is_same_v<T, float>) {
            return v.kind == AttrValue::Kind::f32 ? &v.f : reinterpret_cast<const float*>(&v.raw);
        } else if constexpr (std::is_same_v<T, bool>) {
            return v.kind == AttrValue::Kind::boolean ? &v.b : reinterpret_cast<const bool*>(&v.raw);
        } else if constexpr (std::is_same_v<T, int64_t>) {
            return v.kind == AttrValue::Kind::i64 ? &v.i : &v.raw;
        } else if constexpr (std::is_same_v<T, TypedContinuousVector>) {
            return GetListInt(i);
        } else {
            // Any other type (uint32_t, int, double, ...): the low bytes of the stored value.
            static_assert(sizeof(T) <= sizeof(int64_t), "GetAttrPointer<T>: T is wider than an attribute's storage");
            return reinterpret_cast<const T*>(v.kind == AttrValue::Kind::i64 ? &v.i : &v.raw);
        }
    }
    const int64_t* GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
    const float* GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
    const bool* GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
    const char* GetStr(size_t i) const { return at(i, AttrValue::Kind::str) ? m_values[i].s.c_str() : nullptr; }
    const TypedContinuousVector* GetListInt(size_t i) const {
        if (!at(i, AttrValue::Kind::list_i64)) return nullptr;
        return &m_lists.emplace_back(&m_values[i].li);
    }
    const TypedContinuousVectorFloat* GetListFloat(size_t i) const {
        if (!at(i, AttrValue::Kind::list_f32)) return nullptr;
        return &m_float_lists.emplace_back(&m_values[i].lf);
    }
    size_t GetAttrNum() const { return m_values.size(); }
    // For the harness: adds a value (its raw view is filled in here).
    void push(AttrValue v) {
        v.refresh_raw();
        m_values.push_back(std::move(v));
    }

private:
    bool at(size_t i, AttrValue::Kind k) const { return i < m_values.size() && m_values[i].kind == k; }
    std::vector<AttrValue> m_values;
    // Handed-out list views; a deque keeps earlier pointers valid as more are handed out.
    mutable std::deque<TypedContinuousVector> m_lists;
    mutable std::deque<TypedContinuousVectorFloat> m_float_lists;
};

class TilingData {
public:
    explicit TilingData(size_t capacity = 64 * 1024) : m_bytes(capacity, 0) {}
    void* GetData() { return m_bytes.data(); }
    size_t GetCapacity() const { return m_bytes.size(); }
    size_t GetDataSize() const { return m_size; }
    void SetDataSize(size_t n) { m_size = n; }
    const std::vector<uint8_t>& bytes() const { return m_bytes; }

private:
    std::vector<uint8_t> m_bytes;
    size_t m_size = 0;
};

// What the harness knows about one operator invocation, shared by the contexts.
struct IoDesc {
    std::vector<StorageShape> input_shapes, output_shapes;
    std::vector<CompileTimeTensorDesc> input_descs, output_descs;
    std::vector<Tensor> input_tensors;
    RuntimeAttrs attrs;
    std::string node_name;
};

class TilingContext {
public:
    TilingContext(IoDesc* io, fe::PlatFormInfos* platform) : m_io(io), m_platform(platform) {}
    const StorageShape* GetInputShape(size_t i) const { return i < m_io->input_shapes.size() ? &m_io->input_shapes[i] : nullptr; }
    const StorageShape* GetOutputShape(size_t i) const { return i < m_io->output_shapes.size() ? &m_io->output_shapes[i] : nullptr; }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return i < m_io->input_descs.size() ? &m_io->input_descs[i] : nullptr; }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const { return i < m_io->output_descs.size() ? &m_io->output_descs[i] : nullptr; }
    const Tensor* GetInputTensor(size_t i) const { return i < m_io->input_tensors.size() ? &m_io->input_tensors[i] : nullptr; }
    const Tensor* GetOptionalInputTensor(size_t i) const { return GetInputTensor(i); }
    const StorageShape* GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
    const RuntimeAttrs* GetAttrs() const { return &m_io->attrs; }
    fe::PlatFormInfos* GetPlatformInfo() const { return m_platform; }
    const char* GetNodeName() const { return m_io->node_name.c_str(); }
    const char* GetNodeType() const { return m_io->node_name.c_str(); }
    ge::graphStatus SetBlockDim(uint32_t n) {
        m_block_dim = n;
        return ge::GRAPH_SUCCESS;
    }
    uint32_t GetBlockDim() const { return m_block_dim; }
    ge::graphStatus SetTilingKey(uint64_t k) {
        m_tiling_key = k;
        return ge::GRAPH_SUCCESS;
    }
    uint64_t GetTilingKey() const { return m_tiling_key; }
    TilingData* GetRawTilingData() { return &m_tiling; }
    size_t* GetWorkspaceSizes(size_t n) {
        if (m_workspace.size() < n) m_workspace.resize(n, 0);
        return m_workspace.data();
    }
    size_t GetWorkspaceNum() const { return m_workspace.size(); }
    ge::graphStatus SetScheduleMode(uint32_t) { return ge::GRAPH_SUCCESS; }
    const std::vector<size_t>& workspace() const { return m_workspace; }

private:
    IoDesc* m_io;
    fe::PlatFormInfos* m_platform;
    uint32_t m_block_dim = 0;
    uint64_t m_tiling_key = 0;
    TilingData m_tiling;
    std::vector<size_t> m_workspace;
};

class InferShapeContext {
public:
    explicit InferShapeContext(IoDesc* io) : m_io(io) {}
    const Shape* GetInputShape(size_t i) const {
        return i < m_io->input_shapes.size() ? &m_io->input_shapes[i].GetOriginShape() : nullptr;
    }
    const Shape* GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
    Shape* GetOutputShape(size_t i) {
        return i < m_io->output_shapes.size() ? &m_io->output_shapes[i].MutableOriginShape() : nullptr;
    }
    const RuntimeAttrs* GetAttrs() const { return &m_io->attrs; }
    const char* GetNodeName() const { return m_io->node_name.c_str(); }

private:
    IoDesc* m_io;
};

class InferDataTypeContext {
public:
    explicit InferDataTypeContext(IoDesc* io) : m_io(io) {}
    ge::DataType GetInputDataType(size_t i) const {
        return i < m_io->input_descs.size() ? m_io->input_descs[i].GetDataType() : ge::DT_UNDEFINED;
    }
    ge::graphStatus SetOutputDataType(size_t i, ge::DataType t) {
        if (i >= m_io->output_descs.size()) return ge::GRAPH_FAILED;
        m_io->output_descs[i].set(t, m_io->output_descs[i].GetStorageFormat());
        return ge::GRAPH_SUCCESS;
    }
    const RuntimeAttrs* GetAttrs() const { return &m_io->attrs; }

private:
    IoDesc* m_io;
};

}  // namespace gert
