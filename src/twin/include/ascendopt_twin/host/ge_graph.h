// ge::Operator, ge::Tensor and ge::TensorDesc of the graph API, which some host files of the
// tree keep for their graph-mode (TBE) shape inference. Operators run on the twin through
// their tiling and kernel, never through a graph: these types only carry what such code
// reads (names, tensor bytes, descriptions), and the twin never hands them any.
#pragma once

#include <any>
#include <map>
#include <string>

#include "ascendopt_twin/host/ge_types.h"

namespace ge {

class TensorDesc {
public:
    TensorDesc() = default;
    TensorDesc(Shape shape, Format format = FORMAT_ND, DataType dtype = DT_FLOAT) : m_shape(std::move(shape)), m_format(format), m_dtype(dtype) {}
    Shape GetShape() const { return m_shape; }
    void SetShape(const Shape& s) { m_shape = s; }
    Format GetFormat() const { return m_format; }
    void SetFormat(Format f) { m_format = f; }
    DataType GetDataType() const { return m_dtype; }
    void SetDataType(DataType t) { m_dtype = t; }

private:
    Shape m_shape;
    Format m_format = FORMAT_ND;
    DataType m_dtype = DT_FLOAT;
};

class Tensor {
public:
    const uint8_t* GetData() const { return m_data.data(); }
    uint8_t* GetData() { return m_data.data(); }
    size_t GetSize() const { return m_data.size(); }
    TensorDesc GetTensorDesc() const { return m_desc; }

private:
    TensorDesc m_desc;
    std::vector<uint8_t> m_data;
};

class Operator {
public:
    graphStatus GetName(AscendString& name) const {
        name = AscendString(m_name.c_str());
        return GRAPH_SUCCESS;
    }
    AscendString GetOpType() const { return AscendString(m_type.c_str()); }
    graphStatus GetInputConstData(const char*, Tensor&) const { return GRAPH_FAILED; }
    TensorDesc GetInputDescByName(const char*) const { return TensorDesc(); }
    TensorDesc GetOutputDescByName(const char*) const { return TensorDesc(); }
    graphStatus UpdateOutputDesc(const char*, const TensorDesc&) { return GRAPH_SUCCESS; }

    // Attributes by name. GetAttr gives GRAPH_FAILED, leaving `value` as it was, when the
    // operator has no attribute of that name or holds it as another type (a value is read as
    // the type it was set with: set as int64_t, read as int64_t).
    template <class T>
    Operator& SetAttr(const char* name, const T& value) {
        m_attrs[name] = value;
        return *this;
    }
    Operator& SetAttr(const char* name, const char* value) { return SetAttr(name, AscendString(value)); }
    template <class T>
    graphStatus GetAttr(const char* name, T& value) const {
        const auto it = m_attrs.find(name);
        if (it == m_attrs.end()) return GRAPH_FAILED;
        const T* held = std::any_cast<T>(&it->second);
        if (!held) return GRAPH_FAILED;
        value = *held;
        return GRAPH_SUCCESS;
    }

private:
    std::string m_name, m_type;
    std::map<std::string, std::any> m_attrs;
};

}  // namespace ge
