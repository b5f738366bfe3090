// Constructs of published cann-ops operators, each reproduced by a small kernel of our own
// (tests/ops/, or an edit of a bundled operator), so that `make test` covers them without a
// cann-ops checkout: what the device allows runs as it does there, and what fails says where.
#include "cli_runner.h"

using namespace ascendopt::e2e;

namespace {

constexpr const char* k_ragged_f32 = "Test_AddCustom_ragged[float32]";  // [3, 333]: 999 elements

// add_custom moving its ragged tail with DataCopy of whole 32-byte blocks, as many published
// kernels do, instead of DataCopyPad.
void copy_whole_blocks(OperatorCopy& op) {
    op.edit("op_kernel/add_custom.cpp", "        DataCopyPad(xLocal, xGm[offset], params, padX);\n        DataCopyPad(yLocal, yGm[offset], params, padY);",
            "        DataCopy(xLocal, xGm[offset], Aligned(count));\n        DataCopy(yLocal, yGm[offset], Aligned(count));");
    op.edit("op_kernel/add_custom.cpp", "        DataCopyPad(zGm[offset], zLocal, params);", "        DataCopy(zGm[offset], zLocal, Aligned(count));");
}

}  // namespace

// Eye's constructs: y is input and output at once and arrives zero-filled, a list attribute
// read with GetInt and GetListInt, GetAttrPointer<uint32_t>, IMPL_OP_OPTILING/INFERSHAPE, and
// in the kernel extern"C", float16_t, constexpr half, TQueSync, TBuf Alloc/FreeTensor,
// unqualified GetBlockNum() and pipe_barrier(PIPE_ALL) in macros, AscendC::printf.
TEST(WildConstructs, EyeLikeOperatorRuns) {
    OperatorCopy op("wild_eye", "tests/ops");
    auto r = run_cli({"eval", op.dir().string()});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("6 of 6 cases passed"), std::string::npos) << r.output;

    // Without the zero fill the reference tensor keeps the generated data: the check can fail.
    op.edit("ascendopt.toml", "attrs = { num_rows = 5 }\n[case.tensors.y]\nvalues = [0]\n", "attrs = { num_rows = 5 }\n");
    r = run_cli({"eval", op.dir().string(), "--case", "square[float32]"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("wrong_result"), std::string::npos) << r.output;
}

// Build-side forms of published operators: END_TILING_DATA_DEF without its semicolon
// (embedding_dense_grad_v2), a function defined in a header that two host sources include
// (gelu_quant's GetMod: CANN builds them into separate libraries), and a host-side launch
// wrapper with <<<>>> in the kernel source (add_layer_norm_grad's *_do).
TEST(WildConstructs, TilingDeclarationsSharedHostHelpersAndLaunchWrappersBuild) {
    OperatorCopy op("wild_eye", "tests/ops");
    op.edit("op_host/wild_eye_tiling.h", "END_TILING_DATA_DEF;", "END_TILING_DATA_DEF");
    op.write("op_host/wild_eye_helpers.h",
             "#pragma once\n#include <cstdint>\nint64_t WildEyeMod(const int64_t l, const int64_t r) { return r == 0 ? l : l % r; }\n");
    op.edit("op_host/wild_eye.cpp", "#include \"wild_eye_tiling.h\"", "#include \"wild_eye_tiling.h\"\n#include \"wild_eye_helpers.h\"");
    op.write("op_host/wild_eye_extra.cpp", "#include \"wild_eye_helpers.h\"\nint64_t WildEyeModTwice(int64_t a) { return WildEyeMod(a, 7) * 2; }\n");
    op.write("op_kernel/wild_eye.cpp", *ascendopt::read_text(op.dir() / "op_kernel/wild_eye.cpp") +
                                           "\n#ifndef __CCE_KT_TEST__\nvoid wild_eye_do(uint32_t blockDim, void* l2ctrl, void* stream, uint8_t* y, uint8_t* y_ref,\n"
                                           "                 uint8_t* workspace, uint8_t* tiling) {\n"
                                           "    wild_eye<<<blockDim, l2ctrl, stream>>>(y, y_ref,\n        workspace, tiling);\n}\n#endif\n");
    const auto r = run_cli({"eval", op.dir().string()});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("6 of 6 cases passed"), std::string::npos) << r.output;
}

// complex64 tensors (ge::DT_COMPLEX64, a complex64 case dtype and golden) and an input whose
// values the tiling reads through gert::Tensor::GetData (ValueDepend).
TEST(WildConstructs, ComplexAndValueDependentInputs) {
    OperatorCopy op("complex_abs", "tests/ops");
    const auto r = run_cli({"eval", op.dir().string()});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("3 of 3 cases passed"), std::string::npos) << r.output;
}

// Dynamic (list) input and output, an optional input left out or given, TilingParse compile
// info and InputsDataDependency (list_scale_add); then, edited in: a kernel that chooses its
// code by `#if ORIG_DTYPE_X == DT_FLOAT` (CANN's DT_* are macros) and copies from a constant
// table of its own in GM (`constexpr static __gm__`), as lin_space does.
TEST(WildConstructs, ListsDtypeMacrosAndTheKernelsOwnGmTables) {
    OperatorCopy op("list_scale_add", "tests/ops");
    auto r = run_cli({"eval", op.dir().string()});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("7 of 7 cases passed"), std::string::npos) << r.output;

    const std::string kernel = "op_kernel/list_scale_add.cpp";
    op.edit(kernel, "constexpr uint32_t TILE = 2048;\n",
            "constexpr uint32_t TILE = 2048;\nconstexpr static __gm__ float k_unit_scale[8] = {1, 1, 1, 1, 1, 1, 1, 1};\n"
            "#if ORIG_DTYPE_X == DT_FLOAT\nconstexpr uint32_t k_macro_bytes = 4;\n#else\nconstexpr uint32_t k_macro_bytes = 2;\n#endif\n");
    op.edit(kernel, "        pipe_.InitBuffer(outQueue_, 2, TILE * sizeof(T));\n",
            "        pipe_.InitBuffer(outQueue_, 2, TILE * sizeof(T));\n        pipe_.InitBuffer(tableBuf_, 32);\n");
    op.edit(kernel, "        Muls(out, in, T(tiling_.alpha), n);\n",
            "        GlobalTensor<float> table;\n        table.SetGlobalBuffer((__gm__ float*)k_unit_scale, 8);\n"
            "        LocalTensor<float> scale = tableBuf_.Get<float>();\n        DataCopy(scale, table, 8);\n"
            "        const float wrong_branch = k_macro_bytes == sizeof(T) ? 0.0f : 1.0f;\n"
            "        Muls(out, in, T(tiling_.alpha * scale.GetValue(0) + wrong_branch), n);\n");
    op.edit(kernel, "    TQue<QuePosition::VECOUT, 2> outQueue_;\n", "    TQue<QuePosition::VECOUT, 2> outQueue_;\n    TBuf<TPosition::VECCALC> tableBuf_;\n");
    r = run_cli({"eval", op.dir().string()});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("7 of 7 cases passed"), std::string::npos) << r.output;

    // Writing into that table is refused: it is the program's memory, not the call's.
    op.edit(kernel, "        DataCopy(scale, table, 8);\n", "        DataCopy(scale, table, 8);\n        DataCopy(table, scale, 8);\n");
    r = run_cli({"eval", op.dir().string(), "--case", "one_tensor[float32]"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("lies"), std::string::npos) << r.output;
}

// Kernels named like C library functions (cos, sqrt, trunc, exp) and extern"C" without a space.
TEST(WildConstructs, KernelEntryNamedLikeALibmFunction) {
    OperatorCopy op("exp_custom");
    op.edit("op_kernel/exp_custom.cpp", "extern \"C\" __global__ __aicore__ void exp_custom(", "extern\"C\" __global__ __aicore__ void exp(");
    const auto r = run_cli({"eval", op.dir().string(), "--case", "ragged[float32]"});
    EXPECT_EQ(r.exit_code, 0) << r.output;
}

// A last DataCopy rounded up to whole blocks reads and writes into the allocation padding the
// device runtime adds: it works there, so here too, with a note; --strict-gm refuses it.
TEST(WildConstructs, RaggedBlockCopiesUseTheAllocationPadding) {
    OperatorCopy op("add_custom");
    copy_whole_blocks(op);
    auto r = run_cli({"eval", op.dir().string(), "--case", k_ragged_f32});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("note: z: DataCopy(UB->GM) writes up to 4 B past the end, into the allocation padding"), std::string::npos)
        << r.output;

    r = run_cli({"eval", op.dir().string(), "--case", k_ragged_f32, "--strict-gm"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("--strict-gm"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("(at op_kernel/add_custom.cpp:"), std::string::npos) << r.output;
}

// A write that goes past the padding reaches memory the runtime allocated to something else.
TEST(WildConstructs, WritesPastTheAllocationNameWhatTheyReach) {
    OperatorCopy op("add_custom");
    copy_whole_blocks(op);
    op.edit("op_kernel/add_custom.cpp", "DataCopy(zGm[offset], zLocal, Aligned(count));", "DataCopy(zGm[offset + 64], zLocal, Aligned(count));");
    const auto r = run_cli({"eval", op.dir().string(), "--case", k_ragged_f32});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("past its end and"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("into tensor 'workspace', which the runtime allocates right after it"), std::string::npos) << r.output;
}

// An access past its tensor's UB buffer but inside the UB reaches the next buffer, as on the
// device: a note; --strict-ub makes it an error that names the buffer and the source line.
TEST(WildConstructs, UbAccessPastItsBufferIsANoteOrWithStrictUbAnError) {
    OperatorCopy op("add_custom");
    op.edit("op_kernel/add_custom.cpp", "Add(zLocal, xLocal, yLocal, Aligned(count));", "Add(zLocal, xLocal, yLocal, tileLength + 64);");
    auto r = run_cli({"eval", op.dir().string(), "--case", k_ragged_f32});
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("note: Add: the destination tensor runs up to 256 B past its buffer, into the next; it is in buffer 1 of 2 of the TQue "
                             "set up by InitBuffer call 3"), std::string::npos)
        << r.output;

    op.edit("op_kernel/add_custom.cpp", "tileLength + 64);", "tileLength * 2);");
    r = run_cli({"eval", op.dir().string(), "--case", k_ragged_f32, "--strict-ub"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("Add: "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("InitBuffer call 3"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("(at op_kernel/add_custom.cpp:"), std::string::npos) << r.output;
}

// "segmentation fault in operator code" said neither which side nor where.
TEST(WildConstructs, CrashesSayHostOrKernelAndTheLine) {
    OperatorCopy host("add_custom");
    host.edit("op_host/add_custom.cpp", "static ge::graphStatus TilingFunc(gert::TilingContext* context)\n{",
              "static ge::graphStatus TilingFunc(gert::TilingContext* context)\n{\n    *(volatile int*)nullptr = 1;");
    auto r = run_cli({"eval", host.dir().string(), "--case", k_ragged_f32});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("segmentation fault in the host tiling function"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("(at op_host/add_custom.cpp:"), std::string::npos) << r.output;

    OperatorCopy kernel("add_custom");
    kernel.edit("op_kernel/add_custom.cpp", "    op.Process();", "    if (GetBlockIdx() == 1) *(volatile int*)nullptr = 1;\n    op.Process();");
    r = run_cli({"eval", kernel.dir().string(), "--case", k_ragged_f32});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("segmentation fault in the kernel (block 1)"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("(at op_kernel/add_custom.cpp:"), std::string::npos) << r.output;
}

// msopst goldens in the wild import TensorFlow: one line says so and how to give a numpy golden.
TEST(WildConstructs, TensorFlowGoldenSaysHowToGiveANumpyOne) {
    OperatorCopy op("exp_custom");
    op.write("golden.py", "import tensorflow as tf\n\ndef exp_golden(x, y):\n    return [tf.exp(x['value'])]\n");
    const auto r = run_cli({"eval", op.dir().string(), "--case", "one_element[float16]"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("golden_failed"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("tensorflow"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("give a numpy golden instead"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("Traceback"), std::string::npos) << "one line, not a traceback:\n" << r.output;
}

// A cann-ops operator evaluated with its own msopst cases, whose goldens import TensorFlow, is
// pointed at the numpy goldens ascendopt ships for it.
TEST(WildConstructs, TensorFlowGoldensPointAtTheBundledManifest) {
    TempDir checkout;
    const auto op = checkout.path / "src" / "math" / "add_custom";
    fs::create_directories(op.parent_path());
    fs::copy(source_dir() / "ops" / "add_custom", op, fs::copy_options::recursive);
    std::ofstream(op / "tests" / "st" / "test_add_custom.py") << "import tensorflow as tf\n";
    const auto r = run_cli({"eval", op.string(), "--case", "Test_AddCustom_one_element[float16]"});
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("hint: ascendopt ships cases with numpy goldens for this operator: ascendopt eval " +
                            (source_dir() / "suite/cann-ops-level1/add_custom").string() + " --cann-ops " +
                            fs::canonical(checkout.path).string()),
              std::string::npos)
        << r.output;
}
