// Record and replay. A RecordingProposer wraps any proposer and appends each exchange to a
// cassette: JSON lines, one per call, keyed by request_key() (model, messages, parameters),
// with secrets scrubbed from everything written. A ReplayProposer answers from a cassette
// alone, so a study re-runs without an LLM; a request it has no answer for is an error that
// says so, never a made-up reply. The n-th identical request gets the n-th recorded answer
// (Best-of-N asks the same question several times). Both are thread-safe.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include "llm/proposer.h"

namespace ascendopt {

class RecordingProposer final : public Proposer {
public:
    // Appends to `cassette` (created if missing). `secrets` are scrubbed from what is written.
    RecordingProposer(std::unique_ptr<Proposer> inner, std::filesystem::path cassette, std::vector<std::string> secrets);
    Result<ChatReply> propose(const ChatRequest& request) override;
    std::string describe() const override { return m_inner->describe() + ", recording to " + m_cassette.string(); }
    std::string model() const override { return m_inner->model(); }

private:
    std::unique_ptr<Proposer> m_inner;
    std::filesystem::path m_cassette;
    std::vector<std::string> m_secrets;
    std::mutex m_mutex;
};

// For resumable runs: answers a request from the run's own cassette while it holds an unused
// answer for it (the n-th identical request gets the n-th answer), else asks `inner` and
// appends the exchange. A run killed and restarted therefore sees the same replies in the same
// order and pays for no call twice, even with a sampling LLM.
class ResumingProposer final : public Proposer {
public:
    static Result<std::unique_ptr<ResumingProposer>> open(std::unique_ptr<Proposer> inner, const std::filesystem::path& cassette,
                                                          std::vector<std::string> secrets);
    Result<ChatReply> propose(const ChatRequest& request) override;
    std::string describe() const override { return m_recorder->describe(); }
    std::string model() const override { return m_recorder->model(); }
    size_t replayed() const { return m_replayed; }

private:
    ResumingProposer() = default;
    std::unique_ptr<Proposer> m_past;  // null when the cassette did not exist yet
    std::unique_ptr<RecordingProposer> m_recorder;
    std::mutex m_mutex;
    size_t m_replayed = 0;
};

class ReplayProposer final : public Proposer {
public:
    // Reads the whole cassette; an unreadable file or line is an error naming the line.
    // `model` empty: the model the cassette was recorded with (it must hold only one).
    static Result<std::unique_ptr<ReplayProposer>> open(const std::filesystem::path& cassette, std::string model);
    Result<ChatReply> propose(const ChatRequest& request) override;
    std::string describe() const override { return "replay of " + m_cassette.string() + " (" + m_model + ")"; }
    std::string model() const override { return m_model; }
    size_t size() const { return m_entries; }

private:
    struct Recorded {
        std::vector<nlohmann::json> answers;  // in recording order
        size_t next = 0;
    };
    ReplayProposer() = default;
    std::filesystem::path m_cassette;
    std::string m_model;
    std::map<std::string, Recorded> m_by_key;
    size_t m_entries = 0;
    std::mutex m_mutex;
};

}  // namespace ascendopt
