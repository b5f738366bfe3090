#include "scripted_llm_server.h"

#include <httplib.h>

#include <chrono>

namespace ascendopt::testing {
namespace {

nlohmann::json chat_body(const Scripted& s, const std::string& model) {
    nlohmann::json message = {{"role", "assistant"}};
    if (!s.no_content) message["content"] = s.content;
    return {{"id", "chatcmpl-test"},
            {"object", "chat.completion"},
            {"model", model},
            {"choices", {{{"index", 0}, {"message", message}, {"finish_reason", "stop"}}}},
            {"usage", {{"prompt_tokens", s.prompt_tokens}, {"completion_tokens", s.completion_tokens},
                       {"total_tokens", s.prompt_tokens + s.completion_tokens}}}};
}

// A deterministic embedding: letter counts of the input, so similar texts are similar.
nlohmann::json embeddings_body(const nlohmann::json& request) {
    nlohmann::json data = nlohmann::json::array();
    const auto inputs = request.value("input", nlohmann::json::array());
    for (size_t i = 0; i < inputs.size(); ++i) {
        std::vector<float> v(26, 0.f);
        for (char c : inputs[i].get<std::string>())
            if (std::isalpha(static_cast<unsigned char>(c))) v[size_t(std::tolower(c) - 'a')] += 1;
        data.push_back({{"object", "embedding"}, {"index", i}, {"embedding", v}});
    }
    return {{"object", "list"}, {"data", data}, {"model", request.value("model", "")}};
}

}  // namespace

ScriptedLlmServer::ScriptedLlmServer() : m_server(std::make_unique<httplib::Server>()) {
    auto handle = [this](const httplib::Request& req, httplib::Response& res) {
        const int now = ++m_in_flight;
        for (int seen = m_max_in_flight; now > seen && !m_max_in_flight.compare_exchange_weak(seen, now);) {
        }
        Received r{req.path, {}, nlohmann::json::parse(req.body, nullptr, false)};
        for (const auto& [k, v] : req.headers) r.headers[k] = v;
        {
            std::lock_guard lock(m_mutex);
            m_received.push_back(r);
        }
        const Scripted s = next(r.body);
        if (s.delay_seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(s.delay_seconds));
        res.status = s.status;
        for (const auto& [k, v] : s.headers) res.set_header(k, v);
        if (!s.raw_body.empty()) {
            res.set_content(s.raw_body, "application/json");
        } else if (s.status != 200) {
            res.set_content(nlohmann::json{{"error", {{"message", "scripted failure " + std::to_string(s.status)}}}}.dump(), "application/json");
        } else if (req.path == "/v1/embeddings") {
            res.set_content(embeddings_body(r.body).dump(), "application/json");
        } else {
            res.set_content(chat_body(s, r.body.is_object() ? r.body.value("model", "") : "").dump(), "application/json");
        }
        --m_in_flight;
    };
    m_server->Post("/v1/chat/completions", handle);
    m_server->Post("/v1/embeddings", handle);
    m_server->new_task_queue = [] { return new httplib::ThreadPool(16); };
    m_port = m_server->bind_to_any_port("127.0.0.1");
    // bind_to_any_port already listens: requests queue in the backlog until the loop accepts.
    m_thread = std::thread([this] { m_server->listen_after_bind(); });
    // stop() is a no-op until the loop runs, so a server destroyed at once would never end.
    while (!m_server->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

ScriptedLlmServer::~ScriptedLlmServer() {
    m_server->stop();
    m_thread.join();
}

std::string ScriptedLlmServer::base_url() const { return "http://127.0.0.1:" + std::to_string(m_port) + "/v1"; }

void ScriptedLlmServer::push(Scripted reply) {
    std::lock_guard lock(m_mutex);
    m_queue.push_back(std::move(reply));
}

void ScriptedLlmServer::set_default(Scripted reply) {
    std::lock_guard lock(m_mutex);
    m_default = std::move(reply);
}

void ScriptedLlmServer::set_responder(std::function<Scripted(const nlohmann::json&)> f) {
    std::lock_guard lock(m_mutex);
    m_responder = std::move(f);
}

std::vector<Received> ScriptedLlmServer::received() const {
    std::lock_guard lock(m_mutex);
    return m_received;
}

Scripted ScriptedLlmServer::next(const nlohmann::json& body) {
    std::function<Scripted(const nlohmann::json&)> responder;
    {
        std::lock_guard lock(m_mutex);
        if (!m_queue.empty()) {
            Scripted s = m_queue.front();
            m_queue.pop_front();
            return s;
        }
        if (!m_responder) return m_default;
        responder = m_responder;
    }
    return responder(body);
}

}  // namespace ascendopt::testing
