// The OpenAI-compatible client against the scripted server on loopback: success, each fault
// with its retries and final outcome, the concurrency cap, embeddings and call accounting.
#include <gtest/gtest.h>

#include <chrono>
#include <future>

#include "llm/call_log.h"
#include "llm/chat_client.h"
#include "llm/embeddings.h"
#include "support/scripted_llm_server.h"
#include "util/files.h"

namespace ascendopt {
namespace {

using testing::Scripted;
using testing::ScriptedLlmServer;

EndpointConfig fast_retries(const ScriptedLlmServer& server) {
    EndpointConfig c;
    c.base_url = server.base_url();
    c.api_key = "sk-test-0123456789abcdef0123";
    c.backoff_base_seconds = 0.01;
    c.total_timeout_seconds = 5;
    c.max_attempts = 3;
    return c;
}

ChatRequest hello() {
    ChatRequest r;
    r.messages = {{"system", "be brief"}, {"user", "hello"}};
    r.params.temperature = 0.2;
    r.params.max_tokens = 64;
    r.params.seed = 7;
    r.params.stop = {"###"};
    return r;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

TEST(LlmClient, SuccessSendsTheRequestAndReadsTheReply) {
    ScriptedLlmServer server;
    server.push(Scripted::ok("here is code"));
    ChatClient client(std::make_shared<OpenAiEndpoint>(fast_retries(server)), "coder-7b", Prices{2.0, 6.0});
    auto reply = client.propose(hello());
    ASSERT_TRUE(reply) << reply.error().message;
    EXPECT_EQ(reply->text, "here is code");
    EXPECT_EQ(reply->model, "coder-7b");
    EXPECT_EQ(reply->usage.prompt_tokens, 11);
    EXPECT_EQ(reply->usage.completion_tokens, 7);
    EXPECT_EQ(reply->attempts, 1);
    EXPECT_NEAR(reply->cost_usd, (11 * 2.0 + 7 * 6.0) / 1e6, 1e-12);
    EXPECT_GT(reply->latency_seconds, 0);
    const auto got = server.received();
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].path, "/v1/chat/completions");
    EXPECT_EQ(got[0].headers.at("Authorization"), "Bearer sk-test-0123456789abcdef0123");
    const auto& body = got[0].body;
    EXPECT_EQ(body["model"], "coder-7b");
    EXPECT_EQ(body["messages"][1]["content"], "hello");
    EXPECT_EQ(body["temperature"], 0.2);
    EXPECT_EQ(body["max_tokens"], 64);
    EXPECT_EQ(body["seed"], 7);
    EXPECT_EQ(body["stop"][0], "###");
    EXPECT_FALSE(body.contains("top_p"));
}

TEST(LlmClient, MaxCompletionTokensReplacesMaxTokensWhenAsked) {
    ScriptedLlmServer server;
    ChatClient client(std::make_shared<OpenAiEndpoint>(fast_retries(server)), "m");
    auto request = hello();
    request.params.use_max_completion_tokens = true;
    ASSERT_TRUE(client.propose(request));
    const auto body = server.received().at(0).body;
    EXPECT_EQ(body["max_completion_tokens"], 64);
    EXPECT_FALSE(body.contains("max_tokens"));
}

TEST(LlmClient, RateLimitHonorsRetryAfterThenSucceeds) {
    ScriptedLlmServer server;
    server.push(Scripted::fail(429, "1"));
    server.push(Scripted::ok("after the wait"));
    ChatClient client(std::make_shared<OpenAiEndpoint>(fast_retries(server)), "m");
    const auto start = std::chrono::steady_clock::now();
    auto reply = client.propose(hello());
    ASSERT_TRUE(reply) << reply.error().message;
    EXPECT_EQ(reply->text, "after the wait");
    EXPECT_EQ(reply->attempts, 2);
    EXPECT_GE(seconds_since(start), 0.95);  // waited as told, not the 10 ms backoff
}

TEST(LlmClient, ServerErrorsAreRetriedAndTheLastOneReported) {
    ScriptedLlmServer server;
    server.set_default(Scripted::fail(500));
    ChatClient client(std::make_shared<OpenAiEndpoint>(fast_retries(server)), "m");
    auto reply = client.propose(hello());
    ASSERT_FALSE(reply);
    EXPECT_NE(reply.error().message.find("after 3 attempts"), std::string::npos) << reply.error().message;
    EXPECT_NE(reply.error().message.find("HTTP 500"), std::string::npos);
    EXPECT_NE(reply.error().message.find("scripted failure 500"), std::string::npos);
    EXPECT_EQ(server.received().size(), 3u);
}

TEST(LlmClient, EveryRetryableStatusIsRetried) {
    for (int status : {408, 409, 429, 502, 503}) {
        ScriptedLlmServer server;
        server.push(Scripted::fail(status));
        server.push(Scripted::ok("fine"));
        ChatClient client(std::make_shared<OpenAiEndpoint>(fast_retries(server)), "m");
        auto reply = client.propose(hello());
        ASSERT_TRUE(reply) << status << ": " << reply.error().message;
        EXPECT_EQ(reply->attempts, 2) << status;
    }
}

TEST(LlmClient, ClientErrorsAreNotRetriedAndSayWhatToCheck) {
    ScriptedLlmServer server;
    server.set_default(Scripted::fail(401));
    ChatClient client(std::make_shared<OpenAiEndpoint>(fast_retries(server)), "m");
    auto reply = client.propose(hello());
    ASSERT_FALSE(reply);
    EXPECT_EQ(server.received().size(), 1u);
    EXPECT_NE(reply.error().hint.find("API key"), std::string::npos);
    EXPECT_EQ(reply.error().message.find("sk-test"), std::string::npos) << "the key leaked into an error";
}

TEST(LlmClient, ASlowReplyPastTheTimeoutIsRetried) {
    ScriptedLlmServer server;
    server.push(Scripted{.content = "too late", .delay_seconds = 1.5});
    server.push(Scripted::ok("in time"));
    auto config = fast_retries(server);
    config.total_timeout_seconds = 0.5;
    ChatClient client(std::make_shared<OpenAiEndpoint>(config), "m");
    auto reply = client.propose(hello());
    ASSERT_TRUE(reply) << reply.error().message;
    EXPECT_EQ(reply->text, "in time");
    EXPECT_EQ(reply->attempts, 2);
}

TEST(LlmClient, TimeoutsOnEveryAttemptEndInATimeoutError) {
    ScriptedLlmServer server;
    server.set_default(Scripted{.delay_seconds = 1.0});
    auto config = fast_retries(server);
    config.total_timeout_seconds = 0.3;
    config.max_attempts = 2;
    ChatClient client(std::make_shared<OpenAiEndpoint>(config), "m");
    auto reply = client.propose(hello());
    ASSERT_FALSE(reply);
    EXPECT_NE(reply.error().message.find("after 2 attempts"), std::string::npos) << reply.error().message;
    EXPECT_NE(reply.error().message.find("imed out"), std::string::npos) << reply.error().message;
}

TEST(LlmClient, TruncatedJsonIsRetriedThenReported) {
    ScriptedLlmServer server;
    server.set_default(Scripted{.raw_body = R"({"choices": [{"message": {"content": "par)"});
    ChatClient client(std::make_shared<OpenAiEndpoint>(fast_retries(server)), "m");
    auto reply = client.propose(hello());
    ASSERT_FALSE(reply);
    EXPECT_NE(reply.error().message.find("not a JSON object"), std::string::npos) << reply.error().message;
    EXPECT_EQ(server.received().size(), 3u);
}

// A reply of 200 MB was once read whole into memory.
TEST(LlmClient, AReplyLargerThanTheCapIsCutOffAndReported) {
    ScriptedLlmServer server;
    server.set_default(Scripted{.raw_body = R"({"choices": [{"message": {"content": ")" + std::string(17u << 20, 'x') + R"("}}]})"});
    ChatClient client(std::make_shared<OpenAiEndpoint>(fast_retries(server)), "m");
    auto reply = client.propose(hello());
    ASSERT_FALSE(reply);
    EXPECT_NE(reply.error().message.find("larger than 16 MiB"), std::string::npos) << reply.error().message;
}

TEST(LlmClient, AReplyWithoutContentIsAnError) {
    ScriptedLlmServer server;
    server.push(Scripted{.no_content = true});
    ChatClient client(std::make_shared<OpenAiEndpoint>(fast_retries(server)), "m");
    auto reply = client.propose(hello());
    ASSERT_FALSE(reply);
    EXPECT_NE(reply.error().message.find("no message content"), std::string::npos) << reply.error().message;
}

TEST(LlmClient, RefusedConnectionIsRetriedThenNamesTheServer) {
    EndpointConfig config;
    {
        ScriptedLlmServer gone;  // a port that was just free
        config.base_url = gone.base_url();
    }
    config.max_attempts = 2;
    config.backoff_base_seconds = 0.01;
    ChatClient client(std::make_shared<OpenAiEndpoint>(config), "m");
    auto reply = client.propose(hello());
    ASSERT_FALSE(reply);
    EXPECT_NE(reply.error().message.find("after 2 attempts"), std::string::npos);
    EXPECT_NE(reply.error().hint.find("is the server running"), std::string::npos);
}

TEST(LlmClient, ConcurrentRequestsStayUnderTheLimit) {
    ScriptedLlmServer server;
    server.set_default(Scripted{.content = "x", .delay_seconds = 0.2});
    auto config = fast_retries(server);
    config.max_concurrent = 2;
    auto endpoint = std::make_shared<OpenAiEndpoint>(config);
    ChatClient client(endpoint, "m");
    std::vector<std::future<bool>> calls;
    for (int i = 0; i < 6; ++i) calls.push_back(std::async(std::launch::async, [&] { return client.propose(hello()).ok(); }));
    for (auto& c : calls) EXPECT_TRUE(c.get());
    EXPECT_EQ(server.max_in_flight(), 2);
}

TEST(LlmClient, RetryAfterReadsSecondsAndDates) {
    EXPECT_DOUBLE_EQ(parse_retry_after("3"), 3);
    EXPECT_DOUBLE_EQ(parse_retry_after("0.5"), 0.5);
    EXPECT_LT(parse_retry_after(""), 0);
    EXPECT_LT(parse_retry_after("soon"), 0);
    EXPECT_DOUBLE_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), 0);  // in the past
}

TEST(LlmEmbeddings, VectorsComeBackInInputOrder) {
    ScriptedLlmServer server;
    EmbeddingsClient client(std::make_shared<OpenAiEndpoint>(fast_retries(server)), "embed-small");
    auto v = client.embed({"double buffer the copy", "double buffering copies", "zzz"});
    ASSERT_TRUE(v) << v.error().message;
    ASSERT_EQ(v->size(), 3u);
    EXPECT_GT(cosine_similarity((*v)[0], (*v)[1]), cosine_similarity((*v)[0], (*v)[2]));
    EXPECT_EQ(server.received().at(0).body["model"], "embed-small");
}

TEST(LlmAccounting, EveryCallIsStoredWithoutTheKeyOrTheMessages) {
    ScriptedLlmServer server;
    server.push(Scripted::ok("first"));
    server.push(Scripted::fail(400));
    auto dir = make_temp_dir(std::filesystem::temp_directory_path(), "llm-log");
    ASSERT_TRUE(dir);
    ScratchDir scratch(*dir);
    auto opened = SqliteCallLog::open(*dir / "run.db");
    ASSERT_TRUE(opened) << opened.error().message;
    std::shared_ptr<SqliteCallLog> log = std::move(*opened);
    auto config = fast_retries(server);
    AccountedProposer proposer(std::make_unique<ChatClient>(std::make_shared<OpenAiEndpoint>(config), "m"), log, 42, {config.api_key});
    auto request = hello();
    request.purpose = "test";
    request.messages[1].content = "secret prompt text";
    EXPECT_TRUE(proposer.propose(request));
    EXPECT_FALSE(proposer.propose(request));
    auto totals = log->totals(42);
    ASSERT_TRUE(totals);
    EXPECT_EQ(totals->calls, 2);
    EXPECT_EQ(totals->failed, 1);
    EXPECT_EQ(totals->prompt_tokens, 11);
    EXPECT_EQ(totals->completion_tokens, 7);
    EXPECT_EQ(log->totals(7)->calls, 0);
    log.reset();
    const auto bytes = read_text(*dir / "run.db");
    ASSERT_TRUE(bytes);
    EXPECT_EQ(bytes->find("sk-test"), std::string::npos);
    EXPECT_EQ(bytes->find("secret prompt text"), std::string::npos);
}

}  // namespace
}  // namespace ascendopt
