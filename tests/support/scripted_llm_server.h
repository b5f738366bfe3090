// A scripted OpenAI-compatible server on 127.0.0.1 (an ephemeral port), for tests: it serves
// /v1/chat/completions and /v1/embeddings from a queue of scripted replies (then a default,
// or a responder function), injects faults on request (a status with Retry-After, a delay
// past the client's timeout, a truncated JSON body, a reply without content), and keeps
// every request it received for the test to inspect. Thread-safe.
#pragma once

#include <atomic>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace httplib {
class Server;
}

namespace ascendopt::testing {

struct Scripted {
    int status = 200;
    std::string content = "pong";        // the assistant message (status 200)
    std::map<std::string, std::string> headers;  // e.g. {"Retry-After", "1"}
    double delay_seconds = 0;            // wait before answering
    std::string raw_body;                // sent as is instead of a generated body (truncated JSON)
    bool no_content = false;             // a 200 reply whose message has no content
    int prompt_tokens = 11, completion_tokens = 7;

    static Scripted ok(std::string content) { return Scripted{.content = std::move(content)}; }
    static Scripted fail(int status, std::string retry_after = "") {
        Scripted s{.status = status};
        if (!retry_after.empty()) s.headers["Retry-After"] = retry_after;
        return s;
    }
};

struct Received {
    std::string path;
    std::map<std::string, std::string> headers;
    nlohmann::json body;
};

class ScriptedLlmServer {
public:
    ScriptedLlmServer();
    ~ScriptedLlmServer();
    std::string base_url() const;  // "http://127.0.0.1:PORT/v1"
    int port() const { return m_port; }

    void push(Scripted reply);                   // answers the next request
    void set_default(Scripted reply);            // after the queue is empty
    // Computes the reply from the request body when the queue is empty (overrides the default).
    void set_responder(std::function<Scripted(const nlohmann::json& body)> f);

    std::vector<Received> received() const;
    int max_in_flight() const { return m_max_in_flight; }

private:
    Scripted next(const nlohmann::json& body);
    std::unique_ptr<httplib::Server> m_server;
    std::thread m_thread;
    int m_port = 0;
    mutable std::mutex m_mutex;
    std::deque<Scripted> m_queue;
    Scripted m_default;
    std::function<Scripted(const nlohmann::json&)> m_responder;
    std::vector<Received> m_received;
    std::atomic<int> m_in_flight{0}, m_max_in_flight{0};
};

}  // namespace ascendopt::testing
