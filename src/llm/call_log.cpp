#include "llm/call_log.h"

#include <chrono>

#include "util/secrets.h"

namespace ascendopt {
namespace {

constexpr const char* k_schema = R"sql(
CREATE TABLE IF NOT EXISTS llm_calls (
  id INTEGER PRIMARY KEY,
  run INTEGER,
  at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  purpose TEXT NOT NULL,
  proposer TEXT NOT NULL,
  model TEXT NOT NULL,
  params TEXT NOT NULL,
  messages_hash TEXT NOT NULL,
  request_key TEXT NOT NULL,
  prompt_tokens INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  usage_estimated INTEGER NOT NULL,
  latency_s REAL NOT NULL,
  cost_usd REAL NOT NULL,
  attempts INTEGER NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'error')),
  error TEXT
);
CREATE INDEX IF NOT EXISTS llm_calls_run ON llm_calls(run);
)sql";

}  // namespace

Result<std::unique_ptr<SqliteCallLog>> SqliteCallLog::open(const std::filesystem::path& db_file) {
    auto db = Db::open(db_file);
    if (!db) return db.error();
    if (auto made = db->exec(k_schema); !made) return made.error();
    return std::unique_ptr<SqliteCallLog>(new SqliteCallLog(std::move(*db)));
}

Status SqliteCallLog::record(const CallRecord& r) {
    std::lock_guard lock(m_mutex);
    auto st = m_db.prepare(
        "INSERT INTO llm_calls (run, purpose, proposer, model, params, messages_hash, request_key, prompt_tokens, "
        "completion_tokens, usage_estimated, latency_s, cost_usd, attempts, outcome, error) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)");
    if (!st) return st.error();
    if (r.run) st->bind(1, *r.run);
    else st->bind(1, std::nullopt);
    st->bind(2, r.purpose).bind(3, r.proposer).bind(4, r.model).bind(5, r.params.dump()).bind(6, r.messages_hash);
    st->bind(7, r.request_key).bind(8, r.usage.prompt_tokens).bind(9, r.usage.completion_tokens);
    st->bind(10, int64_t(r.usage_estimated)).bind(11, r.latency_seconds).bind(12, r.cost_usd).bind(13, int64_t(r.attempts));
    st->bind(14, std::string_view(r.ok ? "ok" : "error"));
    if (r.ok) st->bind(15, std::nullopt);
    else st->bind(15, r.error);
    return st->run();
}

Result<SqliteCallLog::Totals> SqliteCallLog::totals(std::optional<int64_t> run) {
    std::lock_guard lock(m_mutex);
    auto st = m_db.prepare(
        "SELECT COUNT(*), COALESCE(SUM(outcome = 'error'), 0), COALESCE(SUM(prompt_tokens), 0), COALESCE(SUM(completion_tokens), 0), "
        "COALESCE(SUM(cost_usd), 0), COALESCE(SUM(latency_s), 0) FROM llm_calls WHERE ?1 IS NULL OR run = ?1");
    if (!st) return st.error();
    if (run) st->bind(1, *run);
    else st->bind(1, std::nullopt);
    auto row = st->step();
    if (!row) return row.error();
    return Totals{st->column_int(0), st->column_int(1), st->column_int(2), st->column_int(3), st->column_double(4), st->column_double(5)};
}

AccountedProposer::AccountedProposer(std::unique_ptr<Proposer> inner, std::shared_ptr<CallLog> log, std::optional<int64_t> run,
                                     std::vector<std::string> secrets)
    : m_inner(std::move(inner)), m_log(std::move(log)), m_run(run), m_secrets(std::move(secrets)) {}

Result<ChatReply> AccountedProposer::propose(const ChatRequest& request) {
    const auto start = std::chrono::steady_clock::now();
    auto reply = m_inner->propose(request);
    if (reply && reply->resumed) return reply;  // its call was recorded by the run that made it
    CallRecord r;
    r.run = m_run;
    r.purpose = request.purpose;
    r.proposer = scrub_secrets(m_inner->describe(), m_secrets);
    r.model = m_inner->model();
    r.params = to_json(request.params);
    r.messages_hash = messages_hash(request.messages);
    r.request_key = request_key(m_inner->model(), request);
    r.ok = reply.ok();
    if (reply) {
        r.usage = reply->usage;
        r.usage_estimated = reply->usage_estimated;
        r.latency_seconds = reply->latency_seconds;
        r.cost_usd = reply->cost_usd;
        r.attempts = reply->attempts;
        if (!reply->model.empty()) r.model = reply->model;
    } else {
        r.latency_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        r.error = scrub_secrets(reply.error().message, m_secrets);
    }
    if (auto stored = m_log->record(r); !stored && reply)
        return make_error("cannot record the LLM call: " + stored.error().message, "check the run database is writable");
    return reply;
}

}  // namespace ascendopt
