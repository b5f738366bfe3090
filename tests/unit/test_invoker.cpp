// The invoker end to end on the twin's ACL: generated from an operator's aclnn signature,
// compiled and run with the toolchain interface's own command lines against the twin toolkit
// (build/twin-cann), calling a stand-in operator package: a small aclnn library of the test's
// that computes on the device memory and charges a fixed device time.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "npu/aclnn_signature.h"
#include "npu/cann_toolchain.h"
#include "npu/invoker_job.h"
#include "npu/invoker_source.h"
#include "support/scratch_test.h"
#include "util/files.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

const fs::path k_source = ASCENDOPT_TEST_SOURCE_DIR;
const fs::path k_twin_cann = ASCENDOPT_TWIN_CANN_DIR;

ParamInfo param(const std::string& name, bool optional = false) {
    ParamInfo p;
    p.name = name;
    p.optional = optional;
    p.dtypes = {DType::f32};
    return p;
}

// ScaleShift: acc += alpha * x + len(axes) * bias (bias optional), the largest result in
// peak[0] (the rest of peak is never written), and a check of its string attribute; the
// stand-in fails GetWorkspaceSize with a message when shapes differ.
OpDefInfo scale_shift() {
    OpDefInfo op;
    op.type = "ScaleShift";
    op.inputs = {param("x"), param("bias", true), param("acc")};
    op.outputs = {param("acc"), param("peak")};
    op.attrs = {AttrInfo{"alpha", "float", true, nullptr}, AttrInfo{"axes", "list_int", false, nlohmann::json::array()},
                AttrInfo{"tag", "str", false, "fast"}};
    return op;
}

// The stand-in package: aclnnScaleShift over the twin's tensor views.
const char* k_standin = R"(
#include <cstring>
#include <string>
#include "aclnn_scale_shift.h"
#include "ascendopt_twin/acl_device.h"

struct aclOpExecutor { const AscendoptTwinTensorView *x, *bias, *acc, *peak; double alpha; uint64_t axes; };

static uint64_t count(const AscendoptTwinTensorView* v) {
    uint64_t n = 1;
    for (uint64_t k = 0; k < v->view_rank; ++k) n *= uint64_t(v->view_dims[k]);
    return n;
}

extern "C" aclnnStatus aclnnScaleShiftGetWorkspaceSize(const aclTensor* x, const aclTensor* biasOptional, const aclTensor* accRef,
        double alpha, const aclIntArray* axesOptional, char* tagOptional, const aclTensor* peak, uint64_t* workspaceSize,
        aclOpExecutor** executor) {
    const AscendoptTwinTensorView* vx = ascendopt_twin_tensor_view(x);
    const AscendoptTwinTensorView* vacc = ascendopt_twin_tensor_view(accRef);
    if (!vx || !vacc || count(vx) != count(vacc)) return ascendopt_twin_acl_fail(161002, "ScaleShift: x and acc differ in size");
    if (!tagOptional || std::string(tagOptional) != "fast") return ascendopt_twin_acl_fail(161002, "ScaleShift: tag is not 'fast'");
    uint64_t axes = 0;
    if (axesOptional && !ascendopt_twin_int_array(axesOptional, &axes)) return ascendopt_twin_acl_fail(161002, "ScaleShift: bad axes");
    *workspaceSize = 96;
    *executor = new aclOpExecutor{vx, biasOptional ? ascendopt_twin_tensor_view(biasOptional) : nullptr, vacc,
                                  ascendopt_twin_tensor_view(peak), alpha, axes};
    return 0;
}

extern "C" aclnnStatus aclnnScaleShift(void* workspace, uint64_t workspaceSize, aclOpExecutor* e, aclrtStream stream) {
    if (!workspace || workspaceSize != 96) return ascendopt_twin_acl_fail(161002, "ScaleShift: no workspace");
    const float* x = static_cast<const float*>(e->x->data);
    const float* bias = e->bias ? static_cast<const float*>(e->bias->data) : nullptr;
    float* acc = static_cast<float*>(e->acc->data);
    float* peak = static_cast<float*>(e->peak->data);
    for (uint64_t i = 0; i < count(e->x); ++i) {
        acc[i] += float(e->alpha) * x[i] + (bias ? float(e->axes) * bias[i] : 0.f);
        if (i == 0 || acc[i] > peak[0]) peak[0] = acc[i];
    }
    const aclError rc = ascendopt_twin_acl_charge(stream, 2500);
    delete e;
    return rc;
}
)";

void write_floats(const fs::path& p, const std::vector<float>& v) {
    std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(float)));
}

std::vector<float> read_floats(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::vector<float> v;
    float f = 0;
    while (in.read(reinterpret_cast<char*>(&f), sizeof f)) v.push_back(f);
    return v;
}

InvokerParam tensor(InvokerParam::Kind kind, std::vector<int64_t> dims, const fs::path& in, const fs::path& out = {}) {
    InvokerParam p;
    p.kind = kind;
    p.tensor.dims = std::move(dims);
    p.tensor.in_file = in;
    p.tensor.out_file = out;
    return p;
}

class Invoker : public testing::ScratchTest {
protected:
    // Runs `cmd` as the toolchain interface describes it; the process output on failure.
    ProcessResult run(const CannCommand& cmd) { return run_process(cmd.argv, {.cwd = cmd.cwd, .env = cmd.env, .timeout_seconds = 120}); }
};

TEST_F(Invoker, RunsTheCasesThroughTheTwinsAclWithTheToolchainsCommandLines) {
    auto sig = aclnn_signature(scale_shift());
    ASSERT_TRUE(sig) << sig.error().message;
    auto main_source = invoker_source(*sig);
    ASSERT_TRUE(main_source) << main_source.error().message;

    // The "installed package": the header and libcust_opapi.so where the layout puts them.
    PackageLayout layout{m_dir};
    fs::create_directories(layout.op_api_include());
    fs::create_directories(layout.op_api_lib());
    std::ofstream(layout.op_api_include() / sig->header) << aclnn_header(*sig);
    std::ofstream(m_dir / "standin.cpp") << k_standin;
    const fs::path twin_include = k_source / "src" / "twin" / "include";
    auto lib = run_process({"g++", "-std=c++17", "-shared", "-fPIC", (m_dir / "standin.cpp").string(), "-I" + twin_include.string(),
                            "-I" + layout.op_api_include().string(), "-L" + (k_twin_cann / "lib64").string(), "-lnnopbase", "-lascendcl",
                            "-o", (layout.op_api_lib() / "libcust_opapi.so").string()});
    ASSERT_EQ(lib.exit_code, 0) << lib.output;

    CannInstall twin;
    twin.root = k_twin_cann;
    CannToolchain toolchain(twin, process_environment());
    std::ofstream(m_dir / "invoker.cpp") << *main_source;
    auto built = run(toolchain.compile_invoker(m_dir / "invoker.cpp", m_dir / "invoker", layout, {twin_include, k_source / "share" / "include"}));
    ASSERT_EQ(built.exit_code, 0) << built.output;

    write_floats(m_dir / "x", {1, 2, 3, 4});
    write_floats(m_dir / "bias", {10, 20, 30, 40});
    write_floats(m_dir / "acc", {0.5f, 0.5f, 0.5f, 0.5f});
    write_floats(m_dir / "short", {1, 2});
    auto base_case = [&](const std::string& name) {
        InvokerCase c{name, {}};
        c.params.resize(sig->params.size());
        c.params[0] = tensor(InvokerParam::Kind::tensor, {2, 2}, m_dir / "x");
        c.params[2] = tensor(InvokerParam::Kind::ref, {4}, m_dir / "acc", m_dir / (name + ".acc"));
        c.params[3].kind = InvokerParam::Kind::float_value;
        c.params[3].f = 2.0;
        c.params[5].kind = InvokerParam::Kind::str;
        c.params[5].s = "fast";
        c.params[6].kind = InvokerParam::Kind::output;
        c.params[6].tensor.dims = {4};
        c.params[6].tensor.poison = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
        c.params[6].tensor.out_file = m_dir / (name + ".peak");
        return c;
    };
    InvokerCase with_bias = base_case("with_bias");
    with_bias.params[1] = tensor(InvokerParam::Kind::tensor, {4}, m_dir / "bias");
    with_bias.params[4].kind = InvokerParam::Kind::int_array;
    with_bias.params[4].ints = {0, 1, 2};
    InvokerCase plain = base_case("plain");  // bias and axes absent
    InvokerCase mismatched = base_case("mismatched");
    mismatched.params[0] = tensor(InvokerParam::Kind::tensor, {2}, m_dir / "short");
    InvokerJob job{0, 2, 3, {with_bias, plain, mismatched}};
    auto text = invoker_job_text(job);
    ASSERT_TRUE(text) << text.error().message;
    std::ofstream(m_dir / "job") << *text;

    auto ran = run(toolchain.run_invoker(m_dir / "invoker", {(m_dir / "job").string(), (m_dir / "results").string()}, layout, 0));
    EXPECT_EQ(ran.exit_code, 1) << "one case fails:\n" << ran.output;
    auto results = parse_invoker_results(*read_text(m_dir / "results"));
    ASSERT_TRUE(results) << results.error().message;
    ASSERT_EQ(results->size(), 3u);

    const auto& r0 = (*results)[0];
    EXPECT_TRUE(r0.ok) << r0.stage << ": " << r0.message;
    EXPECT_EQ(r0.workspace_bytes, 96u);
    ASSERT_EQ(r0.ms.size(), 3u) << "three timed repeats";
    for (double ms : r0.ms) EXPECT_NEAR(ms, 0.0025, 1e-9) << "the modeled 2500 ns of the launch alone";
    // The checked run: acc = 0.5 + 2 x + 3 bias, from the input as given (not after warm-ups).
    EXPECT_EQ(read_floats(m_dir / "with_bias.acc"), (std::vector<float>{32.5f, 64.5f, 96.5f, 128.5f}));
    // The output starts as the poison: what the kernel never wrote reads back as it.
    auto peak = read_text(m_dir / "with_bias.peak");
    ASSERT_TRUE(peak);
    ASSERT_EQ(peak->size(), 16u);
    float first = 0;
    std::memcpy(&first, peak->data(), 4);
    EXPECT_EQ(first, 128.5f);
    EXPECT_EQ(peak->substr(4), std::string("\x55\x66\x77\x88\x11\x22\x33\x44\x55\x66\x77\x88", 12));
    EXPECT_TRUE((*results)[1].ok);
    EXPECT_EQ(read_floats(m_dir / "plain.acc"), (std::vector<float>{2.5f, 4.5f, 6.5f, 8.5f}));

    const auto& r2 = (*results)[2];
    EXPECT_FALSE(r2.ok);
    EXPECT_EQ(r2.stage, "get_workspace");
    EXPECT_EQ(r2.code, 161002);
    EXPECT_EQ(r2.message, "ScaleShift: x and acc differ in size");
}

TEST(InvokerJob, TheFormatRefusesWhatItCannotCarry) {
    InvokerJob job;
    job.cases.push_back({"two words", {}});
    EXPECT_FALSE(invoker_job_text(job));
    job.cases[0].name = "ok";
    job.cases[0].params.push_back(tensor(InvokerParam::Kind::tensor, {1}, "/tmp/with space"));
    auto text = invoker_job_text(job);
    ASSERT_FALSE(text);
    EXPECT_NE(text.error().message.find("with space"), std::string::npos);
    EXPECT_FALSE(parse_invoker_results("case x ok notanumber\n"));
    EXPECT_FALSE(parse_invoker_results("case x maybe\n"));
    auto parsed = parse_invoker_results("case a failed launch 507015 6869\n");
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ((*parsed)[0].message, "hi");
}

TEST(InvokerJob, ADynamicOutputIsRefusedByName) {
    OpDefInfo op;
    op.type = "SplitAll";
    op.inputs = {param("x")};
    op.outputs = {param("y")};
    op.outputs[0].dynamic = true;
    auto sig = aclnn_signature(op);
    ASSERT_TRUE(sig);
    auto source = invoker_source(*sig);
    ASSERT_FALSE(source);
    EXPECT_NE(source.error().message.find("output 'y' is a list of tensors"), std::string::npos);
}

}  // namespace
}  // namespace ascendopt
