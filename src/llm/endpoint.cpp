#include "llm/endpoint.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <thread>

#include "util/json_bounded.h"
#include "util/random.h"

namespace ascendopt {

// Holds one of the endpoint's concurrency slots for its lifetime.
class OpenAiEndpoint::Slot {
public:
    explicit Slot(OpenAiEndpoint& e) : m_e(e) {
        std::unique_lock lock(m_e.m_mutex);
        m_e.m_free.wait(lock, [&] { return m_e.m_in_flight < std::max(1, m_e.m_config.max_concurrent); });
        ++m_e.m_in_flight;
    }
    ~Slot() {
        {
            std::lock_guard lock(m_e.m_mutex);
            --m_e.m_in_flight;
        }
        m_e.m_free.notify_one();
    }

private:
    OpenAiEndpoint& m_e;
};

namespace {

std::string trim_slash(std::string s) {
    while (!s.empty() && s.back() == '/') s.pop_back();
    return s;
}

// The server's own explanation from an error body ({"error": {"message": ...}}), else the body's start.
std::string server_message(const std::string& body) {
    const auto parsed = parse_bounded_json(body, "the error body");
    const nlohmann::json j = parsed ? *parsed : nlohmann::json();
    if (j.is_object() && j.contains("error")) {
        const auto& e = j["error"];
        if (e.is_object() && e.contains("message") && e["message"].is_string()) return e["message"];
        if (e.is_string()) return e;
    }
    return body.substr(0, 200);
}

std::string hint_for_status(long status) {
    if (status == 401 || status == 403) return "check the API key (ASCENDOPT_LLM_API_KEY or OPENAI_API_KEY; `ascendopt config show`)";
    if (status == 404) return "check the base URL (it usually ends in /v1) and the model name (`ascendopt config show`)";
    if (status == 400 || status == 422) return "the server refused the request's parameters; try without max_tokens/seed, or set llm.max_completion_tokens";
    return "the server kept failing; try again later, or raise llm.max_attempts";
}

}  // namespace

bool retryable_status(long status) { return status == 408 || status == 409 || status == 429 || status >= 500; }

double parse_retry_after(const std::string& value) {
    if (value.empty()) return -1;
    char* end = nullptr;
    const double seconds = std::strtod(value.c_str(), &end);
    if (end && *end == '\0' && seconds >= 0) return seconds;
    std::tm tm{};
    if (strptime(value.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm)) {
        const double delta = std::difftime(timegm(&tm), std::time(nullptr));
        return std::max(0.0, delta);
    }
    return -1;
}

OpenAiEndpoint::OpenAiEndpoint(EndpointConfig config) : m_config(std::move(config)), m_jitter_state(m_config.jitter_seed) {
    m_config.base_url = trim_slash(m_config.base_url);
}

// Exponential backoff with "equal jitter": half fixed, half random, so that clients that
// failed together do not retry together.
double OpenAiEndpoint::backoff_seconds(int attempt) {
    const double full = std::min(m_config.backoff_max_seconds, m_config.backoff_base_seconds * std::pow(2.0, attempt - 1));
    std::lock_guard lock(m_mutex);
    Rng rng(m_jitter_state++);
    return full / 2 + rng.uniform(0, full / 2);
}

Result<EndpointReply> OpenAiEndpoint::post_json(std::string_view path, const nlohmann::json& body) {
    HttpRequest request;
    request.url = m_config.base_url + std::string(path);
    request.headers = {"Content-Type: application/json", "Accept: application/json"};
    if (!m_config.api_key.empty()) request.headers.push_back("Authorization: Bearer " + m_config.api_key);
    request.body = body.dump();
    request.connect_timeout_seconds = m_config.connect_timeout_seconds;
    request.total_timeout_seconds = m_config.total_timeout_seconds;

    const int attempts = std::max(1, m_config.max_attempts);
    std::string last_failure;
    long last_status = 0;
    for (int attempt = 1; attempt <= attempts; ++attempt) {
        double wait = -1;
        {
            Slot slot(*this);
            const HttpOutcome outcome = http_post(request);
            if (!outcome.ok()) {
                last_failure = outcome.error().message;
            } else if (outcome.response().status == 200) {
                auto j = parse_bounded_json(outcome.response().body, "the reply");
                if (j && j->is_object()) return EndpointReply{std::move(*j), attempt};
                last_failure = j ? "the reply is not a JSON object (" + std::to_string(outcome.response().body.size()) + " bytes; truncated?)"
                                 : j.error().message + ", so not a JSON object (" + std::to_string(outcome.response().body.size()) +
                                       " bytes; truncated?)";
            } else {
                const auto& r = outcome.response();
                last_status = r.status;
                last_failure = "HTTP " + std::to_string(r.status) + ": " + server_message(r.body);
                if (!retryable_status(r.status))
                    return make_error("LLM request to " + request.url + " failed: " + last_failure, hint_for_status(r.status));
                const auto it = r.headers.find("retry-after");
                if (it != r.headers.end()) wait = std::min(parse_retry_after(it->second), m_config.backoff_max_seconds);
            }
        }
        if (attempt == attempts) break;
        if (wait < 0) wait = backoff_seconds(attempt);
        std::this_thread::sleep_for(std::chrono::duration<double>(wait));
    }
    return make_error("LLM request to " + request.url + " failed after " + std::to_string(attempts) + " attempts; last: " + last_failure,
                      last_status ? hint_for_status(last_status)
                                  : "is the server running at " + m_config.base_url + "? `ascendopt llm ping` checks");
}

}  // namespace ascendopt
