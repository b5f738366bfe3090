// gert:: runtime contexts handed to TilingFunc, TilingParse, InferShape and InferDataType. The
// harness fills them from a case; operator code reads inputs and writes its decisions.
//
// Inputs and outputs are counted two ways, as in CANN. The IR index counts the OpDef's
// parameters. The instance index counts the tensors actually given: an optional input left out
// has no instance, and a dynamic (list) input has one per tensor of its list. GetInputShape(i)
// and friends take an instance index; GetOptionalInput*(ir), GetDynamicInput*(ir, k) and
// GetRequiredInput*(ir) take an IR index. Accessors return null for an index out of range or an
// absent optional input, as CANN does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ascendopt_twin/host/ge_types.h"
#include "ascendopt_twin/host/gert_attrs.h"
#include "ascendopt_twin/host/gert_shape.h"

namespace fe { class PlatFormInfos; }

namespace gert {

// Where the instances of one IR parameter start, and how many there are (0: absent).
class AnchorInstanceInfo {
public:
    AnchorInstanceInfo() = default;
    AnchorInstanceInfo(uint32_t start, uint32_t count) : m_start(start), m_count(count) {}
    uint32_t GetInstanceStart() const { return m_start; }
    uint32_t GetInstantiationNum() const { return m_count; }
    // The same count under the name other releases give it (scatter_list).
    uint32_t GetInstanceNum() const { return m_count; }

private:
    uint32_t m_start = 0;
    uint32_t m_count = 0;
};

class TilingData {
public:
    explicit TilingData(size_t capacity = 64 * 1024) : m_bytes(capacity, 0) {}
    void* GetData() { return m_bytes.data(); }
    const void* GetData() const { return m_bytes.data(); }
    size_t GetCapacity() const { return m_bytes.size(); }
    size_t GetDataSize() const { return m_size; }
    void SetDataSize(size_t n) { m_size = n; }
    // Appends a value, as TilingData::Append<T> does for tilings written without a struct.
    template <class T>
    ge::graphStatus Append(const T& value) {
        if (m_size + sizeof(T) > m_bytes.size()) return ge::GRAPH_FAILED;
        std::memcpy(m_bytes.data() + m_size, &value, sizeof(T));
        m_size += sizeof(T);
        return ge::GRAPH_SUCCESS;
    }
    const std::vector<uint8_t>& bytes() const { return m_bytes; }

private:
    std::vector<uint8_t> m_bytes;
    size_t m_size = 0;
};

// What the harness knows about one operator invocation, shared by the contexts: per instance
// the shapes, descriptions and tensors, per IR parameter its instances.
struct IoDesc {
    std::vector<StorageShape> input_shapes, output_shapes;
    std::vector<CompileTimeTensorDesc> input_descs, output_descs;
    std::vector<Tensor> input_tensors;
    std::vector<AnchorInstanceInfo> input_ir, output_ir;
    RuntimeAttrs attrs;
    std::string node_name, node_type;

    // The instance of IR input `ir` at position `k` of its list, or -1.
    int64_t input_instance(size_t ir, size_t k = 0) const {
        if (ir >= input_ir.size() || k >= input_ir[ir].GetInstantiationNum()) return -1;
        return int64_t(input_ir[ir].GetInstanceStart() + k);
    }
    int64_t output_instance(size_t ir, size_t k = 0) const {
        if (ir >= output_ir.size() || k >= output_ir[ir].GetInstantiationNum()) return -1;
        return int64_t(output_ir[ir].GetInstanceStart() + k);
    }
};

template <class T>
const T* at_instance(const std::vector<T>& v, int64_t i) {
    return i >= 0 && size_t(i) < v.size() ? &v[size_t(i)] : nullptr;
}

// The operator node as the graph compiler sees it: names, parameter instances, attributes.
class ComputeNodeInfo {
public:
    explicit ComputeNodeInfo(const IoDesc* io) : m_io(io) {}
    const char* GetNodeName() const { return m_io->node_name.c_str(); }
    const char* GetNodeType() const { return m_io->node_type.c_str(); }
    size_t GetIrInputsNum() const { return m_io->input_ir.size(); }
    size_t GetIrOutputsNum() const { return m_io->output_ir.size(); }
    size_t GetInputsNum() const { return m_io->input_descs.size(); }
    size_t GetOutputsNum() const { return m_io->output_descs.size(); }
    const AnchorInstanceInfo* GetInputInstanceInfo(size_t ir) const { return at_instance(m_io->input_ir, int64_t(ir)); }
    const AnchorInstanceInfo* GetOutputInstanceInfo(size_t ir) const { return at_instance(m_io->output_ir, int64_t(ir)); }
    const CompileTimeTensorDesc* GetInputTdInfo(size_t i) const { return at_instance(m_io->input_descs, int64_t(i)); }
    const CompileTimeTensorDesc* GetOutputTdInfo(size_t i) const { return at_instance(m_io->output_descs, int64_t(i)); }
    const RuntimeAttrs* GetAttrs() const { return &m_io->attrs; }

private:
    const IoDesc* m_io;
};

// What every context offers about the node and its inputs.
class NodeContext {
public:
    explicit NodeContext(IoDesc* io) : m_io(io), m_node(io) {}
    const char* GetNodeName() const { return m_io->node_name.c_str(); }
    const char* GetNodeType() const { return m_io->node_type.c_str(); }
    const ComputeNodeInfo* GetComputeNodeInfo() const { return &m_node; }
    size_t GetComputeNodeInputNum() const { return m_io->input_descs.size(); }
    size_t GetComputeNodeOutputNum() const { return m_io->output_descs.size(); }
    const RuntimeAttrs* GetAttrs() const { return &m_io->attrs; }

    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return at_instance(m_io->input_descs, int64_t(i)); }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const { return at_instance(m_io->output_descs, int64_t(i)); }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const { return at_instance(m_io->input_descs, m_io->input_instance(ir)); }
    const CompileTimeTensorDesc* GetRequiredInputDesc(size_t ir) const { return GetOptionalInputDesc(ir); }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t k) const {
        return at_instance(m_io->input_descs, m_io->input_instance(ir, k));
    }
    const Tensor* GetInputTensor(size_t i) const { return at_instance(m_io->input_tensors, int64_t(i)); }
    const Tensor* GetOptionalInputTensor(size_t ir) const { return at_instance(m_io->input_tensors, m_io->input_instance(ir)); }
    const Tensor* GetRequiredInputTensor(size_t ir) const { return GetOptionalInputTensor(ir); }
    const Tensor* GetDynamicInputTensor(size_t ir, size_t k) const { return at_instance(m_io->input_tensors, m_io->input_instance(ir, k)); }

protected:
    IoDesc* m_io;
    ComputeNodeInfo m_node;
};

// gert's common base of the tiling and shape contexts, which host code reaches by a cast from
// any of them (scatter_list's InferShape reads GetComputeNodeOutputNum through it): the twin's
// NodeContext is that base, the first and only one of each context.
using ExtendedKernelContext = NodeContext;

class TilingContext : public NodeContext {
public:
    TilingContext(IoDesc* io, fe::PlatFormInfos* platform, const void* compile_info = nullptr)
        : NodeContext(io), m_platform(platform), m_compile_info(compile_info) {}
    const StorageShape* GetInputShape(size_t i) const { return at_instance(m_io->input_shapes, int64_t(i)); }
    const StorageShape* GetOutputShape(size_t i) const { return at_instance(m_io->output_shapes, int64_t(i)); }
    const StorageShape* GetOptionalInputShape(size_t ir) const { return at_instance(m_io->input_shapes, m_io->input_instance(ir)); }
    const StorageShape* GetRequiredInputShape(size_t ir) const { return GetOptionalInputShape(ir); }
    const StorageShape* GetDynamicInputShape(size_t ir, size_t k) const {
        return at_instance(m_io->input_shapes, m_io->input_instance(ir, k));
    }
    fe::PlatFormInfos* GetPlatformInfo() const { return m_platform; }
    // What the operator's TilingParse function prepared (IMPL_OP_OPTILING(...).TilingParse<T>), or null.
    const void* GetCompileInfo() const { return m_compile_info; }
    template <class T>
    const T* GetCompileInfo() const { return static_cast<const T*>(m_compile_info); }
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
    const TilingData* GetRawTilingData() const { return &m_tiling; }
    size_t* GetWorkspaceSizes(size_t n) {
        if (m_workspace.size() < n) m_workspace.resize(n, 0);
        return m_workspace.data();
    }
    size_t GetWorkspaceNum() const { return m_workspace.size(); }
    ge::graphStatus SetScheduleMode(uint32_t) { return ge::GRAPH_SUCCESS; }
    // Outputs declared with InitValue get their initial value only when this is set.
    ge::graphStatus SetNeedAtomic(bool need) {
        m_need_atomic = need;
        return ge::GRAPH_SUCCESS;
    }
    bool need_atomic() const { return m_need_atomic; }
    ge::graphStatus SetAicpuBlockDim(uint32_t) { return ge::GRAPH_SUCCESS; }
    int32_t GetDeterministic() const { return 0; }
    const std::vector<size_t>& workspace() const { return m_workspace; }

private:
    fe::PlatFormInfos* m_platform;
    const void* m_compile_info;
    uint32_t m_block_dim = 0;
    uint64_t m_tiling_key = 0;
    bool m_need_atomic = false;
    TilingData m_tiling;
    std::vector<size_t> m_workspace;
};

// The context of an operator's TilingParse function: it fills the compile info that every
// later tiling call reads (TilingContext::GetCompileInfo), from the platform.
class TilingParseContext : public NodeContext {
public:
    TilingParseContext(IoDesc* io, fe::PlatFormInfos* platform, void* compile_info)
        : NodeContext(io), m_platform(platform), m_compile_info(compile_info) {}
    template <class T>
    T* GetCompiledInfo() { return static_cast<T*>(m_compile_info); }
    fe::PlatFormInfos* GetPlatformInfo() const { return m_platform; }
    // The JSON a TBE-era compile step would have written: the twin has none.
    const char* GetCompiledJson() const { return "{}"; }

private:
    fe::PlatFormInfos* m_platform;
    void* m_compile_info;
};

class InferShapeContext : public NodeContext {
public:
    explicit InferShapeContext(IoDesc* io) : NodeContext(io) {}
    const Shape* GetInputShape(size_t i) const {
        const StorageShape* s = at_instance(m_io->input_shapes, int64_t(i));
        return s ? &s->GetOriginShape() : nullptr;
    }
    const Shape* GetOptionalInputShape(size_t ir) const {
        const int64_t i = m_io->input_instance(ir);
        return i < 0 ? nullptr : GetInputShape(size_t(i));
    }
    const Shape* GetRequiredInputShape(size_t ir) const { return GetOptionalInputShape(ir); }
    const Shape* GetDynamicInputShape(size_t ir, size_t k) const {
        const int64_t i = m_io->input_instance(ir, k);
        return i < 0 ? nullptr : GetInputShape(size_t(i));
    }
    Shape* GetOutputShape(size_t i) {
        return i < m_io->output_shapes.size() ? &m_io->output_shapes[i].MutableOriginShape() : nullptr;
    }
};

// A shape with bounds: what graph-mode shape inference of ranges works on.
template <class T>
class Range {
public:
    Range() = default;
    Range(T* min, T* max) : m_min(min), m_max(max) {}
    const T* GetMin() const { return m_min; }
    const T* GetMax() const { return m_max; }
    T* GetMin() { return m_min; }
    T* GetMax() { return m_max; }
    void SetMin(T* v) { m_min = v; }
    void SetMax(T* v) { m_max = v; }

private:
    T* m_min = nullptr;
    T* m_max = nullptr;
};

// The context of InferShapeRange functions (graph mode with unknown shapes). The twin runs
// operators on known shapes and never calls them; the type lets such functions compile.
class InferShapeRangeContext : public NodeContext {
public:
    explicit InferShapeRangeContext(IoDesc* io) : NodeContext(io) {}
    const Range<Shape>* GetInputShapeRange(size_t) const { return nullptr; }
    const Range<Shape>* GetOptionalInputShapeRange(size_t) const { return nullptr; }
    const Range<Shape>* GetDynamicInputShapeRange(size_t, size_t) const { return nullptr; }
    Range<Shape>* GetOutputShapeRange(size_t) { return nullptr; }
};

class InferDataTypeContext : public NodeContext {
public:
    explicit InferDataTypeContext(IoDesc* io) : NodeContext(io) {}
    ge::DataType GetInputDataType(size_t i) const {
        const auto* d = GetInputDesc(i);
        return d ? d->GetDataType() : ge::DT_UNDEFINED;
    }
    ge::DataType GetOptionalInputDataType(size_t ir) const {
        const auto* d = GetOptionalInputDesc(ir);
        return d ? d->GetDataType() : ge::DT_UNDEFINED;
    }
    ge::DataType GetDynamicInputDataType(size_t ir, size_t k) const {
        const auto* d = GetDynamicInputDesc(ir, k);
        return d ? d->GetDataType() : ge::DT_UNDEFINED;
    }
    ge::DataType GetOutputDataType(size_t i) const {
        const auto* d = GetOutputDesc(i);
        return d ? d->GetDataType() : ge::DT_UNDEFINED;
    }
    ge::graphStatus SetOutputDataType(size_t i, ge::DataType t) {
        if (i >= m_io->output_descs.size()) return ge::GRAPH_FAILED;
        m_io->output_descs[i].set(t, m_io->output_descs[i].GetStorageFormat());
        return ge::GRAPH_SUCCESS;
    }
};

}  // namespace gert
