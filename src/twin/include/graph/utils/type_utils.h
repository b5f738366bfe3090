// ge::TypeUtils: element sizes and names of ge::DataType values.
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
    static std::string DataTypeToSerialString(DataType t) {
        switch (t) {
            case DT_FLOAT: return "DT_FLOAT";
            case DT_FLOAT16: return "DT_FLOAT16";
            case DT_BF16: return "DT_BF16";
            case DT_INT8: return "DT_INT8";
            case DT_INT16: return "DT_INT16";
            case DT_INT32: return "DT_INT32";
            case DT_INT64: return "DT_INT64";
            case DT_UINT8: return "DT_UINT8";
            case DT_BOOL: return "DT_BOOL";
            case DT_UINT16: return "DT_UINT16";
            case DT_UINT32: return "DT_UINT32";
            case DT_UINT64: return "DT_UINT64";
            case DT_DOUBLE: return "DT_DOUBLE";
            case DT_COMPLEX64: return "DT_COMPLEX64";
            case DT_COMPLEX128: return "DT_COMPLEX128";
            default: return "DT_UNDEFINED";
        }
    }
};

}  // namespace ge
