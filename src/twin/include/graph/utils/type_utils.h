// ge::TypeUtils: element sizes and names of ge::DataType and ge::Format values.
#pragma once

#include <string>

#include "ascendopt_twin/host/ge_types.h"

namespace ge {

class TypeUtils {
public:
    static bool GetDataTypeLength(DataType t, uint32_t& length) {
        const int n = GetSizeByDataType(t);
        if (n < 0) return false;
        length = static_cast<uint32_t>(n);
        return true;
    }
    static std::string DataTypeToSerialString(DataType t);
    static AscendString DataTypeToAscendString(DataType t) { return AscendString(DataTypeToSerialString(t).c_str()); }
    static std::string FormatToSerialString(Format f);
    static AscendString FormatToAscendString(Format f) { return AscendString(FormatToSerialString(f).c_str()); }
    static DataType SerialStringToDataType(const std::string& s) {
        for (int t = 0; t < DT_MAX; ++t)
            if (DataTypeToSerialString(DataType(t)) == s) return DataType(t);
        return DT_UNDEFINED;
    }
    static Format SerialStringToFormat(const std::string& s) {
        for (int f = 0; f < FORMAT_END; ++f)
            if (FormatToSerialString(Format(f)) == s) return Format(f);
        return FORMAT_RESERVED;
    }
};

inline std::string TypeUtils::DataTypeToSerialString(DataType t) {
    static const char* const names[] = {
        "DT_FLOAT", "DT_FLOAT16", "DT_INT8", "DT_INT32", "DT_UINT8", "DT_UNDEFINED", "DT_INT16", "DT_UINT16", "DT_UINT32",
        "DT_INT64", "DT_UINT64", "DT_DOUBLE", "DT_BOOL", "DT_STRING", "DT_DUAL_SUB_INT8", "DT_DUAL_SUB_UINT8",
        "DT_COMPLEX64", "DT_COMPLEX128", "DT_QINT8", "DT_QINT16", "DT_QINT32", "DT_QUINT8", "DT_QUINT16", "DT_RESOURCE",
        "DT_STRING_REF", "DT_DUAL", "DT_VARIANT", "DT_BF16", "DT_UNDEFINED", "DT_INT4", "DT_UINT1", "DT_INT2", "DT_UINT2",
        "DT_COMPLEX32", "DT_HIFLOAT8", "DT_FLOAT8_E5M2", "DT_FLOAT8_E4M3FN", "DT_FLOAT8_E8M0"};
    const int i = static_cast<int>(t);
    return i >= 0 && i < int(sizeof(names) / sizeof(names[0])) ? names[i] : "DT_UNDEFINED";
}

inline std::string TypeUtils::FormatToSerialString(Format f) {
    static const char* const names[] = {
        "NCHW", "NHWC", "ND", "NC1HWC0", "FRACTAL_Z", "NC1C0HWPAD", "NHWC1C0", "FSR_NCHW", "FRACTAL_DECONV", "C1HWNC0",
        "FRACTAL_DECONV_TRANSPOSE", "FRACTAL_DECONV_SP_STRIDE_TRANS", "NC1HWC0_C04", "FRACTAL_Z_C04", "CHWN",
        "FRACTAL_DECONV_SP_STRIDE8_TRANS", "HWCN", "NC1KHKWHWC0", "BN_WEIGHT", "FILTER_HWCK", "LOOKUP_LOOKUPS", "LOOKUP_KEYS",
        "LOOKUP_VALUE", "LOOKUP_OUTPUT", "LOOKUP_HITS", "C1HWNCoC0", "MD", "NDHWC", "FRACTAL_ZZ", "FRACTAL_NZ", "NCDHW", "DHWCN",
        "NDC1HWC0", "FRACTAL_Z_3D", "CN", "NC", "DHWNC", "FRACTAL_Z_3D_TRANSPOSE", "FRACTAL_ZN_LSTM", "FRACTAL_Z_G", "RESERVED",
        "ALL", "NULL", "ND_RNN_BIAS", "FRACTAL_ZN_RNN", "NYUV", "NYUV_A", "NCL", "FRACTAL_Z_WINO", "C1HWC0", "FRACTAL_NZ_C0_16",
        "FRACTAL_NZ_C0_32"};
    const int i = GetPrimaryFormat(static_cast<int32_t>(f));
    return i >= 0 && i < int(sizeof(names) / sizeof(names[0])) ? names[i] : "RESERVED";
}

}  // namespace ge
