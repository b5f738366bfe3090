// One blocking HTTP POST over libcurl, for the LLM clients. A transport failure (refused
// connection, DNS, timeout, a reset mid-reply) is an Error value whose `kind` says which, so
// callers decide what to retry; any HTTP status, 4xx and 5xx included, is a response.
// Thread-safe: each call uses its own easy handle (curl_global_init runs once, first).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "util/result.h"

namespace ascendopt {

struct HttpRequest {
    std::string url;
    std::vector<std::string> headers;  // "Name: value"
    std::string body;
    double connect_timeout_seconds = 10;
    double total_timeout_seconds = 120;
    size_t max_response_bytes = size_t(16) << 20;  // a longer reply is a failure, not a buffer
};

struct HttpResponse {
    long status = 0;
    std::map<std::string, std::string> headers;  // names lowercased; the last value wins
    std::string body;
};

enum class HttpFailure { connect, timeout, transport };

struct HttpError {
    HttpFailure kind = HttpFailure::transport;
    std::string message;  // libcurl's explanation, with the URL
};

// The outcome of a request: a response (any status) or a transport failure.
class HttpOutcome {
public:
    HttpOutcome(HttpResponse r) : m_response(std::move(r)), m_ok(true) {}  // NOLINT
    HttpOutcome(HttpError e) : m_error(std::move(e)) {}                    // NOLINT
    bool ok() const { return m_ok; }
    const HttpResponse& response() const { return m_response; }
    const HttpError& error() const { return m_error; }

private:
    HttpResponse m_response;
    HttpError m_error;
    bool m_ok = false;
};

HttpOutcome http_post(const HttpRequest& request);

}  // namespace ascendopt
