// Tiling data declarations (BEGIN_TILING_DATA_DEF ... END_TILING_DATA_DEF). Each declared
// class is a plain struct whose fields the kernel reads by name (GET_TILING_DATA) and the
// host fills with set_<field>(); SaveToBuffer copies it byte for byte into the tiling buffer,
// and SetDataPtr makes the object mirror an external buffer instead (docs/twin.md).
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
// SetDataPtr: the object at `object` (of `size` bytes) mirrors `buffer` from now on. Binding
// copies the buffer's bytes into the object (its fields read the buffer); the object's bytes go
// back to the buffer whenever it is asked for its size (GetDataSize), saved or destroyed, and
// at a new SetDataPtr. Bindings are per thread (the tiling function's).
void bind_tiling_data(void* object, size_t size, void* buffer);
void flush_tiling_data(const void* object);
void unbind_tiling_data(const void* object);
struct TilingClassRegistrar {
    TilingClassRegistrar(const char* op_type, const std::type_info& cls, size_t size) {
        register_tiling_class(op_type, cls, size);
    }
};
}  // namespace ascendopt_twin::host

#define BEGIN_TILING_DATA_DEF(className)                                          \
    class className {                                                            \
    public:                                                                      \
        ~className() { ::ascendopt_twin::host::unbind_tiling_data(this); }       \
        void SetDataPtr(void* dataPtr) { ::ascendopt_twin::host::bind_tiling_data(this, sizeof(*this), dataPtr); }

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

// The closing brace comes with its semicolon: the documented form writes END_TILING_DATA_DEF;
// (an empty declaration after it is harmless), and some tiling headers leave the semicolon out.
#define END_TILING_DATA_DEF                                                                                   \
    void SaveToBuffer(void* buffer, size_t capacity) const {                                                 \
        ::ascendopt_twin::host::flush_tiling_data(this);                                                     \
        ::ascendopt_twin::host::save_tiling(this, sizeof(*this), buffer, capacity);                          \
    }                                                                                                         \
    /* CANN sizes tiling data in whole 8-byte words (tilings check it); the tail is padding. */           \
    size_t GetDataSize() const {                                                                              \
        ::ascendopt_twin::host::flush_tiling_data(this);                                                     \
        return (sizeof(*this) + 7) / 8 * 8;                                                                   \
    }                                                                                                         \
    };

#ifdef ASCENDOPT_TWIN_KERNEL
#define REGISTER_TILING_DATA_CLASS(opType, className)
#else
// The registrar's name carries __COUNTER__: a header may repeat a registration another header
// of the same translation unit made already (foreach_v2_example's ForeachExp, registered both by
// the family's foreach_tiling_def.h and by its own), and the registry keeps both entries, which
// name the same class.
#define ASCENDOPT_TILING_REGISTRAR_NAME_(opType, className, n) ascendopt_tiling_registrar_##opType##_##className##_##n
#define ASCENDOPT_TILING_REGISTRAR_NAME(opType, className, n) ASCENDOPT_TILING_REGISTRAR_NAME_(opType, className, n)
#define REGISTER_TILING_DATA_CLASS(opType, className)                                                        \
    static ::ascendopt_twin::host::TilingClassRegistrar ASCENDOPT_TILING_REGISTRAR_NAME(opType, className, __COUNTER__)( \
        #opType, typeid(className), sizeof(className));
#endif
