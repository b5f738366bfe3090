// Record and replay, the external-command proposer, prompt templates and secret scrubbing.
#include <gtest/gtest.h>

#include "llm/cassette.h"
#include "llm/chat_client.h"
#include "llm/command_proposer.h"
#include "llm/factory.h"
#include "util/secrets.h"
#include "llm/templates.h"
#include "support/scripted_llm_server.h"
#include "util/files.h"

namespace ascendopt {
namespace {

using testing::Scripted;
using testing::ScriptedLlmServer;

class TempFolder {
public:
    TempFolder() : m_dir(*make_temp_dir(std::filesystem::temp_directory_path(), "llm-test")) {}
    const std::filesystem::path& path() const { return m_dir.path(); }

private:
    ScratchDir m_dir;
};

ChatRequest ask(const std::string& text) {
    ChatRequest r;
    r.messages = {{"user", text}};
    r.params.temperature = 0;
    return r;
}

LlmConfig openai_config(const ScriptedLlmServer& server) {
    LlmConfig c;
    c.kind = "openai";
    c.endpoint.base_url = server.base_url();
    c.endpoint.api_key = "sk-cassette-secret-0123456789";
    c.endpoint.backoff_base_seconds = 0.01;
    c.model = "coder";
    return c;
}

TEST(Cassette, RecordThenReplayWithoutTheServer) {
    TempFolder tmp;
    const auto cassette = tmp.path() / "calls.jsonl";
    {
        ScriptedLlmServer server;
        server.push(Scripted::ok("answer one"));
        server.push(Scripted::ok("answer two"));
        auto config = openai_config(server);
        config.record = cassette;
        auto recorder = make_proposer(config);
        ASSERT_TRUE(recorder) << recorder.error().message;
        ASSERT_EQ((*recorder)->propose(ask("first question"))->text, "answer one");
        ASSERT_EQ((*recorder)->propose(ask("second question"))->text, "answer two");
    }
    LlmConfig replay_config;
    replay_config.kind = "replay";
    replay_config.replay = cassette;
    auto replay = make_proposer(replay_config);
    ASSERT_TRUE(replay) << replay.error().message;
    EXPECT_EQ((*replay)->model(), "coder");  // taken from the cassette
    EXPECT_EQ((*replay)->propose(ask("second question"))->text, "answer two");
    auto first = (*replay)->propose(ask("first question"));
    ASSERT_TRUE(first);
    EXPECT_EQ(first->text, "answer one");
    EXPECT_EQ(first->usage.prompt_tokens, 11);
}

TEST(Cassette, AMissFailsClearlyAndNeverInventsAReply) {
    TempFolder tmp;
    const auto cassette = tmp.path() / "calls.jsonl";
    {
        ScriptedLlmServer server;
        auto config = openai_config(server);
        config.record = cassette;
        ASSERT_TRUE((*make_proposer(config))->propose(ask("recorded")));
    }
    auto replay = ReplayProposer::open(cassette, "");
    ASSERT_TRUE(replay);
    auto miss = (*replay)->propose(ask("never asked"));
    ASSERT_FALSE(miss);
    EXPECT_NE(miss.error().message.find("replay miss"), std::string::npos) << miss.error().message;
    EXPECT_NE(miss.error().message.find("never asked"), std::string::npos);
    // A different temperature is a different request.
    auto warmer = ask("recorded");
    warmer.params.temperature = 0.7;
    EXPECT_FALSE((*replay)->propose(warmer));
}

TEST(Cassette, RepeatedRequestsReplayInRecordedOrderThenMiss) {
    TempFolder tmp;
    const auto cassette = tmp.path() / "calls.jsonl";
    {
        ScriptedLlmServer server;
        server.push(Scripted::ok("sample 1"));
        server.push(Scripted::ok("sample 2"));
        auto config = openai_config(server);
        config.record = cassette;
        auto p = make_proposer(config);
        ASSERT_TRUE((*p)->propose(ask("same")));
        ASSERT_TRUE((*p)->propose(ask("same")));
    }
    auto replay = ReplayProposer::open(cassette, "");
    ASSERT_TRUE(replay);
    EXPECT_EQ((*replay)->propose(ask("same"))->text, "sample 1");
    EXPECT_EQ((*replay)->propose(ask("same"))->text, "sample 2");
    auto third = (*replay)->propose(ask("same"));
    ASSERT_FALSE(third);
    EXPECT_NE(third.error().message.find("2 replies for this request, all used"), std::string::npos) << third.error().message;
}

TEST(Cassette, FailuresAreRecordedAndReplayedAsFailures) {
    TempFolder tmp;
    const auto cassette = tmp.path() / "calls.jsonl";
    {
        ScriptedLlmServer server;
        server.push(Scripted::fail(400));
        auto config = openai_config(server);
        config.record = cassette;
        ASSERT_FALSE((*make_proposer(config))->propose(ask("bad")));
    }
    auto replay = ReplayProposer::open(cassette, "");
    ASSERT_TRUE(replay);
    auto again = (*replay)->propose(ask("bad"));
    ASSERT_FALSE(again);
    EXPECT_NE(again.error().message.find("(replayed)"), std::string::npos);
}

TEST(Cassette, SecretsAreScrubbedFromTheCassette) {
    TempFolder tmp;
    const auto cassette = tmp.path() / "calls.jsonl";
    ScriptedLlmServer server;
    server.push(Scripted::ok("your key is sk-cassette-secret-0123456789"));
    auto config = openai_config(server);
    config.record = cassette;
    ASSERT_TRUE((*make_proposer(config))->propose(ask("my token is Bearer abcdefghijklmnopqrstuvwxyz and key sk-cassette-secret-0123456789")));
    const auto text = read_text(cassette);
    ASSERT_TRUE(text);
    EXPECT_EQ(text->find("sk-cassette-secret"), std::string::npos) << *text;
    EXPECT_EQ(text->find("abcdefghijklmnopqrstuvwxyz"), std::string::npos) << *text;
    EXPECT_NE(text->find("[REDACTED]"), std::string::npos);
}

TEST(Cassette, AGarbledLineIsAnErrorNamingIt) {
    TempFolder tmp;
    ASSERT_TRUE(write_atomic(tmp.path() / "bad.jsonl", "{\"key\": \"k\", \"reply\": {}}\nnot json\n"));
    auto replay = ReplayProposer::open(tmp.path() / "bad.jsonl", "m");
    ASSERT_FALSE(replay);
    EXPECT_NE(replay.error().message.find("bad.jsonl:2"), std::string::npos) << replay.error().message;
}

TEST(CommandProposer, ThePromptGoesToStdinAndStdoutIsTheReply) {
    CommandProposer p({.command = "tr a-z A-Z", .model = "upper"});
    auto reply = p.propose(ask("make me loud"));
    ASSERT_TRUE(reply) << reply.error().message;
    EXPECT_NE(reply->text.find("MAKE ME LOUD"), std::string::npos);
    EXPECT_NE(reply->text.find("## USER"), std::string::npos);
    EXPECT_TRUE(reply->usage_estimated);
    EXPECT_GT(reply->usage.prompt_tokens, 0);
}

TEST(CommandProposer, StderrStaysOutOfTheReply) {
    CommandProposer p({.command = "cat >/dev/null; echo noise >&2; echo reply"});
    auto reply = p.propose(ask("x"));
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->text, "reply\n");
}

TEST(CommandProposer, AFailingCommandIsAnErrorWithItsStderr) {
    CommandProposer p({.command = "cat >/dev/null; echo 'model not found' >&2; exit 3"});
    auto reply = p.propose(ask("x"));
    ASSERT_FALSE(reply);
    EXPECT_NE(reply.error().message.find("exit code 3"), std::string::npos) << reply.error().message;
    EXPECT_NE(reply.error().detail.find("model not found"), std::string::npos);
}

TEST(CommandProposer, ASilentCommandIsAnError) {
    CommandProposer p({.command = "cat >/dev/null"});
    auto reply = p.propose(ask("x"));
    ASSERT_FALSE(reply);
    EXPECT_NE(reply.error().message.find("printed nothing"), std::string::npos);
}

TEST(CommandProposer, AHangingCommandIsKilledAtTheTimeout) {
    CommandProposer p({.command = "sleep 30", .timeout_seconds = 0.5});
    const auto start = std::chrono::steady_clock::now();
    auto reply = p.propose(ask("x"));
    ASSERT_FALSE(reply);
    EXPECT_NE(reply.error().message.find("timed out"), std::string::npos) << reply.error().message;
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5);
}

TEST(CommandProposer, ACommandThatIgnoresALargePromptDoesNotHurtUs) {
    CommandProposer p({.command = "echo early"});  // never reads stdin: our writes hit a closed pipe
    auto request = ask(std::string(4 << 20, 'x'));
    auto reply = p.propose(request);
    ASSERT_TRUE(reply) << reply.error().message;
    EXPECT_EQ(reply->text, "early\n");
}

TEST(Factory, NothingConfiguredSaysHowToConfigure) {
    auto p = make_proposer(LlmConfig{});
    ASSERT_FALSE(p);
    EXPECT_NE(p.error().hint.find("ASCENDOPT_LLM_BASE_URL"), std::string::npos);
    LlmConfig half;
    half.kind = "openai";
    half.endpoint.base_url = "http://127.0.0.1:1/v1";
    EXPECT_NE(make_proposer(half).error().message.find("llm.model"), std::string::npos);
}

TEST(Templates, UserFolderOverridesBundledAndMissingValuesAreNamed) {
    TempFolder tmp;
    const auto bundled = tmp.path() / "bundled", user = tmp.path() / "user";
    std::filesystem::create_directories(bundled);
    std::filesystem::create_directories(user);
    ASSERT_TRUE(write_atomic(bundled / "rewrite.md", "Optimize {{op}} for {{soc}}.\n"));
    ASSERT_TRUE(write_atomic(bundled / "repair.md", "Fix {{ op }}: {{error}}\n"));
    ASSERT_TRUE(write_atomic(user / "rewrite.md", "Make {{op}} fast.\n"));
    TemplateStore store(bundled, user);
    EXPECT_EQ(*store.render("rewrite", {{"op", "add"}}), "Make add fast.\n");
    EXPECT_EQ(*store.render("repair", {{"op", "add"}, {"error", "e"}}), "Fix add: e\n");
    auto missing = store.render("repair", {{"op", "add"}});
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("repair.md:1"), std::string::npos) << missing.error().message;
    EXPECT_NE(missing.error().message.find("{{error}}"), std::string::npos);
    EXPECT_FALSE(store.render("nonexistent", {}));
}

TEST(Templates, BundledTemplatesRender) {
    TemplateStore store(std::filesystem::path(ASCENDOPT_TEST_SOURCE_DIR) / "share" / "templates");
    for (const auto& f : list_files(std::filesystem::path(ASCENDOPT_TEST_SOURCE_DIR) / "share" / "templates", ".md")) {
        auto text = read_text(f);
        ASSERT_TRUE(text);
        EXPECT_FALSE(text->empty()) << f;
    }
    EXPECT_TRUE(store.locate("system"));
}

}  // namespace
}  // namespace ascendopt

namespace ascendopt {
namespace {

TEST(Cassette, AResumedRunReplaysItsOwnRepliesThenGoesLive) {
    TempFolder tmp;
    const auto cassette = tmp.path() / "run-replies.jsonl";
    ScriptedLlmServer server;
    server.push(Scripted::ok("first answer"));
    server.push(Scripted::ok("second answer"));
    server.push(Scripted::ok("third answer"));
    auto config = openai_config(server);
    config.resume = cassette;
    {
        auto p = make_proposer(config);
        ASSERT_TRUE(p) << p.error().message;
        EXPECT_EQ((*p)->propose(ask("q"))->text, "first answer");
        EXPECT_EQ((*p)->propose(ask("q"))->text, "second answer");
    }  // killed here
    auto p = make_proposer(config);
    ASSERT_TRUE(p);
    auto again = (*p)->propose(ask("q"));
    EXPECT_EQ(again->text, "first answer");  // the same replies in the same order...
    EXPECT_TRUE(again->resumed);
    EXPECT_EQ((*p)->propose(ask("q"))->text, "second answer");
    auto live = (*p)->propose(ask("q"));  // ...then the live model
    EXPECT_EQ(live->text, "third answer");
    EXPECT_FALSE(live->resumed);
    EXPECT_EQ(server.received().size(), 3u);
}

}  // namespace
}  // namespace ascendopt
