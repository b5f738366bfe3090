// Accounting of LLM calls. Every call, successful or not, becomes a CallRecord: model,
// parameters, token usage, latency, cost, attempts, outcome and a hash of the messages (never
// the messages, never the key). SqliteCallLog keeps them in the run database's `llm_calls`
// table; AccountedProposer wraps any proposer and records each call it makes.
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>

#include "llm/proposer.h"
#include "util/sqlite.h"

namespace ascendopt {

struct CallRecord {
    std::optional<int64_t> run;  // the run it belongs to, when there is one
    std::string purpose;
    std::string proposer;  // describe() of the kind
    std::string model;
    nlohmann::json params = nlohmann::json::object();
    std::string messages_hash;
    std::string request_key;
    TokenUsage usage;
    bool usage_estimated = false;
    double latency_seconds = 0;
    double cost_usd = 0;
    int attempts = 0;
    bool ok = false;
    std::string error;  // the failure, secrets scrubbed; empty when ok
};

class CallLog {
public:
    virtual ~CallLog() = default;
    // Stores one record; thread-safe. Failing to store is reported, not fatal to the call.
    virtual Status record(const CallRecord& r) = 0;
};

class SqliteCallLog final : public CallLog {
public:
    // Opens the run database (the run store's run.db, or any SQLite file) and creates the
    // llm_calls table when missing.
    static Result<std::unique_ptr<SqliteCallLog>> open(const std::filesystem::path& db_file);
    Status record(const CallRecord& r) override;

    struct Totals {
        int64_t calls = 0, failed = 0, prompt_tokens = 0, completion_tokens = 0;
        double cost_usd = 0, latency_seconds = 0;
    };
    // Sums over the calls of `run` (all calls when nullopt).
    Result<Totals> totals(std::optional<int64_t> run = std::nullopt);

private:
    explicit SqliteCallLog(Db db) : m_db(std::move(db)) {}
    Db m_db;
    std::mutex m_mutex;
};

class AccountedProposer final : public Proposer {
public:
    AccountedProposer(std::unique_ptr<Proposer> inner, std::shared_ptr<CallLog> log, std::optional<int64_t> run,
                      std::vector<std::string> secrets);
    Result<ChatReply> propose(const ChatRequest& request) override;
    std::string describe() const override { return m_inner->describe(); }
    std::string model() const override { return m_inner->model(); }

private:
    std::unique_ptr<Proposer> m_inner;
    std::shared_ptr<CallLog> m_log;
    std::optional<int64_t> m_run;
    std::vector<std::string> m_secrets;
};

}  // namespace ascendopt
