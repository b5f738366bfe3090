#include "llm/cassette.h"

#include <fstream>
#include <set>

#include "util/secrets.h"
#include "util/files.h"
#include "util/json_bounded.h"

namespace ascendopt {
namespace {

nlohmann::json reply_json(const ChatReply& r) {
    return {{"text", r.text},
            {"model", r.model},
            {"usage", {{"prompt_tokens", r.usage.prompt_tokens}, {"completion_tokens", r.usage.completion_tokens}}},
            {"usage_estimated", r.usage_estimated},
            {"finish_reason", r.finish_reason},
            {"cost_usd", r.cost_usd}};
}

ChatReply reply_from_json(const nlohmann::json& j) {
    ChatReply r;
    r.text = j.value("text", "");
    r.model = j.value("model", "");
    if (j.contains("usage")) {
        r.usage.prompt_tokens = j["usage"].value("prompt_tokens", int64_t(0));
        r.usage.completion_tokens = j["usage"].value("completion_tokens", int64_t(0));
    }
    r.usage_estimated = j.value("usage_estimated", false);
    r.finish_reason = j.value("finish_reason", "");
    r.cost_usd = j.value("cost_usd", 0.0);
    return r;
}

std::string excerpt(const std::string& text, size_t n) {
    std::string s = text.substr(0, n);
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    return text.size() > n ? s + "..." : s;
}

}  // namespace

RecordingProposer::RecordingProposer(std::unique_ptr<Proposer> inner, std::filesystem::path cassette, std::vector<std::string> secrets)
    : m_inner(std::move(inner)), m_cassette(std::move(cassette)), m_secrets(std::move(secrets)) {}

Result<ChatReply> RecordingProposer::propose(const ChatRequest& request) {
    auto reply = m_inner->propose(request);
    nlohmann::json line = {{"key", request_key(m_inner->model(), request)},
                           {"model", m_inner->model()},
                           {"messages", to_json(request.messages)},
                           {"params", to_json(request.params)}};
    if (reply) line["reply"] = reply_json(*reply);
    else line["error"] = {{"message", reply.error().message}, {"hint", reply.error().hint}};
    const std::string text = scrub_secrets(line.dump(), m_secrets) + "\n";
    std::lock_guard lock(m_mutex);
    std::ofstream out(m_cassette, std::ios::app | std::ios::binary);
    out << text;
    out.flush();
    if (!out) return make_error("cannot append to the cassette " + m_cassette.string(), "check the folder exists and is writable");
    return reply;
}

Result<std::unique_ptr<ResumingProposer>> ResumingProposer::open(std::unique_ptr<Proposer> inner, const std::filesystem::path& cassette,
                                                                 std::vector<std::string> secrets) {
    std::unique_ptr<ResumingProposer> p(new ResumingProposer());
    if (std::filesystem::exists(cassette)) {
        auto past = ReplayProposer::open(cassette, inner->model());
        if (!past) return past.error();
        p->m_past = std::move(*past);
    }
    p->m_recorder = std::make_unique<RecordingProposer>(std::move(inner), cassette, std::move(secrets));
    return p;
}

Result<ChatReply> ResumingProposer::propose(const ChatRequest& request) {
    if (m_past) {
        auto answer = m_past->propose(request);
        if (answer || answer.error().message.find("replay miss") == std::string::npos) {
            std::lock_guard lock(m_mutex);
            ++m_replayed;
            if (answer) answer->resumed = true;
            return answer;
        }
    }
    return m_recorder->propose(request);
}

Result<std::unique_ptr<ReplayProposer>> ReplayProposer::open(const std::filesystem::path& cassette, std::string model) {
    auto bytes = read_text(cassette);
    if (!bytes) return make_error("cannot read the cassette " + cassette.string(), "record one first with llm.record (--llm-record FILE)");
    std::unique_ptr<ReplayProposer> p(new ReplayProposer());
    p->m_cassette = cassette;
    std::set<std::string> models;
    size_t line_no = 0, start = 0;
    const std::string& text = *bytes;
    while (start < text.size()) {
        const size_t end = std::min(text.find('\n', start), text.size());
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        ++line_no;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const auto parsed = parse_bounded_json(line, "the entry");
        const nlohmann::json j = parsed ? *parsed : nlohmann::json();
        if (!j.is_object() || !j.contains("key") || !j["key"].is_string() ||
            !(j.contains("reply") || j.contains("error")))
            return make_error(cassette.string() + ":" + std::to_string(line_no) + ": not a cassette entry",
                              "each line must be a JSON object with \"key\" and \"reply\" or \"error\"");
        p->m_by_key[j["key"].get<std::string>()].answers.push_back(j);
        if (j.contains("model") && j["model"].is_string()) models.insert(j["model"].get<std::string>());
        ++p->m_entries;
    }
    if (model.empty()) {
        if (models.size() != 1)
            return make_error("the cassette " + cassette.string() + " holds " + std::to_string(models.size()) + " models",
                              "name the one to replay with llm.model (--llm-model)");
        model = *models.begin();
    }
    p->m_model = std::move(model);
    return p;
}

Result<ChatReply> ReplayProposer::propose(const ChatRequest& request) {
    const std::string key = request_key(m_model, request);
    nlohmann::json answer;
    {
        std::lock_guard lock(m_mutex);
        auto it = m_by_key.find(key);
        const size_t have = it == m_by_key.end() ? 0 : it->second.answers.size();
        if (have == 0 || it->second.next >= have) {
            const std::string last = request.messages.empty() ? "" : excerpt(request.messages.back().content, 80);
            return make_error("replay miss: " + m_cassette.string() + " has " +
                                  (have ? std::to_string(have) + " replies for this request, all used" : "no reply for this request") +
                                  " (key " + key.substr(0, 12) + ", model " + m_model + ", " + std::to_string(request.messages.size()) +
                                  " messages, last: \"" + last + "\")",
                              "re-record against a live endpoint (llm.record), or check that the model, prompt templates and "
                              "parameters match the recording");
        }
        answer = it->second.answers[it->second.next++];
    }
    if (answer.contains("error")) {
        const auto& e = answer["error"];
        return make_error(e.value("message", "recorded failure") + " (replayed)", e.value("hint", ""));
    }
    ChatReply reply = reply_from_json(answer["reply"]);
    reply.latency_seconds = 0;
    return reply;
}

}  // namespace ascendopt
