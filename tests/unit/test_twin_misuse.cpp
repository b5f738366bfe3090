// Every misuse the twin promises to catch is reported with the API and the values involved.
#include "twin_fixture.h"

using namespace AscendC;
using ascendopt_twin::ErrorKind;
using ascendopt_twin::testing::TwinCoreTest;

class MisuseTest : public TwinCoreTest {};

// As on the device, InitBuffer hands out UB past its end without complaint (neg and less do, for
// buffers they never use); using such a buffer is the error, and it names the buffer.
TEST_F(MisuseTest, UsingABufferPastTheUbEndIsResourceExceeded) {
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 100000);
    auto first = q.AllocTensor<float>();  // UB bytes 0..99999: inside the UB
    Duplicate(first, 1.0f, 25000);
    auto second = q.AllocTensor<float>();  // UB bytes 100000..199999: past 196608
    EXPECT_TWIN_ERROR(Duplicate(second, 1.0f, 25000), ErrorKind::resource_exceeded, "past the end of the core's 196608-byte UB");
    EXPECT_TWIN_ERROR(Duplicate(second, 1.0f, 25000), ErrorKind::resource_exceeded, "buffer 2 of 2 of the TQue set up by InitBuffer call 1");
    EXPECT_TWIN_ERROR(second.SetValue(24999, 1.0f), ErrorKind::resource_exceeded, "past the end");
    Duplicate(second, 1.0f, 24000);  // still short of the end: allowed
}

TEST_F(MisuseTest, UnusedBuffersPastTheUbEndAreNoError) {
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> a, b;
    TBuf<QuePosition::VECCALC> c;
    pipe.InitBuffer(a, 2, 65536);
    pipe.InitBuffer(b, 1, 32768);
    pipe.InitBuffer(c, 65536);  // 229376 bytes in all
    EXPECT_EQ(pipe.used_bytes(), 229376u);
    auto t = a.AllocTensor<float>();
    Duplicate(t, 2.0f, 16384);
}

TEST_F(MisuseTest, DataCopyLengthMustBeWholeBlocks) {
    auto in = gm<half>(64);
    auto t = ub<half>(64);
    EXPECT_TWIN_ERROR(DataCopy(t, in, 17), ErrorKind::run_failed, "34 bytes is not a multiple of 32");
}

TEST_F(MisuseTest, DataCopyUbAddressMustBeAligned) {
    auto in = gm<float>(64);
    auto t = ub<float>(64, 64);
    EXPECT_TWIN_ERROR(DataCopy(t[3], in, 8), ErrorKind::run_failed, "not 32-byte aligned");
}

// Device allocations end in padding (docs/twin.md, "Device memory"): a copy that runs into it
// proceeds and is noted; one that runs past it into the next tensor fails and names it.
TEST_F(MisuseTest, GmWritesIntoPaddingAreNotedAndIntoTheNextTensorFail) {
    auto out = gm<float>(10);   // 40 bytes, in a 512-byte allocation
    auto next = gm<float>(10);  // allocated right after it
    (void)next;
    auto t = ub<float>(256);
    DataCopy(out, t, 16);  // 24 bytes past the end: padding
    const auto notes = m_gm->padding_notes();
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0].tensor, "buf0");
    EXPECT_TRUE(notes[0].write);
    EXPECT_EQ(notes[0].bytes_past_end, 24u);
    DataCopy(out, t, 128);  // up to the allocation's end (512 bytes): still padding
    EXPECT_TWIN_ERROR(DataCopy(out, t, 136), ErrorKind::run_failed, "into tensor 'buf1'");
}

// An offset that lands wholly inside the next tensor is that tensor's memory too: every access
// through a GlobalTensor stays in the allocation SetGlobalBuffer placed it in, and GetValue,
// SetValue and both copy directions say which tensor the access would reach.
TEST_F(MisuseTest, AGlobalTensorOffsetIntoTheNextTensorFails) {
    auto out = gm<float>(10);   // a 512-byte allocation: elements 0..127
    auto next = gm<float>(64);  // allocated right after it
    auto t = ub<float>(256);
    DataCopy(out[120], t, 8);  // the last 32 bytes of the allocation: padding
    EXPECT_TWIN_ERROR(DataCopy(out[128], t, 8), ErrorKind::run_failed, "into tensor 'buf1'");
    EXPECT_TWIN_ERROR(DataCopy(t, out[136], 8), ErrorKind::run_failed, "into tensor 'buf1'");
    EXPECT_TWIN_ERROR(out.SetValue(130, 1.0f), ErrorKind::run_failed, "into tensor 'buf1'");
    EXPECT_TWIN_ERROR((void)out.GetValue(130), ErrorKind::run_failed, "into tensor 'buf1'");
    DataCopy(next, t, 64);  // the same memory through its own tensor
    EXPECT_EQ(next.GetValue(2), t.GetValue(2));
}

TEST_F(MisuseTest, StrictGmFailsWritesPastTheEnd) {
    m_core.reset();
    m_gm = std::make_unique<ascendopt_twin::GmSpace>(64u << 20, ascendopt_twin::GmLayout::strict);
    m_core = std::make_unique<ascendopt_twin::CoreScope>(*m_soc, 0, 1, 0, m_gm.get());
    auto out = gm<float>(10);
    auto t = ub<float>(16);
    EXPECT_TWIN_ERROR(DataCopy(out, t, 16), ErrorKind::run_failed, "24 bytes past its end");
}

// Past a tensor's buffer but inside the UB the device reads or overwrites the next buffer: the
// twin lets it (and notes it), unless --strict-ub.
TEST_F(MisuseTest, UbAccessPastTheBufferIsNotedOrStrictlyAnError) {
    auto t = ub<float>(16);
    t.SetValue(20, 5.0f);
    EXPECT_EQ(t.GetValue(20), 5.0f);
    auto d = ub<float>(16, 1024);
    Add(d, t, t, 17);
    const auto overruns = m_core->ub_overruns();
    ASSERT_FALSE(overruns.empty());
    strict_ub();
    auto s = ub<float>(16);
    EXPECT_TWIN_ERROR(s.GetValue(16), ErrorKind::run_failed, "--strict-ub");
    EXPECT_TWIN_ERROR(s.SetValue(99, 1.0f), ErrorKind::run_failed, "covers 4 bytes");
    auto e = ub<float>(16, 1024);
    EXPECT_TWIN_ERROR(Add(e, s, s, 17), ErrorKind::run_failed, "covers 68 bytes");
    EXPECT_TWIN_ERROR(Add(e, s, s, 64, 2, BinaryRepeatParams()), ErrorKind::run_failed, "covers 512 bytes");
}

// TBuf::Get(count) gives a tensor of `count` elements whose buffer is the whole TBuf: arange
// Casts eight floats through Get<float>(0), which the device allows; a count past the buffer
// is checked where the kernel accesses it.
TEST_F(MisuseTest, TBufGetCountKeepsTheWholeBuffer) {
    strict_ub();
    TPipe pipe;
    TBuf<QuePosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8);  // 32 bytes
    auto none = buf.Get<float>(0);
    EXPECT_EQ(none.GetSize(), 0u);
    Duplicate(none, 3.0f, 8);
    EXPECT_EQ(buf.Get<float>().GetValue(7), 3.0f);
    EXPECT_TWIN_ERROR(Duplicate(none, 3.0f, 9), ErrorKind::run_failed, "buffer 1 of 1 of the TBuf");
    // More elements than the buffer holds: Get itself is unchecked, as on the device; an access
    // past the buffer is the overrun (an error here, under --strict-ub).
    auto more = buf.Get<float>(16);
    EXPECT_EQ(more.GetSize(), 16u);
    Duplicate(more, 1.0f, 8);
    EXPECT_TWIN_ERROR(Duplicate(more, 1.0f, 16), ErrorKind::run_failed, "--strict-ub");
}

TEST_F(MisuseTest, QueueMisuse) {
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q, other;
    pipe.InitBuffer(q, 2, 1024);
    pipe.InitBuffer(other, 1, 1024);
    EXPECT_TWIN_ERROR(q.DeQue<float>(), ErrorKind::run_failed, "DeQue on an empty queue");
    auto a = q.AllocTensor<float>();
    auto b = q.AllocTensor<float>();
    EXPECT_TWIN_ERROR(q.AllocTensor<float>(), ErrorKind::run_failed, "all 2 buffers of this queue are in use");
    q.FreeTensor(a);
    EXPECT_TWIN_ERROR(q.FreeTensor(a), ErrorKind::run_failed, "double FreeTensor");
    auto foreign = other.AllocTensor<float>();
    EXPECT_TWIN_ERROR(q.EnQue(foreign), ErrorKind::run_failed, "does not start a buffer of this queue");
    EXPECT_TWIN_ERROR(q.FreeTensor(foreign), ErrorKind::run_failed, "does not start a buffer of this queue");
    q.EnQue(b);
    EXPECT_TWIN_ERROR(q.EnQue(b), ErrorKind::run_failed, "is in the queue already");
    auto c = q.DeQue<float>();
    EXPECT_EQ(c.data(), b.data());
}

// InitBuffer(que, n, 0) is legal on the device (trunc's tiling asks for it): the buffers all start
// at one offset, and the queue still hands them out and takes them back one by one.
TEST_F(MisuseTest, ZeroLengthQueueBuffers) {
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 0);
    auto a = q.AllocTensor<float>();
    auto b = q.AllocTensor<float>();
    EXPECT_EQ(a.data(), b.data());
    q.EnQue(a);
    auto c = q.DeQue<float>();
    q.FreeTensor(c);
    q.FreeTensor(b);
    EXPECT_TWIN_ERROR(q.FreeTensor(b), ErrorKind::run_failed, "double FreeTensor");
}

TEST_F(MisuseTest, QueueUsedBeforeInitBuffer) {
    TQue<QuePosition::VECIN, 1> q;
    EXPECT_TWIN_ERROR(q.AllocTensor<float>(), ErrorKind::run_failed, "before TPipe::InitBuffer");
}

TEST_F(MisuseTest, MaskOutOfRange) {
    auto t = ub<float>(256);
    EXPECT_TWIN_ERROR(Adds(t, t, 1.0f, 65, 1, UnaryRepeatParams()), ErrorKind::run_failed, "mask 65 must be 1..64");
}

// TPipe::Init (re)initializes a pipe: first use after construction, or after Destroy; it makes
// the pipe the core's (GetTPipePtr) and its buffers start over. Init over live buffers is refused.
TEST_F(MisuseTest, TPipeInitAfterDestroyStartsOverAndNotBefore) {
    TPipe first;
    TPipe second;  // constructed last: the core's pipe now
    EXPECT_EQ(GetTPipePtr(), &second);
    first.Init();
    EXPECT_EQ(GetTPipePtr(), &first);
    TBuf<QuePosition::VECCALC> a, b;
    first.InitBuffer(a, 1024);
    EXPECT_EQ(first.used_bytes(), 1024u);
    EXPECT_TWIN_ERROR(first.Init(), ErrorKind::run_failed, "1024 bytes of UB are still set up");
    first.Destroy();
    first.Init();
    first.InitBuffer(b, 512);
    EXPECT_EQ(first.used_bytes(), 512u);
    EXPECT_EQ(b.Get<float>().GetPhyAddr(), a.Get<float>().GetPhyAddr()) << "the second setup starts at the UB's start again";
}

// EnQue/DeQue with the logical positions named (feeds_repeat's VECIN -> VECOUT TQueBind) are the
// same hand-off, with the same checks.
TEST_F(MisuseTest, EnQueAndDeQueNamingPositionsAreTheSameHandOff) {
    TPipe pipe;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 256);
    auto t = q.AllocTensor<float>();
    Duplicate(t, 3.0f, 64);
    EXPECT_TRUE((q.EnQue<QuePosition::VECIN, QuePosition::VECOUT, float>(t)));
    EXPECT_EQ(q.GetTensorCountInQue(), 1);
    auto back = q.DeQue<QuePosition::VECIN, QuePosition::VECOUT, float>();
    EXPECT_EQ(back.GetPhyAddr(), t.GetPhyAddr());
    EXPECT_EQ(back.GetValue(63), 3.0f);
    EXPECT_TWIN_ERROR((q.DeQue<QuePosition::VECIN, QuePosition::VECOUT, float>()), ErrorKind::run_failed, "DeQue on an empty queue");
    q.FreeTensor(back);
}

// A TQue configured by a TQueConfig (mse_loss_grad_v2) works as the plain queue; one that asks
// for a format conversion is refused at compile time (checked here on the trait).
namespace {
constexpr TQueConfig k_plain_config = {false, false, false, 0, 1, 0, {TPosition::MAX}};
constexpr TQueConfig k_nd2nz_config = {true, false, false, 0, 1, 0, {}};
}  // namespace
TEST_F(MisuseTest, TQueWithATQueConfigIsThePlainQueue) {
    static_assert(!ascendopt_twin::detail::queue_converts_format<&k_plain_config>());
    static_assert(ascendopt_twin::detail::queue_converts_format<&k_nd2nz_config>());
    static_assert(ascendopt_twin::detail::queue_converts_format<2>() && !ascendopt_twin::detail::queue_converts_format<0>());
    TPipe pipe;
    TQue<QuePosition::VECIN, 1, &k_plain_config> q;
    pipe.InitBuffer(q, 2, 128);
    auto a = q.AllocTensor<half>();
    auto b = q.AllocTensor<half>();
    EXPECT_NE(a.GetPhyAddr(), b.GetPhyAddr());
    EXPECT_TWIN_ERROR(q.AllocTensor<half>(), ErrorKind::run_failed, "AllocTensor");
    q.EnQue(a);
    EXPECT_EQ(q.DeQue<half>().GetPhyAddr(), a.GetPhyAddr());
}

// int4b_t packs two elements per byte, which the twin's tensors do not model: kernels that name
// the int4 path compile (ascend_quant_v2, group_quant), and a Cast that reaches it fails.
TEST_F(MisuseTest, CastToOrFromInt4IsNotModelled) {
    auto src = ub<half>(64, 0);
    auto bytes = ub<int8_t>(64, 1024);
    EXPECT_TWIN_ERROR(Cast(bytes.ReinterpretCast<int4b_t>(), src, RoundMode::CAST_RINT, 64), ErrorKind::run_failed,
                      "int4b_t (two 4-bit elements per byte) is not modelled");
    EXPECT_TWIN_ERROR(Cast(src, bytes.ReinterpretCast<int4b_t>(), RoundMode::CAST_NONE, 64), ErrorKind::run_failed, "Cast");
}
