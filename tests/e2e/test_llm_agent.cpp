// Rewind -> bank -> optimize with an LLM: the scripted OpenAI-compatible server plays the
// model. Rewind asks it for named de-optimizations of clip_custom; Stage I of optimize asks it
// to rewrite axpb_custom (never mined) with the record rewind produced.
#include "cli_runner.h"
#include "support/scripted_llm_server.h"

namespace ascendopt::e2e {
namespace {

using testing::Scripted;
using testing::ScriptedLlmServer;

const char* k_deopt_reply = R"(Removing double buffering: one buffer per queue.

op_kernel/clip_custom.cpp
<<<<<<< SEARCH
constexpr int32_t BUFFER_NUM = 2;
=======
constexpr int32_t BUFFER_NUM = 1;
>>>>>>> REPLACE

```json
{"family": "kernel.memory.double_buffer", "title": "Ping-pong buffers on the clip queues",
 "bottleneck": "MTE2 waits for the previous tile's FreeTensor", "mechanism": "two buffers let copy-in of tile i+1 overlap compute of tile i",
 "causal_chain": "one buffer -> serialized copy and compute -> exposed DMA latency", "reusable_when": "tiled single-buffered elementwise kernels",
 "avoid_when": "UB too small for two buffers", "guidance": "set BUFFER_NUM to 2", "expected_effect": "DMA latency hidden",
 "keywords": ["double", "buffer", "pingpong"]}
```
)";

const char* k_rewrite_reply = R"(The queues are single buffered; double buffering overlaps copies with compute.

op_kernel/axpb_custom.cpp
<<<<<<< SEARCH
constexpr int32_t BUFFER_NUM = 1;
=======
constexpr int32_t BUFFER_NUM = 2;
>>>>>>> REPLACE
)";

Scripted respond(const nlohmann::json& body) {
    const std::string user = body["messages"].back()["content"];
    if (user.find("Remove exactly one optimization") != std::string::npos)
        return Scripted::ok(user.find("optimization from this implementation: double buffering") != std::string::npos
                                ? k_deopt_reply
                                : "This implementation does not use that optimization.");
    if (user.find("Rewrite the kernel") != std::string::npos) return Scripted::ok(k_rewrite_reply);
    if (user.find("name the bottleneck") != std::string::npos) return Scripted::ok("LLM reading: one buffer per queue exposes the copy latency.");
    return Scripted::ok("No further change.");
}

TEST(LlmAgent, RewindThenOptimizeWithAScriptedModel) {
    ScriptedLlmServer server;
    server.set_responder(respond);
    TempDir tmp;
    fs::create_directories(tmp.path / "suite" / "clip_custom");
    fs::copy(source_dir() / "ops" / "clip_custom" / "op_host", tmp.path / "suite" / "clip_custom" / "op_host", fs::copy_options::recursive);
    fs::copy(source_dir() / "ops" / "clip_custom" / "op_kernel", tmp.path / "suite" / "clip_custom" / "op_kernel", fs::copy_options::recursive);
    for (const char* f : {"ascendopt.toml", "golden.py"}) fs::copy(source_dir() / "ops" / "clip_custom" / f, tmp.path / "suite" / "clip_custom" / f);
    const std::map<std::string, std::string> env = {{"ASCENDOPT_LLM_BASE_URL", server.base_url()},
                                                    {"ASCENDOPT_LLM_MODEL", "scripted-coder"},
                                                    {"ASCENDOPT_LLM_BACKOFF", "0.01"}};
    const std::string bank = (tmp.path / "bank.db").string();

    const auto rewind = run_cli({"rewind", (tmp.path / "suite").string(), "--bank", bank, "--mode", "llm", "--budget", "8", "--out",
                                 (tmp.path / "rewind").string(), "--json", "-q"},
                                env);
    ASSERT_EQ(rewind.exit_code, 0) << rewind.output;
    ASSERT_EQ(json_of(rewind)["records"], 1) << rewind.output;
    const auto shown = run_cli({"bank", "show", "1", "--bank", bank, "--json"});
    const auto rec = json_of(shown);
    EXPECT_EQ(rec["family"], "kernel.memory.double_buffer");
    EXPECT_EQ(rec["title"], "Ping-pong buffers on the clip queues");  // the LLM writes the mechanism fields...
    EXPECT_EQ(rec["guidance"], "set BUFFER_NUM to 2");
    EXPECT_GT(rec["slow_latency_us"].get<double>(), 1.02 * rec["fast_latency_us"].get<double>());  // ...the numbers are measured
    EXPECT_EQ(rec["profile_before"]["latency_us"], rec["slow_latency_us"]);
    EXPECT_EQ(rec["profile_after"]["latency_us"], rec["fast_latency_us"]);
    EXPECT_NE(rec["diff"].get<std::string>().find("-constexpr int32_t BUFFER_NUM = 1;\n+constexpr int32_t BUFFER_NUM = 2;"), std::string::npos)
        << rec["diff"];
    EXPECT_EQ(rec["provenance"][0]["source"], "llm-rewind");
    EXPECT_EQ(rec["provenance"][0]["model"], "scripted-coder");
    // Six prompts (five named de-optimizations and an open one), every one accounted.
    EXPECT_EQ(count_rows(tmp.path / "rewind" / "run.db", "SELECT COUNT(*) FROM llm_calls WHERE purpose = 'rewind' AND outcome = 'ok'"), 6);
    // Run again (as after kill -9): the run's own replies and evaluations answer; nothing is asked or paid twice.
    const size_t asked = server.received().size();
    const int64_t evaluations = count_rows(tmp.path / "rewind" / "run.db", "SELECT COUNT(*) FROM evaluations");
    const auto again = run_cli({"rewind", (tmp.path / "suite").string(), "--bank", bank, "--mode", "llm", "--budget", "8", "--out",
                                (tmp.path / "rewind").string(), "--json", "-q"},
                               env);
    ASSERT_EQ(again.exit_code, 0) << again.output;
    EXPECT_EQ(server.received().size(), asked);
    EXPECT_EQ(count_rows(tmp.path / "rewind" / "run.db", "SELECT COUNT(*) FROM evaluations"), evaluations);
    EXPECT_EQ(count_rows(tmp.path / "rewind" / "run.db", "SELECT COUNT(*) FROM llm_calls"), 6);
    EXPECT_EQ(json_of(again)["operators"][0]["records"], json_of(rewind)["operators"][0]["records"]);

    const auto optimize = run_cli({"optimize", "suite/untuned/axpb_custom", "--bank", bank, "--budget", "6", "--out",
                                   (tmp.path / "optimize").string(), "--json", "-q"},
                                  env);
    ASSERT_EQ(optimize.exit_code, 0) << optimize.output;
    const auto s = json_of(optimize);
    ASSERT_EQ(s["accepted_rewrites"].size(), 1u) << s.dump(2);
    EXPECT_EQ(s["accepted_rewrites"][0]["inspired_by"][0], 1);
    EXPECT_EQ(s["accepted_rewrites"][0]["files"][0], "op_kernel/axpb_custom.cpp");
    EXPECT_LT(s["after_stage1_us"].get<double>(), s["baseline_us"].get<double>());
    EXPECT_LE(s["after_stage2_us"].get<double>(), s["after_stage1_us"].get<double>());
    EXPECT_NE(s["diagnoses"][0].get<std::string>().find("LLM reading: one buffer per queue"), std::string::npos) << s["diagnoses"];
    bool saw_experience = false;
    for (const auto& r : server.received())
        if (r.body["messages"].back()["content"].get<std::string>().find("record #1 [kernel.memory.double_buffer]") != std::string::npos)
            saw_experience = true;
    EXPECT_TRUE(saw_experience) << "the rewrite prompt carries the retrieved record";
}

}  // namespace
}  // namespace ascendopt::e2e
