// SoftMaxTiling and the temporary-space arithmetic of the SoftMax family, shared by the host
// tiling helpers (ascendopt_twin/host/adv_tiling.h, reached from tiling/tiling_api.h) and the
// kernel APIs (adv_softmax.h). Both sides see one type: the host fills it as a field of its
// tiling data (TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, ...)), SaveToBuffer copies it byte
// for byte, and the kernel reads it as SoftMaxTiling (global, AscendC:: or AscendC::tiling::).
//
// Sizes are those of the Atlas A2 (910B) tiling library: per row of the [m, k] source, in
// floats, with blk = 32 / sizeof(max/sum type):
//   SoftMax / SimpleSoftMax:  blk + k + 64                 (minimum: one row; maximum: m rows)
//   SoftmaxFlashV2:           half source: 2*blk + k + 64,  float source: blk + 64
//                             (basic block, k % 64 == 0 and m % 8 == 0: blk + k + 64 / blk + 64,
//                             128 instead of 64 when k == 1024; minimum 8 rows)
//   SoftmaxGrad:              half: 2*blk + 3*k + 64; float: blk + k + 64 (isFront), 2*blk + k + 64
// The tiling splits m into rows of `splitM` that fit the space given (rounded down to a multiple
// of 8 when the space holds more than 8 rows but not all m). The twin's kernel APIs use these
// sizes to check the temporary buffer; the split itself does not change any result.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "ascendopt_twin/runtime.h"

namespace optiling {

// The documented fields, in the documented order; set_/get_ as the tiling-data classes have.
struct SoftMaxTiling {
#define ASCENDOPT_SOFTMAX_FIELD(name)                                   \
    uint32_t name = 0;                                                  \
    ASCENDOPT_TWIN_FN void set_##name(uint32_t v) { name = v; }        \
    ASCENDOPT_TWIN_FN uint32_t get_##name() const { return name; }
    ASCENDOPT_SOFTMAX_FIELD(srcM)
    ASCENDOPT_SOFTMAX_FIELD(srcK)
    ASCENDOPT_SOFTMAX_FIELD(srcSize)
    ASCENDOPT_SOFTMAX_FIELD(outMaxM)
    ASCENDOPT_SOFTMAX_FIELD(outMaxK)
    ASCENDOPT_SOFTMAX_FIELD(outMaxSize)
    ASCENDOPT_SOFTMAX_FIELD(splitM)
    ASCENDOPT_SOFTMAX_FIELD(splitK)
    ASCENDOPT_SOFTMAX_FIELD(splitSize)
    ASCENDOPT_SOFTMAX_FIELD(reduceM)
    ASCENDOPT_SOFTMAX_FIELD(reduceK)
    ASCENDOPT_SOFTMAX_FIELD(reduceSize)
    ASCENDOPT_SOFTMAX_FIELD(rangeM)
    ASCENDOPT_SOFTMAX_FIELD(tailM)
    ASCENDOPT_SOFTMAX_FIELD(tailSplitSize)
    ASCENDOPT_SOFTMAX_FIELD(tailReduceSize)
#undef ASCENDOPT_SOFTMAX_FIELD

    ASCENDOPT_TWIN_FN void SaveToBuffer(void* buffer, size_t capacity) const {
        if (capacity < sizeof(*this))
            ::ascendopt_twin::fail(::ascendopt_twin::ErrorKind::run_failed, "SoftMaxTiling::SaveToBuffer",
                                   "the buffer holds " + std::to_string(capacity) + " bytes, the tiling needs " +
                                       std::to_string(sizeof(*this)));
        ascendopt_twin::raw_copy(buffer, this, sizeof(*this));
    }
    ASCENDOPT_TWIN_FN size_t GetDataSize() const { return sizeof(*this); }
};
static_assert(sizeof(SoftMaxTiling) == 16 * sizeof(uint32_t), "SoftMaxTiling is 16 plain uint32 fields");

}  // namespace optiling

// Kernels name it unqualified (CANN generates the kernel-side struct at global scope).
using optiling::SoftMaxTiling;

namespace AscendC {

using ::optiling::SoftMaxTiling;
namespace tiling {
using ::optiling::SoftMaxTiling;
}

struct SoftMaxShapeInfo {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
};

enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };

struct SoftmaxConfig {
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};

constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

}  // namespace AscendC

namespace ascendopt_twin::softmax {

constexpr uint32_t k_unit = 64;        // floats of one reduction repeat
constexpr uint32_t k_tile_rows = 8;    // rows of a basic block
constexpr uint32_t k_special_k = 1024; // the basic-block k that needs a second unit

ASCENDOPT_TWIN_FN constexpr uint32_t blk_of(uint32_t type_size) { return type_size ? 32u / type_size : 0u; }

// Floats of temporary space one row needs (see the header comment).
ASCENDOPT_TWIN_FN constexpr uint32_t softmax_row(uint32_t k, uint32_t max_type_size) { return blk_of(max_type_size) + k + k_unit; }

ASCENDOPT_TWIN_FN constexpr bool flash_basic(bool basic, uint32_t m, uint32_t k) {
    return basic && k % k_unit == 0 && m % k_tile_rows == 0;
}
ASCENDOPT_TWIN_FN constexpr uint32_t flash_row(uint32_t k, uint32_t src_size, uint32_t max_size, bool basic_block) {
    const uint32_t blk = blk_of(max_size);
    if (basic_block) {
        const uint32_t unit = k == k_special_k ? 2 * k_unit : k_unit;
        return src_size == 2 ? blk + k + unit : blk + unit;
    }
    return src_size == 2 ? 2 * blk + k + k_unit : blk + k_unit;
}
ASCENDOPT_TWIN_FN constexpr uint32_t grad_row(uint32_t k, uint32_t type_size, bool is_front) {
    const uint32_t blk = blk_of(type_size);
    if (type_size == 2) return 2 * blk + 3 * k + k_unit;
    return is_front ? blk + k + k_unit : 2 * blk + k + k_unit;
}

// Rows per split for `floats` of temporary space, `row` floats per row, m rows.
ASCENDOPT_TWIN_FN constexpr uint32_t split_rows(uint64_t floats, uint32_t row, uint32_t m) {
    uint64_t base = row ? floats / row : 0;
    if (base > m) base = m;
    if (base < m && base > k_tile_rows) base = base / k_tile_rows * k_tile_rows;
    return static_cast<uint32_t>(base);
}

// A basic block split divides m and keeps one repeat-limited instruction (< 255 repeats).
ASCENDOPT_TWIN_FN constexpr uint32_t basic_block_rows(uint32_t base, uint32_t m, uint32_t k) {
    if (base > k_tile_rows && m % k_tile_rows == 0 && k % k_unit == 0) {
        base = base / k_tile_rows * k_tile_rows;
        while (base > 0 && m % base != 0) base -= k_tile_rows;
        while (base > 0 && uint64_t(base) * k >= uint64_t(k_unit) * 256u) base /= 2;
    }
    return base;
}

// Fills every field from the shape, the max/sum element count of one block and the split.
ASCENDOPT_TWIN_FN constexpr SoftMaxTiling make_tiling(uint32_t m, uint32_t k, uint32_t blk, uint32_t split) {
    SoftMaxTiling t;
    t.srcM = m;
    t.srcK = k;
    t.srcSize = m * k;
    t.outMaxM = m;
    t.outMaxK = blk;
    t.outMaxSize = m * blk;
    t.splitM = split;
    t.splitK = k;
    t.splitSize = split * k;
    t.reduceM = split;
    t.reduceK = blk;
    t.reduceSize = split * blk;
    t.rangeM = split ? m / split : 0;
    t.tailM = split ? m % split : 0;
    t.tailSplitSize = t.tailM * k;
    t.tailReduceSize = t.tailM * blk;
    return t;
}

// SoftMax / SimpleSoftMax tiling for `bytes` of temporary space.
ASCENDOPT_TWIN_FN constexpr SoftMaxTiling softmax_tiling(uint32_t m, uint32_t k, uint32_t max_type_size, uint64_t bytes) {
    const uint32_t split = basic_block_rows(split_rows(bytes / 4, softmax_row(k, max_type_size), m), m, k);
    return make_tiling(m, k, blk_of(max_type_size), split);
}

// SoftmaxFlashV2 tiling (src_size: source element size, max_size: max/sum element size).
ASCENDOPT_TWIN_FN constexpr SoftMaxTiling flash_v2_tiling(uint32_t m, uint32_t k, uint32_t src_size, uint32_t max_size,
                                                           uint64_t bytes, bool basic, bool output_brc) {
    const bool bb = flash_basic(basic, m, k);
    uint64_t base = bytes / 4 / flash_row(k, src_size, max_size, bb);
    if (bb) {
        if (base > m) base = m;
        base = basic_block_rows(static_cast<uint32_t>(base), m, k);
    }
    const uint32_t tile = (output_brc && src_size == 2) ? 16u : k_tile_rows;
    if (base > m) base = m;
    if (base < m && base > tile) base = base / tile * tile;
    return make_tiling(m, k, blk_of(max_size), static_cast<uint32_t>(base));
}

// SoftmaxGrad tiling.
ASCENDOPT_TWIN_FN constexpr SoftMaxTiling grad_tiling(uint32_t m, uint32_t k, uint32_t type_size, uint64_t bytes, bool is_front) {
    uint32_t split = split_rows(bytes / 4, grad_row(k, type_size, is_front), m);
    split = basic_block_rows(split, m, k);
    return make_tiling(m, k, blk_of(type_size), split);
}

}  // namespace ascendopt_twin::softmax
