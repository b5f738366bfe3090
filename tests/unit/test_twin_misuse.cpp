// Every misuse the twin promises to catch is reported with the API and the values involved.
#include "twin_fixture.h"

using namespace AscendC;
using ascendopt_twin::ErrorKind;
using ascendopt_twin::testing::TwinCoreTest;

class MisuseTest : public TwinCoreTest {};

TEST_F(MisuseTest, UbOverflowIsResourceExceeded) {
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> q;
    EXPECT_TWIN_ERROR(pipe.InitBuffer(q, 2, 100000), ErrorKind::resource_exceeded, "196608");
}

TEST_F(MisuseTest, UbOverflowAcrossSeveralBuffers) {
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> a, b;
    TBuf<QuePosition::VECCALC> c;
    pipe.InitBuffer(a, 2, 65536);
    pipe.InitBuffer(b, 1, 32768);
    EXPECT_TWIN_ERROR(pipe.InitBuffer(c, 65536), ErrorKind::resource_exceeded, "needs 229376 bytes");
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

TEST_F(MisuseTest, DataCopyWritePastGmEndIsCaught) {
    auto out = gm<float>(10);
    auto t = ub<float>(16);
    EXPECT_TWIN_ERROR(DataCopy(out, t, 16), ErrorKind::run_failed, "24 bytes past its end");
}

TEST_F(MisuseTest, OutOfRangeTensorAccess) {
    auto t = ub<float>(16);
    EXPECT_TWIN_ERROR(t.GetValue(16), ErrorKind::run_failed, "index 16 is out of range of a tensor of 16");
    EXPECT_TWIN_ERROR(t.SetValue(99, 1.0f), ErrorKind::run_failed, "index 99");
    auto d = ub<float>(16, 1024);
    EXPECT_TWIN_ERROR(Add(d, t, t, 17), ErrorKind::run_failed, "count 17 exceeds the 16 elements");
    EXPECT_TWIN_ERROR(Add(d, t, t, 64, 2, BinaryRepeatParams()), ErrorKind::run_failed, "reach element 127");
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
    auto c = q.DeQue<float>();
    EXPECT_EQ(c.data(), b.data());
}

TEST_F(MisuseTest, QueueUsedBeforeInitBuffer) {
    TQue<QuePosition::VECIN, 1> q;
    EXPECT_TWIN_ERROR(q.AllocTensor<float>(), ErrorKind::run_failed, "before TPipe::InitBuffer");
}

TEST_F(MisuseTest, MaskOutOfRange) {
    auto t = ub<float>(256);
    EXPECT_TWIN_ERROR(Adds(t, t, 1.0f, 65, 1, UnaryRepeatParams()), ErrorKind::run_failed, "mask 65 must be 1..64");
}
