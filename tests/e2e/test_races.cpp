// The hazard checker end to end (docs/twin.md "Races"): a kernel that orders its pipes with
// explicit flags passes; dropping any one of them is a `race` failure (--races=fail) naming both
// instructions at their source lines and the flag that is missing; by default (--races=note) it
// is reported without failing.
#include "cli_runner.h"

using namespace ascendopt::e2e;

namespace {

// add_custom's computation on TBufs, every hand-off between pipes an explicit flag pair that a
// test can drop: x is loaded (MTE2), summed in place (V) with y and a scalar-written zero
// block s (S), read back by the scalar unit, and copied out (MTE3) before the next tile's load
// reuses x.
constexpr const char* k_kernel = R"(#include "kernel_operator.h"
using namespace AscendC;

#define SYNC_MTE2_V 1
#define SYNC_S_V 1
#define SYNC_V_S 1
#define SYNC_V_MTE3 1
#define SYNC_MTE3_MTE2 1

template <HardEvent event, bool on>
__aicore__ inline void Order()
{
    if constexpr (on) {
        SetFlag<event>(EVENT_ID0);
        WaitFlag<event>(EVENT_ID0);
    }
}

class KernelAddSynced {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddCustomTilingData& t)
    {
        const uint32_t idx = GetBlockIdx();
        const uint32_t blocks = t.blocksPerCore + (idx < t.bigCoreNum ? 1 : 0);
        const uint32_t firstBlock = idx * t.blocksPerCore + (idx < t.bigCoreNum ? idx : t.bigCoreNum);
        const uint32_t start = firstBlock * t.elemsPerBlock;
        length = blocks * t.elemsPerBlock;
        if (start + length > t.totalLength) length = t.totalLength - start;
        tileLength = t.tileLength;
        elemsPerBlock = t.elemsPerBlock;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X*)x + start, length);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y*)y + start, length);
        zGm.SetGlobalBuffer((__gm__ DTYPE_Z*)z + start, length);
        pipe.InitBuffer(xBuf, tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(yBuf, tileLength * sizeof(DTYPE_Y));
        pipe.InitBuffer(sBuf, 32);
    }
    __aicore__ inline void Process()
    {
        LocalTensor<DTYPE_X> xLocal = xBuf.Get<DTYPE_X>();
        LocalTensor<DTYPE_Y> yLocal = yBuf.Get<DTYPE_Y>();
        LocalTensor<DTYPE_X> sLocal = sBuf.Get<DTYPE_X>();
        Duplicate(sLocal, static_cast<DTYPE_X>(0), static_cast<int32_t>(32 / sizeof(DTYPE_X)));
        Order<HardEvent::V_S, true>();
        for (uint32_t offset = 0; offset < length; offset += tileLength) {
            const uint32_t count = length - offset < tileLength ? length - offset : tileLength;
            const uint32_t aligned = (count + elemsPerBlock - 1) / elemsPerBlock * elemsPerBlock;
            DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(DTYPE_X)), 0, 0, 0};
            DataCopyPad(xLocal, xGm[offset], params, DataCopyPadExtParams<DTYPE_X>{false, 0, 0, 0});
            DataCopyPad(yLocal, yGm[offset], params, DataCopyPadExtParams<DTYPE_Y>{false, 0, 0, 0});
            sLocal.SetValue(0, static_cast<DTYPE_X>(0));
            Order<HardEvent::MTE2_V, SYNC_MTE2_V>();
            Order<HardEvent::S_V, SYNC_S_V>();
            Add(xLocal, xLocal, yLocal, aligned);
            Add(xLocal, xLocal, sLocal, static_cast<int32_t>(elemsPerBlock));
            Order<HardEvent::V_S, SYNC_V_S>();
            probe = probe + static_cast<float>(xLocal.GetValue(0));
            Order<HardEvent::V_MTE2, true>();  // y may be reloaded
            Order<HardEvent::V_MTE3, SYNC_V_MTE3>();
            DataCopyPad(zGm[offset], xLocal, params);
            Order<HardEvent::MTE3_MTE2, SYNC_MTE3_MTE2>();
        }
    }

private:
    TPipe pipe;
    TBuf<QuePosition::VECCALC> xBuf, yBuf, sBuf;
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    GlobalTensor<DTYPE_Z> zGm;
    uint32_t length = 0;
    uint32_t tileLength = 0;
    uint32_t elemsPerBlock = 0;
    float probe = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAddSynced op;
    op.Init(x, y, z, tilingData);
    op.Process();
}
)";

constexpr const char* k_case = "Test_AddCustom_multi_tile[float16]";

struct Dropped {
    const char* flag;     // the macro set to 0
    const char* earlier;  // what the reason says of the first instruction
    const char* later;    // ... and of the second
    const char* event;    // the flag it asks for
};

nlohmann::json first_case(const ascendopt::ProcessResult& r) {
    const auto doc = json_of(r);
    return doc.is_object() && doc.contains("cases") && !doc["cases"].empty() ? doc["cases"][0] : nlohmann::json();
}

}  // namespace

TEST(Races, TheSynchronisedKernelHasNone) {
    OperatorCopy op("add_custom");
    op.write("op_kernel/add_custom.cpp", k_kernel);
    op.edit("op_host/add_custom.cpp", "tiling.set_tileLength(tileLength > 8192 ? 8192 : tileLength);", "tiling.set_tileLength(256);");
    const auto r = run_cli({"eval", op.dir().string(), "--races", "fail"});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output.find("race"), std::string::npos) << r.output;
}

class DroppedFlag : public ::testing::TestWithParam<Dropped> {};

TEST_P(DroppedFlag, IsARaceAtBothSourceLines) {
    const Dropped& d = GetParam();
    OperatorCopy op("add_custom");
    op.write("op_kernel/add_custom.cpp", k_kernel);
    op.edit("op_kernel/add_custom.cpp", std::string("#define ") + d.flag + " 1", std::string("#define ") + d.flag + " 0");
    // Small tiles: every core runs several, so a buffer is reused (MTE3 -> MTE2 needs that).
    op.edit("op_host/add_custom.cpp", "tiling.set_tileLength(tileLength > 8192 ? 8192 : tileLength);", "tiling.set_tileLength(256);");
    const auto r = run_cli({"eval", op.dir().string(), "--case", k_case, "--races", "fail", "--json", "-q"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    const auto c = first_case(r);
    ASSERT_TRUE(c.is_object()) << r.output;
    EXPECT_EQ(c.value("status", ""), "race") << r.output;
    const std::string reason = c.value("reason", "");
    EXPECT_NE(reason.find(d.earlier), std::string::npos) << reason;
    EXPECT_NE(reason.find(d.later), std::string::npos) << reason;
    EXPECT_NE(reason.find(d.event), std::string::npos) << reason;
    EXPECT_NE(reason.find("op_kernel/add_custom.cpp:"), std::string::npos) << reason;
    EXPECT_NE(reason.find("TBuf set up by InitBuffer call"), std::string::npos) << reason;

    // Reported, not failed, by default (--races=note).
    const auto noted = run_cli({"eval", op.dir().string(), "--case", k_case});
    EXPECT_EQ(noted.exit_code, 0) << noted.output;
    EXPECT_NE(noted.output.find("race: "), std::string::npos) << noted.output;
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, DroppedFlag,
    ::testing::Values(Dropped{"SYNC_MTE2_V", "MTE2 writes UB", "V reads them", "HardEvent::MTE2_V"},
                      Dropped{"SYNC_S_V", "S writes UB", "V reads them", "HardEvent::S_V"},
                      Dropped{"SYNC_V_S", "V writes UB", "S reads them", "HardEvent::V_S"},
                      Dropped{"SYNC_V_MTE3", "V writes UB", "MTE3 reads them", "HardEvent::V_MTE3"},
                      Dropped{"SYNC_MTE3_MTE2", "MTE3 reads UB", "MTE2 then overwrites them", "HardEvent::MTE3_MTE2"}),
    [](const auto& info) { return std::string(info.param.flag); });

TEST(Races, OffRunsWithoutTheChecker) {
    OperatorCopy op("add_custom");
    op.write("op_kernel/add_custom.cpp", k_kernel);
    op.edit("op_kernel/add_custom.cpp", "#define SYNC_V_MTE3 1", "#define SYNC_V_MTE3 0");
    const auto r = run_cli({"eval", op.dir().string(), "--case", k_case, "--races", "off"});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_EQ(r.output.find("race"), std::string::npos) << r.output;
}
