// `ascendopt llm ping` and `ascendopt config show` driven as a user would, against the
// scripted OpenAI-compatible server on loopback.
#include "cli_runner.h"
#include "support/scripted_llm_server.h"

namespace ascendopt::e2e {
namespace {

using testing::Scripted;
using testing::ScriptedLlmServer;

std::map<std::string, std::string> llm_env(const ScriptedLlmServer& server) {
    return {{"ASCENDOPT_LLM_BASE_URL", server.base_url()},
            {"ASCENDOPT_LLM_MODEL", "scripted-coder"},
            {"ASCENDOPT_LLM_API_KEY", "sk-e2e-never-printed-0123456789"},
            {"ASCENDOPT_LLM_BACKOFF", "0.01"}};
}

TEST(LlmCli, PingPrintsModelLatencyAndTokens) {
    ScriptedLlmServer server;
    server.push(Scripted::ok("pong"));
    const auto r = run_cli({"llm", "ping"}, llm_env(server));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("model    scripted-coder"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("11 prompt + 7 completion"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("latency"), std::string::npos);
    EXPECT_EQ(r.output.find("sk-e2e"), std::string::npos) << "the key was printed";
    ASSERT_EQ(server.received().size(), 1u);
    EXPECT_EQ(server.received()[0].headers.at("Authorization"), "Bearer sk-e2e-never-printed-0123456789");
}

TEST(LlmCli, PingJsonAfterARetry) {
    ScriptedLlmServer server;
    server.push(Scripted::fail(503));
    server.push(Scripted::ok("pong"));
    const auto r = run_cli({"llm", "ping", "--json"}, llm_env(server));
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto j = json_of(r);
    EXPECT_EQ(j["model"], "scripted-coder");
    EXPECT_EQ(j["attempts"], 2);
    EXPECT_EQ(j["prompt_tokens"], 11);
}

TEST(LlmCli, PingFailureExitsFiveWithTheReason) {
    ScriptedLlmServer server;
    server.set_default(Scripted::fail(401));
    const auto r = run_cli({"llm", "ping"}, llm_env(server));
    EXPECT_EQ(r.exit_code, 5) << r.output;
    EXPECT_NE(r.output.find("ascendopt: error: LLM request"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("HTTP 401"), std::string::npos);
    EXPECT_NE(r.output.find("hint: check the API key"), std::string::npos);
    EXPECT_EQ(r.output.find("sk-e2e"), std::string::npos);
}

TEST(LlmCli, PingWithNothingConfiguredSaysWhatToSet) {
    const auto r = run_cli({"llm", "ping"}, {{"ASCENDOPT_CONFIG", "/dev/null"}});
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.output.find("hint:"), std::string::npos) << r.output;
}

TEST(LlmCli, PingThroughACommandAndARecordedCassette) {
    TempDir tmp;
    const std::string cassette = (tmp.path / "ping.jsonl").string();
    const auto recorded = run_cli({"llm", "ping", "--llm-command", "cat >/dev/null; echo pong", "--llm-record", cassette});
    ASSERT_EQ(recorded.exit_code, 0) << recorded.output;
    const auto replayed = run_cli({"llm", "ping", "--llm-replay", cassette});
    ASSERT_EQ(replayed.exit_code, 0) << replayed.output;
    EXPECT_NE(replayed.output.find("reply    pong"), std::string::npos) << replayed.output;
}

TEST(LlmCli, ConfigShowNamesEverySource) {
    TempDir tmp;
    std::ofstream(tmp.path / "ascendopt.toml") << "[llm]\nmodel = \"file-model\"\ntemperature = 0.5\n";
    auto env = std::map<std::string, std::string>{{"ASCENDOPT_CONFIG", (tmp.path / "ascendopt.toml").string()},
                                                  {"ASCENDOPT_LLM_API_KEY", "sk-show-me-not-0123456789"}};
    const auto r = run_cli({"config", "show", "--llm-base-url", "http://127.0.0.1:1/v1", "--json"}, env);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const auto j = json_of(r);
    EXPECT_EQ(j["llm.model"]["value"], "file-model");
    EXPECT_EQ(j["llm.model"]["source"], "file " + (tmp.path / "ascendopt.toml").string());
    EXPECT_EQ(j["llm.base_url"]["source"], "flag --llm-base-url");
    EXPECT_EQ(j["llm.api_key"]["value"], "(set, hidden)");
    EXPECT_EQ(j["llm.api_key"]["source"], "env ASCENDOPT_LLM_API_KEY");
    EXPECT_EQ(j["llm.timeout"]["source"], "default");
    EXPECT_EQ(r.output.find("sk-show-me-not"), std::string::npos);
}

TEST(LlmCli, ConfigShowRejectsAnUnknownSetting) {
    TempDir tmp;
    std::ofstream(tmp.path / "bad.toml") << "[llm]\nmodle = \"x\"\n";
    const auto r = run_cli({"config", "show", "--config", (tmp.path / "bad.toml").string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("unknown setting llm.modle"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace ascendopt::e2e
