// The raw intrinsics below the Ascend C API (cce_intrinsics.h) against scalar references, each
// through the mask register as the kernel set it.
#include <cstring>

#include "twin_fixture.h"

using namespace AscendC;
using ascendopt_twin::testing::TwinCoreTest;

class IntrinsicsTest : public TwinCoreTest {};

namespace {
// A tensor's UB address as kernels pass it to raw intrinsics: GetPhyAddr() is an integer, as
// on the device, cast to a __ubuf__ pointer.
template <class T>
T* addr(const LocalTensor<T>& t) {
    return reinterpret_cast<__ubuf__ T*>(t.GetPhyAddr());
}
}  // namespace

// GetPhyAddr is the device's integer address; its offset form counts elements.
TEST_F(IntrinsicsTest, GetPhyAddrIsAnIntegerAddress) {
    auto s = ub<uint16_t>(256, 0);
    static_assert(std::is_same_v<decltype(s.GetPhyAddr()), uint64_t>);
    EXPECT_EQ(s.GetPhyAddr(3), s.GetPhyAddr() + 3 * sizeof(uint16_t));
    EXPECT_EQ(reinterpret_cast<uint16_t*>(s.GetPhyAddr()), s.data());
}

TEST_F(IntrinsicsTest, VcaddSumsEachRepeatsMaskedLanes) {
    auto src = ub<float>(256, 0), dst = ub<float>(16, 2048);
    for (int i = 0; i < 256; ++i) src.data()[i] = float(i % 13) - 6.0f;
    SetVectorMask<float>(0, 0xFFFF);  // 16 lanes of each 64-lane repeat
    vcadd(addr(dst), addr(src), 4, 1, 1, 8, false);
    for (int r = 0; r < 4; ++r) {
        float want = 0;
        for (int i = 0; i < 16; ++i) want += src.data()[r * 64 + i];
        EXPECT_FLOAT_EQ(dst.data()[r], want) << "repeat " << r;
    }
    SetVectorMask<float>(~0ull, ~0ull);
}

TEST_F(IntrinsicsTest, DupOrAndUbCopyFollowTheirApis) {
    auto a = ub<int16_t>(128, 0), b = ub<int16_t>(128, 512), d = ub<int16_t>(128, 1024);
    SetVectorMask<int16_t>(~0ull, ~0ull);
    vector_dup(addr(a), int16_t(0x0F0F), 1, 1, 1, 8, 8);
    for (int i = 0; i < 128; ++i) b.data()[i] = int16_t(i << 4);
    vor(addr(d), addr(a), addr(b), 1, 1, 1, 1, 8, 8, 8);
    for (int i = 0; i < 128; ++i) ASSERT_EQ(d.data()[i], int16_t(0x0F0F | (i << 4))) << i;
    copy_ubuf_to_ubuf(addr(a), addr(d), 0, 2, 2, 0, 0);  // 2 bursts of 64 bytes
    for (int i = 0; i < 64; ++i) ASSERT_EQ(a.data()[i], d.data()[i]) << i;
}

TEST_F(IntrinsicsTest, TransposesByBlockAndByVaRegisters) {
    auto s = ub<uint16_t>(256, 0), t = ub<uint16_t>(256, 512), u = ub<uint16_t>(256, 1024);
    for (int i = 0; i < 256; ++i) s.data()[i] = uint16_t(i);
    vtranspose(addr(t), addr(s));
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) ASSERT_EQ(t.data()[c * 16 + r], r * 16 + c);
    // The same transpose as TransDataTo5HD with the 16 rows as blocks, addresses in VA0..VA3.
    uint64_t dst_lo[8], dst_hi[8], src_lo[8], src_hi[8];
    for (int i = 0; i < 8; ++i) {
        dst_lo[i] = uint64_t(addr(u) + i * 16);
        dst_hi[i] = uint64_t(addr(u) + (i + 8) * 16);
        src_lo[i] = uint64_t(addr(s) + i * 16);
        src_hi[i] = uint64_t(addr(s) + (i + 8) * 16);
    }
    set_va_reg_sb(VA0, dst_lo);
    set_va_reg_sb(VA1, dst_hi);
    set_va_reg_sb(VA2, src_lo);
    set_va_reg_sb(VA3, src_hi);
    scatter_vnchwconv_b16(VA0, VA2, 1, 0, 0);
    EXPECT_EQ(std::memcmp(u.data(), t.data(), 512), 0);
    EXPECT_TWIN_ERROR(scatter_vnchwconv_b16(VA7, VA2, 1, 0, 0), ascendopt_twin::ErrorKind::run_failed, "VA7 has no successor");
}

TEST_F(IntrinsicsTest, BlockIdxIsTheCallingCoresIndex) {
    const int64_t offset = block_idx * 100;  // as kernels use it: arithmetic on the core's index
    EXPECT_EQ(offset, GetBlockIdx() * 100);
}

// Kernel-library spellings published kernels use without defining them.
TEST_F(IntrinsicsTest, LibrarySpellingsOfKernels) {
    EXPECT_EQ(Ceil(10, 4), 3);
    EXPECT_EQ(Ceil(int64_t(12), 4u), 3);
    ASSERT_MSG(false, "compiled out, as in the device build");

    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    auto t = q.AllocTensor<float>();
    q.EnQue(t);
    q.DeQue();  // untyped: drains the queue
    EXPECT_TWIN_ERROR(q.DeQue(), ascendopt_twin::ErrorKind::run_failed, "DeQue on an empty queue");
    q.FreeTensor(t);

    // DataCopy UB -> UB with DataCopyParams: 3 bursts of 1 block, source gap 1 block, destination gap 0.
    auto src = ub<int32_t>(64, 4096), dst = ub<int32_t>(64, 8192);
    for (int i = 0; i < 64; ++i) src.data()[i] = i, dst.data()[i] = -1;
    DataCopy(dst, src, DataCopyParams(3, 1, 1, 0));
    for (int b = 0; b < 3; ++b)
        for (int i = 0; i < 8; ++i) ASSERT_EQ(dst.data()[b * 8 + i], b * 16 + i) << b << " " << i;
    EXPECT_EQ(dst.data()[24], -1);
}

TEST_F(IntrinsicsTest, ScalarCastTrapAndTheTransposeImpl) {
    EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(2.5f)), 3);
    EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_RINT>(2.5f)), 2);
    EXPECT_EQ((ScalarCast<float, int32_t, RoundMode::CAST_FLOOR>(-1.5f)), -2);
    EXPECT_TWIN_ERROR(Trap(), ascendopt_twin::ErrorKind::run_failed, "Trap");

    auto s = ub<uint16_t>(256, 0), t = ub<uint16_t>(256, 512);
    for (int i = 0; i < 256; ++i) s.data()[i] = uint16_t(i);
    uint16_t* dst[16];
    uint16_t* src[16];
    for (int i = 0; i < 16; ++i) dst[i] = addr(t) + i * 16, src[i] = addr(s) + i * 16;
    TransDataTo5HDImpl(dst, src, TransDataTo5HDParams(false, false, 1, 0, 0));
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 16; ++c) ASSERT_EQ(t.data()[c * 16 + r], r * 16 + c);
}

TEST_F(IntrinsicsTest, ScalarBitcodeValueIsTheScalarsBits) {
    EXPECT_EQ(AscendC::GetScalarBitcodeValue(half(1.0f)), 0x3C00u);
    static_assert(std::is_same_v<decltype(AscendC::GetScalarBitcodeValue(half(1.0f))), uint16_t>);
    EXPECT_EQ(AscendC::GetScalarBitcodeValue(-2.0f), 0xC0000000u);
    EXPECT_EQ(AscendC::GetScalarBitcodeValue(bfloat16_t(1.0f)), 0x3F80u);
    EXPECT_EQ(AscendC::GetScalarBitcodeValue(int32_t(-1)), 0xFFFFFFFFu);
    EXPECT_EQ(AscendC::GetScalarBitcodeValue(int8_t(-2)), 0xFEu);
}

TEST_F(IntrinsicsTest, MaxMinRegisterHoldsTheLastExtremeAndItsIndex) {
    auto src = ub<float>(64, 0), dst = ub<float>(16, 1024), work = ub<float>(64, 2048);
    for (int i = 0; i < 64; ++i) src.data()[i] = float((i * 37) % 64) - 20.0f;  // max 43 at i = 19 (37 * 19 = 63 mod 64)
    ReduceMax(dst, src, work, 64);
    uint64_t reg = get_max_min_cnt();
    float value;
    const uint32_t low = uint32_t(reg);
    std::memcpy(&value, &low, 4);
    EXPECT_EQ(value, 43.0f);
    EXPECT_EQ(reg >> 32, 19u);
    ReduceMin(dst, src, work, 64, true);  // min -20 at i = 0
    reg = get_max_min_cnt();
    const uint32_t low2 = uint32_t(reg);
    std::memcpy(&value, &low2, 4);
    EXPECT_EQ(value, -20.0f);
    EXPECT_EQ(reg >> 32, 0u);
}

TEST_F(IntrinsicsTest, ScalarMinMaxOfTheDeviceCompiler) {
    // Unqualified, as kernels call them; each integer type keeps its own type.
    EXPECT_EQ(min(3, -4), -4);
    EXPECT_EQ(max(3, -4), 3);
    EXPECT_EQ(min(uint64_t(1) << 40, uint64_t(7)), 7u);
    EXPECT_EQ(max(int64_t(-1) << 40, int64_t(-7)), -7);
    static_assert(std::is_same_v<decltype(min(uint16_t(1), uint16_t(2))), unsigned short>);
    EXPECT_EQ(min(uint8_t(200), uint8_t(100)), 100);
}

TEST_F(IntrinsicsTest, AChevronLaunchThatRunsIsAnError) {
    // What the build makes of `kernel<<<blockDim, l2ctrl, stream>>>(x)` in a kernel source.
    int x = 0;
    EXPECT_TWIN_ERROR(::ascendopt_twin::chevron_launch("my_kernel", 8u, nullptr, nullptr)(&x, 1), ascendopt_twin::ErrorKind::run_failed,
                      "my_kernel");
}

// Raw addresses must lie in the core's UB: the intrinsics would otherwise write anywhere.
TEST_F(IntrinsicsTest, AddressesOutsideTheUbAreRefused) {
    uint16_t outside[256] = {};
    auto s = ub<uint16_t>(256, 0);
    EXPECT_TWIN_ERROR(vtranspose(outside, addr(s)), ascendopt_twin::ErrorKind::run_failed, "not in the core's UB");
    EXPECT_TWIN_ERROR(copy_ubuf_to_ubuf(outside, addr(s), 0, 1, 1, 0, 0), ascendopt_twin::ErrorKind::run_failed,
                      "not in the core's UB");
    EXPECT_TWIN_ERROR(vector_dup(addr(s) - 64, uint16_t(1), 1, 1, 1, 8, 8), ascendopt_twin::ErrorKind::run_failed,
                      "not in the core's UB");
}
