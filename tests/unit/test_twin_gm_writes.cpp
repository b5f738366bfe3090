// GM writes under the atomic mode, the system and user workspace, and the tensor lists of
// dynamic parameters: the GM side of the twin runtime that kernels see.
#include <thread>

#include "twin_fixture.h"

using namespace AscendC;
using ascendopt_twin::testing::TwinCoreTest;

class GmWriteTest : public TwinCoreTest {
protected:
    void TearDown() override {
        SetAtomicNone();
        TwinCoreTest::TearDown();
    }
};

TEST_F(GmWriteTest, AtomicAddAccumulatesUntilSetAtomicNone) {
    float* host = nullptr;
    auto out = gm<float>(16, &host);
    for (int i = 0; i < 16; ++i) host[i] = 1.0f;
    auto t = ub<float>(16);
    for (int i = 0; i < 16; ++i) t.data()[i] = float(i);
    SetAtomicAdd<float>();
    DataCopy(out, t, 8);
    DataCopy(out, t, 8);
    EXPECT_EQ(host[3], 1.0f + 3.0f + 3.0f);
    EXPECT_EQ(host[9], 1.0f) << "only what was written is combined";
    SetAtomicNone();
    DataCopy(out, t, 8);
    EXPECT_EQ(host[3], 3.0f) << "SetAtomicNone: a plain copy again";
}

TEST_F(GmWriteTest, AtomicMaxAndMinCombineInTheirType) {
    int32_t* host = nullptr;
    auto out = gm<int32_t>(8, &host);
    for (int i = 0; i < 8; ++i) host[i] = 4;
    auto t = ub<int32_t>(8);
    for (int i = 0; i < 8; ++i) t.data()[i] = i;
    SetAtomicMax<int32_t>();
    DataCopy(out, t, 8);
    EXPECT_EQ(host[2], 4);
    EXPECT_EQ(host[6], 6);
    SetAtomicMin<int32_t>();
    DataCopy(out, t, 8);
    EXPECT_EQ(host[2], 2);
    EXPECT_EQ(host[6], 6);
}

// 16-bit floats add in float and round once on the store, as every 16-bit result does.
TEST_F(GmWriteTest, AtomicAddOfHalfRoundsOnce) {
    half* host = nullptr;
    auto out = gm<half>(16, &host);
    for (int i = 0; i < 16; ++i) host[i] = half(2048.0f);
    auto t = ub<half>(16);
    for (int i = 0; i < 16; ++i) t.data()[i] = half(1.0f);
    SetAtomicAdd<half>();
    DataCopy(out, t, 16);
    EXPECT_EQ(float(host[0]), 2048.0f) << "2049 is not a half: ties round to even";
}

TEST_F(GmWriteTest, AtomicPadWritesCombineOnlyTheirBytes) {
    float* host = nullptr;
    auto out = gm<float>(16, &host);
    for (int i = 0; i < 16; ++i) host[i] = 10.0f;
    auto t = ub<float>(16);
    for (int i = 0; i < 16; ++i) t.data()[i] = 1.0f;
    SetAtomicAdd<float>();
    DataCopyPad(out, t, DataCopyExtParams(1, 3 * sizeof(float), 0, 0, 0));
    EXPECT_EQ(host[2], 11.0f);
    EXPECT_EQ(host[3], 10.0f);
}

// Blocks on threads of their own add into one GM element: the sum is exact, as on the device.
TEST_F(GmWriteTest, AtomicAddIsAtomicAcrossCores) {
    int32_t* host = nullptr;
    auto out = gm<int32_t>(8, &host);
    for (int i = 0; i < 8; ++i) host[i] = 0;
    std::vector<std::thread> blocks;
    for (int b = 0; b < 8; ++b)
        blocks.emplace_back([&, b] {
            ascendopt_twin::CoreScope core(*m_soc, b, 8, 0, m_gm.get());
            auto t = AscendC::LocalTensor<int32_t>(reinterpret_cast<int32_t*>(ascendopt_twin::ub_base()), 8);
            for (int i = 0; i < 8; ++i) t.data()[i] = 1;
            SetAtomicAdd<int32_t>();
            for (int k = 0; k < 200; ++k) DataCopy(out, t, 8);
        });
    for (auto& t : blocks) t.join();
    EXPECT_EQ(host[5], 8 * 200);
}

TEST_F(GmWriteTest, UserWorkspaceFollowsTheSystemWorkspace) {
    uint8_t* ws = m_gm->add("workspace", ascendopt_twin::k_sys_workspace_bytes + 64);
    ascendopt_twin::set_launch_sys_workspace(ws);
    EXPECT_EQ(GetSysWorkSpacePtr(), ws);
    EXPECT_EQ(GetUserWorkspace(ws), ws + 16 * 1024 * 1024);
    uint8_t other = 0;
    SetSysWorkspace(&other);
    EXPECT_EQ(GetSysWorkSpacePtr(), &other) << "SetSysWorkspace names another for this core";
    SetSysWorkspace(nullptr);
    ascendopt_twin::set_launch_sys_workspace(nullptr);
}

// The layout ListTensorDesc decodes: pointer-table offset, per tensor (index << 32 | dims) and
// its dims, then the data pointers.
TEST(TensorList, WordsDescribeEveryTensorThenPointTo) {
    const auto w = ascendopt_twin::tensor_list_words({{4, 8}, {33}}, {0x1000, 0x2000});
    const std::vector<uint64_t> expected = {8 * 6, (0ull << 32) | 2, 4, 8, (1ull << 32) | 1, 33, 0x1000, 0x2000};
    EXPECT_EQ(w, expected);
    const auto scalars = ascendopt_twin::tensor_list_words({{}, {}, {}}, {1, 2, 3});
    const std::vector<uint64_t> pointer_only = {24, 3ull << 32, 0xffffffffull, 1, 2, 3};
    EXPECT_EQ(scalars, pointer_only);
}
