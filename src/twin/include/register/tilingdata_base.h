// Tiling data declarations (BEGIN_TILING_DATA_DEF ... END_TILING_DATA_DEF). Each declared
// class is a plain struct whose fields the kernel reads by name (GET_TILING_DATA) and the
// host fills with set_<field>(); SaveToBuffer copies it byte for byte into the tiling buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <typeinfo>

#include "ascendopt_twin/host/std_prelude.h"

// CANN's tilingdata_base.h brings the graph types along (ge::DataType, ge::Format, graphStatus);
// headers that include only it (foreach_proto_utils.h) name them.
#include "ascendopt_twin/host/ge_types.h"
#include "ascendopt_twin/host/gert.h"

// TCubeTiling too: tiling headers that include only this one declare
// TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, ...) fields (the upsample family), and the kernel
// build reads them before anything else.
#include "ascendopt_twin/kernel/matmul_cube_tiling.h"

namespace ascendopt_twin::host {
// Copies `size` bytes of tiling data into a buffer of `capacity`; too small is a run_failed error.
void save_tiling(const void* data, size_t size, void* buffer, size_t capacity);
void register_tiling_class(const char* op_type, const std::type_info& cls, size_t size);
struct TilingClassRegistrar {
    TilingClassRegistrar(const char* op_type, const std::type_info& cls, size_t size) {
        register_tiling_class(op_type, cls, size);
    }
};
}  // namespace ascendopt_twin::host

#define BEGIN_TILING_DATA_DEF(className) \
    class className {                   \
    public:

#define TILING_DATA_FIELD_DEF(type, name)            \
    type name = type();                              \
    void set_##name(type value) { name = value; }    \
    type get_##name() const { return name; }

#define TILING_DATA_FIELD_DEF_ARR(type, count, name)                                  \
    type name[count] = {};                                                            \
    void set_##name(const type* values) { std::memcpy(name, values, sizeof(name)); }  \
    type* get_##name() { return name; }                                               \
    const type* get_##name() const { return name; }

#define TILING_DATA_FIELD_DEF_STRUCT(structType, name) structType name;

#define END_TILING_DATA_DEF                                                                                   \
    void SaveToBuffer(void* buffer, size_t capacity) const {                                                 \
        ::ascendopt_twin::host::save_tiling(this, sizeof(*this), buffer, capacity);                          \
    }                                                                                                         \
    /* CANN sizes tiling data in whole 8-byte words (tilings check it); the tail is padding. */           \
    size_t GetDataSize() const { return (sizeof(*this) + 7) / 8 * 8; }                                       \
    }

#ifdef ASCENDOPT_TWIN_KERNEL
#define REGISTER_TILING_DATA_CLASS(opType, className)
#else
#define REGISTER_TILING_DATA_CLASS(opType, className)                                                        \
    static ::ascendopt_twin::host::TilingClassRegistrar ascendopt_tiling_registrar_##opType##_##className(  \
        #opType, typeid(className), sizeof(className));
#endif
