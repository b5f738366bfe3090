// The atomic mode of writes to GM (SetAtomicAdd<T>, SetAtomicMax<T>, SetAtomicMin<T>,
// SetAtomicNone): while it is set, what a core writes to GM with DataCopy/DataCopyPad from
// VECOUT, or out of the cube, is added to (or max/min-ed with) what GM holds, element by
// element in type T, atomically across cores. It stays set until the next call on that core.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <type_traits>

#include "ascendopt_twin/kernel/defs.h"
#include "ascendopt_twin/runtime.h"
#include "ascendopt_twin/runtime_gm.h"

namespace ascendopt_twin::detail {

template <class T>
ASCENDOPT_TWIN_FN constexpr AtomicType atomic_type_of() {
    if constexpr (std::is_same_v<T, float>) return AtomicType::f32;
    else if constexpr (std::is_same_v<T, Half>) return AtomicType::f16;
    else if constexpr (std::is_same_v<T, BFloat16>) return AtomicType::bf16;
    else if constexpr (std::is_same_v<T, int32_t>) return AtomicType::i32;
    else if constexpr (std::is_same_v<T, int16_t>) return AtomicType::i16;
    else if constexpr (std::is_same_v<T, int8_t>) return AtomicType::i8;
    else {
        static_assert(std::is_same_v<T, float>, "atomic GM writes support float, half, bfloat16_t, int32_t, int16_t and int8_t");
        return AtomicType::f32;
    }
}

}  // namespace ascendopt_twin::detail

namespace AscendC {

template <class T>
ASCENDOPT_TWIN_FN inline void SetAtomicAdd() {
    ascendopt_twin::set_atomic(ascendopt_twin::AtomicOp::add, ascendopt_twin::detail::atomic_type_of<T>());
}
template <class T>
ASCENDOPT_TWIN_FN inline void SetAtomicMax() {
    ascendopt_twin::set_atomic(ascendopt_twin::AtomicOp::max, ascendopt_twin::detail::atomic_type_of<T>());
}
template <class T>
ASCENDOPT_TWIN_FN inline void SetAtomicMin() {
    ascendopt_twin::set_atomic(ascendopt_twin::AtomicOp::min, ascendopt_twin::detail::atomic_type_of<T>());
}
template <class T>
ASCENDOPT_TWIN_FN inline void SetAtomicType() {
    ascendopt_twin::set_atomic_type(ascendopt_twin::detail::atomic_type_of<T>());
}
ASCENDOPT_TWIN_FN inline void SetAtomicNone() { ascendopt_twin::set_atomic(ascendopt_twin::AtomicOp::none, ascendopt_twin::AtomicType::f32); }

}  // namespace AscendC

// The device compiler's spellings, which kernels call at global scope.
using AscendC::SetAtomicNone;
ASCENDOPT_TWIN_FN inline void set_atomic_none() { AscendC::SetAtomicNone(); }
