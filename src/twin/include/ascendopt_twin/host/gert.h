// gert:: runtime contexts handed to TilingFunc, InferShape and InferDataType. The harness
// fills them from a case; operator code only reads inputs and writes its decisions.
// Index accessors return null for an index out of range, as CANN does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
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
    int64_t GetShapeSize() const { return m_shape.GetStorageShape().GetShapeSize(); }
    ge::DataType GetDataType() const { return m_dtype; }
    void set(const StorageShape& s, ge::DataType t) {
        m_shape = s;
        m_dtype = t;
    }

private:
    StorageShape m_shape;
    ge::DataType m_dtype = ge::DT_FLOAT;
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
};

class TypedContinuousVector {
public:
    explicit TypedContinuousVector(const std::vector<int64_t>* v) : m_v(v) {}
    size_t GetSize() const { return m_v->size(); }
    const int64_t* GetData() const { return m_v->data(); }

private:
    const std::vector<int64_t>* m_v;
};

class RuntimeAttrs {
public:
    template <class T>
    const T* GetAttrPointer(size_t i) const;
    const int64_t* GetInt(size_t i) const { return at(i, AttrValue::Kind::i64) ? &m_values[i].i : nullptr; }
    const float* GetFloat(size_t i) const { return at(i, AttrValue::Kind::f32) ? &m_values[i].f : nullptr; }
    const bool* GetBool(size_t i) const { return at(i, AttrValue::Kind::boolean) ? &m_values[i].b : nullptr; }
    const char* GetStr(size_t i) const { return at(i, AttrValue::Kind::str) ? m_values[i].s.c_str() : nullptr; }
    const TypedContinuousVector* GetListInt(size_t i) const {
        if (!at(i, AttrValue::Kind::list_i64)) return nullptr;
        m_lists.emplace_back(&m_values[i].li);
        return &m_lists.back();
    }
    size_t GetAttrNum() const { return m_values.size(); }
    std::vector<AttrValue>& values() { return m_values; }

private:
    bool at(size_t i, AttrValue::Kind k) const { return i < m_values.size() && m_values[i].kind == k; }
    std::vector<AttrValue> m_values;
    mutable std::vector<TypedContinuousVector> m_lists;
};

template <> inline const int64_t* RuntimeAttrs::GetAttrPointer<int64_t>(size_t i) const { return GetInt(i); }
template <> inline const float* RuntimeAttrs::GetAttrPointer<float>(size_t i) const { return GetFloat(i); }
template <> inline const bool* RuntimeAttrs::GetAttrPointer<bool>(size_t i) const { return GetBool(i); }
template <> inline const char* RuntimeAttrs::GetAttrPointer<char>(size_t i) const { return GetStr(i); }
template <> inline const int32_t* RuntimeAttrs::GetAttrPointer<int32_t>(size_t i) const {
    // CANN stores integer attributes as int64; reading the low half matches little-endian hosts.
    return reinterpret_cast<const int32_t*>(GetInt(i));
}

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
