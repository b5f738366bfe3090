#include "util/http.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>

namespace ascendopt {
namespace {

void init_curl_once() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// The body so far; a server that sends more than `most` bytes is cut off (returning less than
// was given aborts the transfer).
struct BodySink {
    std::string* body;
    size_t most;
    bool too_big = false;
};

size_t append_body(char* data, size_t size, size_t count, void* user) {
    auto& sink = *static_cast<BodySink*>(user);
    if (sink.body->size() + size * count > sink.most) {
        sink.too_big = true;
        return 0;
    }
    sink.body->append(data, size * count);
    return size * count;
}

// Keeps "name: value" header lines; a redirect or 100-continue starts a new set.
size_t append_header(char* data, size_t size, size_t count, void* user) {
    auto& headers = *static_cast<std::map<std::string, std::string>*>(user);
    std::string line(data, size * count);
    if (line.rfind("HTTP/", 0) == 0) headers.clear();
    const size_t colon = line.find(':');
    if (colon != std::string::npos) {
        std::string name = line.substr(0, colon);
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        std::string value = line.substr(colon + 1);
        const auto not_space = [](unsigned char c) { return !std::isspace(c); };
        value.erase(value.begin(), std::find_if(value.begin(), value.end(), not_space));
        value.erase(std::find_if(value.rbegin(), value.rend(), not_space).base(), value.end());
        headers[name] = value;
    }
    return size * count;
}

HttpFailure failure_kind(CURLcode code) {
    switch (code) {
        case CURLE_COULDNT_CONNECT:
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_RESOLVE_PROXY: return HttpFailure::connect;
        case CURLE_OPERATION_TIMEDOUT: return HttpFailure::timeout;
        default: return HttpFailure::transport;
    }
}

}  // namespace

HttpOutcome http_post(const HttpRequest& request) {
    init_curl_once();
    std::unique_ptr<CURL, void (*)(CURL*)> curl(curl_easy_init(), &curl_easy_cleanup);
    if (!curl) return HttpError{HttpFailure::transport, "libcurl could not create a handle"};
    curl_slist* list = nullptr;
    for (const auto& h : request.headers) list = curl_slist_append(list, h.c_str());
    std::unique_ptr<curl_slist, void (*)(curl_slist*)> headers(list, &curl_slist_free_all);

    HttpResponse response;
    char error_text[CURL_ERROR_SIZE] = {0};
    CURL* h = curl.get();
    curl_easy_setopt(h, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.size()));
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, long(request.connect_timeout_seconds * 1000));
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, long(request.total_timeout_seconds * 1000));
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for DNS timeouts
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &append_body);
    BodySink sink{&response.body, request.max_response_bytes};
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &append_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, &response.headers);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error_text);
    const CURLcode code = curl_easy_perform(h);
    if (sink.too_big)
        return HttpError{HttpFailure::transport, "POST " + request.url + ": the reply is larger than " +
                                                     std::to_string(request.max_response_bytes >> 20) + " MiB; it was cut off and dropped"};
    if (code != CURLE_OK) {
        const std::string why = error_text[0] ? error_text : curl_easy_strerror(code);
        return HttpError{failure_kind(code), "POST " + request.url + ": " + why};
    }
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &response.status);
    return response;
}

}  // namespace ascendopt
