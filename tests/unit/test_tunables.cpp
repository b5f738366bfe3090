// Tunables: discovery on unmodified operators, markers, evolve blocks, domains, rewriting.
#include <gtest/gtest.h>

#include <fstream>

#include "eval/build_config.h"
#include "search/tunables.h"
#include "util/files.h"

using namespace ascendopt;

namespace {

const Tunable* find(const std::vector<Tunable>& ts, const std::string& name) {
    for (const auto& t : ts)
        if (t.name == name) return &t;
    return nullptr;
}

struct Folder {
    fs::path dir = *make_temp_dir(fs::temp_directory_path(), "ascendopt-tunables");
    Folder() {
        fs::create_directories(dir / "op_host");
        fs::create_directories(dir / "op_kernel");
    }
    ~Folder() { fs::remove_all(dir); }
    void write(const std::string& rel, const std::string& text) { std::ofstream(dir / rel) << text; }
    // The folder's tunables on a 192 KiB UB.
    Result<std::vector<Tunable>> tunables(std::vector<std::string>* left_out = nullptr) const {
        auto op = load_operator(dir);
        if (!op) return op.error();
        return find_tunables(*op, 196608, left_out);
    }
};

}  // namespace

TEST(Tunables, DiscoveredOnAnUnmodifiedOperator) {
    auto op = load_operator(fs::path(ASCENDOPT_SOURCE_DIR) / "ops" / "exp_custom");
    ASSERT_TRUE(op);
    auto ts = find_tunables(*op, 196608);
    ASSERT_TRUE(ts) << ts.error().message;
    const Tunable* tile = find(*ts, "TILE_BYTES");
    ASSERT_NE(tile, nullptr);
    EXPECT_EQ(tile->where, Tunable::Where::host);
    EXPECT_EQ(tile->value, 16 * 1024);
    EXPECT_EQ(tile->domain, (std::vector<int64_t>{2048, 4096, 8192, 16384, 32768, 65536, 131072}));
    const Tunable* buffers = find(*ts, "BUFFER_NUM");
    ASSERT_NE(buffers, nullptr);
    EXPECT_EQ(buffers->where, Tunable::Where::kernel);
    EXPECT_EQ(buffers->domain, (std::vector<int64_t>{1, 2, 3, 4}));
}

TEST(Tunables, MarkersAndEvolveBlocks) {
    Folder f;
    f.write("op_host/x.cpp",
            "constexpr uint32_t OUTSIDE = 64;\n"
            "// # evolve_tiling_block_start\n"
            "constexpr uint32_t TILE_ELEMS = 2048;\n"
            "// # evolve_tiling_block_end\n"
            "constexpr uint32_t PICKED = 3;  // ascendopt: tunable values=1,3,5\n"
            "static ge::graphStatus TilingFunc(gert::TilingContext* c) {\n  return OUTSIDE + TILE_ELEMS + PICKED;\n}\n");
    f.write("op_kernel/x.cpp", "constexpr int32_t NOT_A_NUMBER = SOME_MACRO;\n");
    auto op = load_operator(f.dir);
    ASSERT_TRUE(op) << op.error().message;
    const OperatorSource& src = *op;
    auto ts = find_tunables(src, 196608);
    ASSERT_TRUE(ts);
    EXPECT_EQ(find(*ts, "OUTSIDE"), nullptr) << "an evolve block limits discovery to its region";
    ASSERT_NE(find(*ts, "TILE_ELEMS"), nullptr);
    ASSERT_NE(find(*ts, "PICKED"), nullptr);
    EXPECT_EQ(find(*ts, "PICKED")->origin, Tunable::Origin::marked);
    EXPECT_EQ(find(*ts, "PICKED")->domain, (std::vector<int64_t>{1, 3, 5}));
    EXPECT_EQ(find(*ts, "NOT_A_NUMBER"), nullptr);

    auto files = apply_config(src, *ts, {{"TILE_ELEMS", 512}});
    ASSERT_TRUE(files);
    const std::string host = files->at("op_host/x.cpp");
    EXPECT_NE(host.find("#include \"ascendopt_twin/host/tunable.h\""), std::string::npos);
    EXPECT_NE(host.find("const uint32_t TILE_ELEMS = ::ascendopt_twin::host::tunable_value(\"TILE_ELEMS\", 2048);"), std::string::npos)
        << host;
    const auto env = host_environment(*ts, {{"TILE_ELEMS", 512}});
    EXPECT_EQ(env.at("ASCENDOPT_TUNE_TILE_ELEMS"), "512");
    EXPECT_EQ(env.at("ASCENDOPT_TUNE_PICKED"), "3");
}

TEST(Tunables, KernelConstantsAreRewritten) {
    auto op = load_operator(fs::path(ASCENDOPT_SOURCE_DIR) / "ops" / "exp_custom");
    auto ts = find_tunables(*op, 196608);
    auto files = apply_config(*op, *ts, {{"BUFFER_NUM", 1}});
    ASSERT_TRUE(files);
    EXPECT_NE(files->at("op_kernel/exp_custom.cpp").find("constexpr int32_t BUFFER_NUM = 1;"), std::string::npos);
}

TEST(Tunables, DefaultDomains) {
    EXPECT_EQ(default_domain("TILE_BYTES", 16384, 65536), (std::vector<int64_t>{2048, 4096, 8192, 16384, 32768, 65536}));
    EXPECT_EQ(default_domain("BUFFER_NUM", 2, 196608), (std::vector<int64_t>{1, 2, 3, 4}));
    EXPECT_EQ(default_domain("TILE_LEN", 3, 1 << 20), (std::vector<int64_t>{1, 3, 6, 12, 24}));
}

TEST(Tunables, SameNameInHostAndKernelIsOneCoupledTunable) {
    auto op = load_operator(fs::path(ASCENDOPT_SOURCE_DIR) / "ops" / "add_custom");
    auto ts = find_tunables(*op, 196608);
    ASSERT_TRUE(ts) << ts.error().message;
    const Tunable* b = find(*ts, "BUFFER_NUM");
    ASSERT_NE(b, nullptr);
    ASSERT_EQ(b->sites.size(), 2u);
    EXPECT_EQ(b->where, Tunable::Where::kernel) << "a kernel site means a rebuild";
    auto files = apply_config(*op, *ts, {{"BUFFER_NUM", 4}});
    ASSERT_TRUE(files);
    EXPECT_NE(files->at("op_kernel/add_custom.cpp").find("BUFFER_NUM = 4;"), std::string::npos);
    EXPECT_NE(files->at("op_host/add_custom.cpp").find("tunable_value(\"BUFFER_NUM\", 2)"), std::string::npos);
    EXPECT_EQ(host_environment(*ts, {{"BUFFER_NUM", 4}}).at("ASCENDOPT_TUNE_BUFFER_NUM"), "4");
}

TEST(Tunables, DisagreeingDeclarationsAreLeftOutWithWhere) {
    Folder f;
    f.write("op_host/x.cpp", "constexpr uint32_t BUFS = 2;\nconstexpr uint32_t TILE = 1024;\nstatic ge::graphStatus TilingFunc(gert::TilingContext* c) {\n  return BUFS + TILE;\n}\n");
    f.write("op_kernel/x.cpp", "constexpr int32_t BUFS = 3;\nconstexpr int32_t BUFS = 3;\n");
    std::vector<std::string> left_out;
    auto ts = f.tunables(&left_out);
    ASSERT_TRUE(ts) << ts.error().message;
    ASSERT_EQ(ts->size(), 1u);
    EXPECT_EQ((*ts)[0].name, "TILE");
    ASSERT_EQ(left_out.size(), 1u);
    EXPECT_NE(left_out[0].find("BUFS is 2 at op_host/x.cpp:1 but 3 at op_kernel/x.cpp:1"), std::string::npos) << left_out[0];
}

// Host values are injected at run time, so a host constant that another line needs at compile
// time (greater_equal's TWO in a constexpr product) is left out, saying where, not broken.
TEST(Tunables, AHostConstantNeededAtCompileTimeIsLeftOut) {
    Folder f;
    f.write("op_host/x.cpp",
            "constexpr uint32_t TWO = 2;\nconstexpr uint32_t TILE = 1024;\nconst uint32_t LANES = 8;\nconst uint32_t DEPTH = 4;\n"
            "static ge::graphStatus TilingFunc(gert::TilingContext* c) {\n"
            "  constexpr uint32_t TWO_TILES = TWO * TILE / TILE;\n"
            "  std::array<int, LANES> lanes{};\n"
            "  return DEPTH + TILE + lanes.size();\n}\n");
    f.write("op_kernel/x.cpp", "void k() {}\n");
    std::vector<std::string> left_out;
    auto ts = f.tunables(&left_out);
    ASSERT_TRUE(ts) << ts.error().message;
    ASSERT_EQ(ts->size(), 1u);
    EXPECT_EQ((*ts)[0].name, "DEPTH");
    ASSERT_EQ(left_out.size(), 3u);
    EXPECT_NE(left_out[0].find("TWO at op_host/x.cpp:1: not tuned (line 6 needs it at compile time"), std::string::npos) << left_out[0];
    EXPECT_NE(left_out[1].find("TILE at op_host/x.cpp:2"), std::string::npos) << left_out[1];
    EXPECT_NE(left_out[2].find("LANES at op_host/x.cpp:3: not tuned (line 7"), std::string::npos) << left_out[2];
}

TEST(Tunables, DisagreeingMarkedDeclarationsAreAnError) {
    Folder f;
    f.write("op_host/x.cpp", "constexpr uint32_t BUFS = 2;  // ascendopt: tunable values=1,2,4\nstatic ge::graphStatus TilingFunc(gert::TilingContext* c) {\n  return BUFS;\n}\n");
    f.write("op_kernel/x.cpp", "constexpr int32_t BUFS = 3;\n");
    auto ts = f.tunables();
    ASSERT_FALSE(ts);
    EXPECT_NE(ts.error().message.find("BUFS is 2 at op_host/x.cpp:1 but 3 at op_kernel/x.cpp:1"), std::string::npos) << ts.error().message;
}

// Only tiling decisions are discovered: an alignment, a data-type size or a hardware block width
// used by the tiling function is left out with its reason; a block count and a marked
// constant stay in (the rule was developed on cann-ops' arange).
TEST(Tunables, ConstantsWithAFixedMeaningAreLeftOutWithTheReason) {
    Folder f;
    f.write("op_host/x.cpp",
            "constexpr uint32_t BLOCK_SIZE = 32;\n"
            "constexpr uint32_t DTYPE_SIZE2 = 2;\n"
            "constexpr uint32_t ALIGN_NUM = 16;\n"
            "constexpr uint32_t BLOCK_NUM = 40;\n"
            "constexpr uint32_t TILE_LENGTH = 4096;\n"
            "constexpr uint32_t TILE_REPEATS = 32;\n"
            "constexpr uint32_t REPEAT_BYTES = 256; // ascendopt: tunable\n"
            "static ge::graphStatus TilingFunc(gert::TilingContext* context) {\n"
            "    uint32_t t = TILE_LENGTH * DTYPE_SIZE2 / BLOCK_SIZE * ALIGN_NUM + REPEAT_BYTES * TILE_REPEATS;\n"
            "    context->SetBlockDim(BLOCK_NUM);\n"
            "    return ge::GRAPH_SUCCESS;\n"
            "}\n");
    f.write("op_kernel/x.cpp", "extern \"C\" __global__ __aicore__ void x(GM_ADDR a) {}\n");
    std::vector<std::string> left_out;
    auto ts = f.tunables(&left_out);
    ASSERT_TRUE(ts) << ts.error().message;
    EXPECT_NE(find(*ts, "TILE_LENGTH"), nullptr);
    EXPECT_NE(find(*ts, "BLOCK_NUM"), nullptr);
    EXPECT_NE(find(*ts, "TILE_REPEATS"), nullptr) << "repeats per tile: a tiling decision";
    EXPECT_NE(find(*ts, "REPEAT_BYTES"), nullptr) << "marked: the user's choice";
    EXPECT_EQ(find(*ts, "TILE_LENGTH")->why, "used by the tiling function");
    for (const char* name : {"BLOCK_SIZE", "DTYPE_SIZE2", "ALIGN_NUM"}) EXPECT_EQ(find(*ts, name), nullptr) << name;
    std::string all;
    for (const auto& l : left_out) all += l + "\n";
    EXPECT_NE(all.find("BLOCK_SIZE at op_host/x.cpp:1: not tuned (a block or repeat width of the hardware"), std::string::npos) << all;
    EXPECT_NE(all.find("DTYPE_SIZE2 at op_host/x.cpp:2: not tuned (the size of a data type)"), std::string::npos) << all;
    EXPECT_NE(all.find("ALIGN_NUM at op_host/x.cpp:3: not tuned (an alignment"), std::string::npos) << all;
}
