// ge:: data types, formats and status codes of the CANN graph engine, as host code uses them.
// The numeric values are CANN's (graph/types.h), since host code stores and compares them.
#pragma once

#include "ascendopt_twin/host/std_prelude.h"

namespace ge {

enum DataType : int32_t {
    DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4, DT_INT16 = 6, DT_UINT16 = 7,
    DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11, DT_BOOL = 12, DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14, DT_DUAL_SUB_UINT8 = 15, DT_COMPLEX64 = 16, DT_COMPLEX128 = 17, DT_QINT8 = 18,
    DT_QINT16 = 19, DT_QINT32 = 20, DT_QUINT8 = 21, DT_QUINT16 = 22, DT_RESOURCE = 23, DT_STRING_REF = 24,
    DT_DUAL = 25, DT_VARIANT = 26, DT_BF16 = 27, DT_UNDEFINED = 28, DT_INT4 = 29, DT_UINT1 = 30, DT_INT2 = 31,
    DT_UINT2 = 32, DT_COMPLEX32 = 33, DT_HIFLOAT8 = 34, DT_FLOAT8_E5M2 = 35, DT_FLOAT8_E4M3FN = 36,
    DT_FLOAT8_E8M0 = 37, DT_MAX
};

enum Format : int32_t {
    FORMAT_NCHW = 0, FORMAT_NHWC = 1, FORMAT_ND = 2, FORMAT_NC1HWC0 = 3, FORMAT_FRACTAL_Z = 4, FORMAT_NC1C0HWPAD = 5,
    FORMAT_NHWC1C0 = 6, FORMAT_FSR_NCHW = 7, FORMAT_FRACTAL_DECONV = 8, FORMAT_C1HWNC0 = 9, FORMAT_FRACTAL_DECONV_TRANSPOSE = 10,
    FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS = 11, FORMAT_NC1HWC0_C04 = 12, FORMAT_FRACTAL_Z_C04 = 13, FORMAT_CHWN = 14,
    FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS = 15, FORMAT_HWCN = 16, FORMAT_NC1KHKWHWC0 = 17, FORMAT_BN_WEIGHT = 18,
    FORMAT_FILTER_HWCK = 19, FORMAT_HASHTABLE_LOOKUP_LOOKUPS = 20, FORMAT_HASHTABLE_LOOKUP_KEYS = 21,
    FORMAT_HASHTABLE_LOOKUP_VALUE = 22, FORMAT_HASHTABLE_LOOKUP_OUTPUT = 23, FORMAT_HASHTABLE_LOOKUP_HITS = 24,
    FORMAT_C1HWNCoC0 = 25, FORMAT_MD = 26, FORMAT_NDHWC = 27, FORMAT_FRACTAL_ZZ = 28, FORMAT_FRACTAL_NZ = 29,
    FORMAT_NCDHW = 30, FORMAT_DHWCN = 31, FORMAT_NDC1HWC0 = 32, FORMAT_FRACTAL_Z_3D = 33, FORMAT_CN = 34, FORMAT_NC = 35,
    FORMAT_DHWNC = 36, FORMAT_FRACTAL_Z_3D_TRANSPOSE = 37, FORMAT_FRACTAL_ZN_LSTM = 38, FORMAT_FRACTAL_Z_G = 39,
    FORMAT_RESERVED = 40, FORMAT_ALL = 41, FORMAT_NULL = 42, FORMAT_ND_RNN_BIAS = 43, FORMAT_FRACTAL_ZN_RNN = 44,
    FORMAT_NYUV = 45, FORMAT_NYUV_A = 46, FORMAT_NCL = 47, FORMAT_FRACTAL_Z_WINO = 48, FORMAT_C1HWC0 = 49,
    FORMAT_FRACTAL_NZ_C0_16 = 50, FORMAT_FRACTAL_NZ_C0_32 = 51, FORMAT_END, FORMAT_MAX = 0xff
};

// A format value packs a primary format (low byte) and a sub-format (the next two bytes).
inline int32_t GetPrimaryFormat(int32_t format) { return static_cast<int32_t>(static_cast<uint32_t>(format) & 0xff); }
inline int32_t GetSubFormat(int32_t format) { return static_cast<int32_t>((static_cast<uint32_t>(format) & 0xffff00) >> 8); }
inline bool HasSubFormat(int32_t format) { return GetSubFormat(format) > 0; }
inline int32_t GetFormatFromSub(int32_t primary, int32_t sub) {
    return static_cast<int32_t>((static_cast<uint32_t>(primary) & 0xff) | ((static_cast<uint32_t>(sub) & 0xffff) << 8));
}

using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
constexpr graphStatus GRAPH_NOT_CHANGED = 1343242304;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649;
constexpr graphStatus GRAPH_NODE_WITHOUT_CONST_INPUT = 50331648;
constexpr graphStatus GRAPH_NODE_NEED_REPASS = 50331647;
using Status = uint32_t;
constexpr Status SUCCESS = 0;
constexpr Status FAILED = 0xFFFFFFFF;
constexpr Status PARAM_INVALID = 50331649;

using char_t = char;
constexpr int64_t UNKNOWN_DIM = -1;
constexpr int64_t UNKNOWN_DIM_NUM = -2;

// Bytes per element, or -1 for a type without a byte size (strings, sub-byte integers).
inline int GetSizeByDataType(DataType t) {
    switch (t) {
        case DT_FLOAT: case DT_INT32: case DT_UINT32: case DT_QINT32: case DT_COMPLEX32: return 4;
        case DT_FLOAT16: case DT_BF16: case DT_INT16: case DT_UINT16: case DT_QINT16: case DT_QUINT16: return 2;
        case DT_INT8: case DT_UINT8: case DT_BOOL: case DT_QINT8: case DT_QUINT8: case DT_DUAL_SUB_INT8: case DT_DUAL_SUB_UINT8:
        case DT_HIFLOAT8: case DT_FLOAT8_E5M2: case DT_FLOAT8_E4M3FN: case DT_FLOAT8_E8M0: return 1;
        case DT_INT64: case DT_UINT64: case DT_DOUBLE: case DT_COMPLEX64: case DT_RESOURCE: return 8;
        case DT_COMPLEX128: return 16;
        default: return -1;
    }
}

// A string the graph engine hands out and takes (names, attribute values).
class AscendString {
public:
    AscendString() = default;
    AscendString(const char* s) : m_s(s ? s : "") {}  // NOLINT: implicit, as in CANN
    const char* GetString() const { return m_s.c_str(); }
    size_t GetLength() const { return m_s.size(); }
    bool operator<(const AscendString& o) const { return m_s < o.m_s; }
    bool operator==(const AscendString& o) const { return m_s == o.m_s; }
    bool operator!=(const AscendString& o) const { return m_s != o.m_s; }

private:
    std::string m_s;
};

// A tensor shape of the graph engine (host code builds them to call tiling helpers).
class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : m_dims(dims) {}
    size_t GetDimNum() const { return m_dims.size(); }
    int64_t GetDim(size_t i) const { return i < m_dims.size() ? m_dims[i] : 0; }
    graphStatus SetDim(size_t i, int64_t v) {
        if (i >= m_dims.size()) return GRAPH_FAILED;
        m_dims[i] = v;
        return GRAPH_SUCCESS;
    }
    std::vector<int64_t> GetDims() const { return m_dims; }
    int64_t GetShapeSize() const {
        if (m_dims.empty()) return 0;
        int64_t n = 1;
        for (int64_t d : m_dims) n *= d;
        return n;
    }

private:
    std::vector<int64_t> m_dims;
};

}  // namespace ge
