// An OpenAI-compatible HTTP endpoint (hosted APIs, vLLM, SGLang, llama.cpp server, Ollama):
// JSON POSTs with a Bearer key, retries with exponential backoff and jitter on 408, 409, 429,
// 5xx and transport failures (honoring Retry-After), timeouts, and a cap on requests in
// flight. Shared by the chat and the embeddings clients.
// Thread-safe. The API key is only ever placed in the Authorization header: it is in no
// error message, log line or record.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "util/http.h"
#include "util/result.h"

namespace ascendopt {

struct EndpointConfig {
    std::string base_url;  // up to and including the API version: "http://127.0.0.1:8000/v1"
    std::string api_key;   // empty: no Authorization header (local servers)
    double connect_timeout_seconds = 10;
    double total_timeout_seconds = 300;  // per attempt
    int max_attempts = 5;
    double backoff_base_seconds = 1;  // first retry waits about this long, doubling after
    double backoff_max_seconds = 60;  // also caps a server's Retry-After
    int max_concurrent = 4;
    uint64_t jitter_seed = 0;
};

// How a JSON POST ended, after retries.
struct EndpointReply {
    nlohmann::json body;
    int attempts = 0;
};

class OpenAiEndpoint {
public:
    explicit OpenAiEndpoint(EndpointConfig config);

    // POSTs `body` to base_url + path ("/chat/completions"). Errors name the last HTTP
    // status or transport failure, the server's own message, and the attempts made.
    Result<EndpointReply> post_json(std::string_view path, const nlohmann::json& body);
    const EndpointConfig& config() const { return m_config; }

private:
    class Slot;
    double backoff_seconds(int attempt);

    EndpointConfig m_config;
    std::mutex m_mutex;
    std::condition_variable m_free;
    int m_in_flight = 0;
    uint64_t m_jitter_state;
};

// Seconds to wait from a Retry-After value (delta-seconds or an HTTP date); negative when absent or unreadable.
double parse_retry_after(const std::string& value);
// True for the statuses worth another attempt: 408, 409, 429 and 5xx.
bool retryable_status(long status);

}  // namespace ascendopt
