#include "eval/run_store.h"

#include <chrono>
#include <ctime>

#include "util/hash.h"

namespace ascendopt {
namespace {

constexpr const char* k_schema = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs(
  id INTEGER PRIMARY KEY,
  method TEXT NOT NULL,
  settings TEXT NOT NULL,
  created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS candidates(
  hash TEXT PRIMARY KEY,
  files TEXT NOT NULL,
  created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS evaluations(
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id),
  candidate TEXT NOT NULL REFERENCES candidates(hash),
  config TEXT NOT NULL,
  config_hash TEXT NOT NULL,
  status TEXT NOT NULL,
  reason TEXT NOT NULL,
  latency REAL,
  latency_unit TEXT NOT NULL DEFAULT 'us',
  latency_source TEXT NOT NULL,
  metrics TEXT NOT NULL,
  seed INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE(run_id, candidate, config_hash));
)sql";

std::string now_utc() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

}  // namespace

std::string RunStore::config_hash(const nlohmann::json& config) { return sha256_hex(config.dump()); }  // json objects keep keys sorted

Result<RunStore> RunStore::open(const std::filesystem::path& file) {
    auto db = Db::open(file);
    if (!db) return db.error();
    RunStore store(std::move(*db));
    Transaction tx(store.m_db);
    if (!tx.begun()) return tx.begun().error();
    if (auto s = store.m_db.exec(k_schema); !s) return s.error();
    auto get = store.m_db.prepare("SELECT value FROM meta WHERE key = 'schema_version'");
    if (!get) return get.error();
    auto row = get->step();
    if (!row) return row.error();
    if (*row) {
        const std::string found = get->column_text(0);
        if (found != std::to_string(k_schema_version))
            return make_error(file.string() + " has run-store schema version " + found + ", this ascendopt reads version " +
                                  std::to_string(k_schema_version),
                              "use the ascendopt that wrote it, or start a new run folder");
    } else {
        auto put = store.m_db.prepare("INSERT INTO meta(key, value) VALUES('schema_version', ?)");
        if (!put) return put.error();
        if (auto s = put->bind(1, std::to_string(k_schema_version)).run(); !s) return s.error();
    }
    if (auto s = tx.commit(); !s) return s.error();
    return store;
}

Result<int64_t> RunStore::open_run(const std::string& method, const nlohmann::json& settings) {
    auto find = m_db.prepare("SELECT id FROM runs WHERE method = ? AND settings = ?");
    if (!find) return find.error();
    auto row = find->bind(1, method).bind(2, settings.dump()).step();
    if (!row) return row.error();
    if (*row) return find->column_int(0);
    auto insert = m_db.prepare("INSERT INTO runs(method, settings, created_at) VALUES(?, ?, ?)");
    if (!insert) return insert.error();
    if (auto s = insert->bind(1, method).bind(2, settings.dump()).bind(3, now_utc()).run(); !s) return s.error();
    return m_db.last_insert_id();
}

Result<std::string> RunStore::put_candidate(const std::map<std::string, std::string>& files) {
    const nlohmann::json doc = files;
    const std::string hash = sha256_hex(doc.dump());
    auto insert = m_db.prepare("INSERT OR IGNORE INTO candidates(hash, files, created_at) VALUES(?, ?, ?)");
    if (!insert) return insert.error();
    if (auto s = insert->bind(1, hash).bind(2, doc.dump()).bind(3, now_utc()).run(); !s) return s.error();
    return hash;
}

Result<std::map<std::string, std::string>> RunStore::candidate_files(const std::string& hash) {
    auto q = m_db.prepare("SELECT files FROM candidates WHERE hash = ?");
    if (!q) return q.error();
    auto row = q->bind(1, hash).step();
    if (!row) return row.error();
    if (!*row) return make_error("no candidate " + hash + " in the run store");
    return nlohmann::json::parse(q->column_text(0)).get<std::map<std::string, std::string>>();
}

Result<std::optional<EvaluationRecord>> RunStore::find(int64_t run, const std::string& candidate, const nlohmann::json& config) {
    auto q = m_db.prepare(
        "SELECT status, reason, latency, latency_source, metrics, seed FROM evaluations "
        "WHERE run_id = ? AND candidate = ? AND config_hash = ?");
    if (!q) return q.error();
    auto row = q->bind(1, run).bind(2, candidate).bind(3, config_hash(config)).step();
    if (!row) return row.error();
    if (!*row) return std::optional<EvaluationRecord>();
    EvaluationRecord e;
    e.candidate = candidate;
    e.config = config;
    e.status = parse_status(q->column_text(0)).value_or(EvalStatus::run_failed);
    e.reason = q->column_text(1);
    if (!q->column_is_null(2)) e.latency_us = q->column_double(2);
    e.latency_source = q->column_text(3);
    e.metrics = nlohmann::json::parse(q->column_text(4), nullptr, false);
    e.seed = uint64_t(q->column_int(5));
    return std::optional<EvaluationRecord>(std::move(e));
}

Result<std::vector<std::optional<double>>> RunStore::latencies(std::optional<int64_t> run) {
    auto q = m_db.prepare("SELECT status, latency FROM evaluations WHERE ?1 IS NULL OR run_id = ?1 ORDER BY id");
    if (!q) return q.error();
    if (run) q->bind(1, *run);
    else q->bind(1, std::nullopt);
    std::vector<std::optional<double>> out;
    for (;;) {
        auto row = q->step();
        if (!row) return row.error();
        if (!*row) break;
        const bool ok = q->column_text(0) == status_name(EvalStatus::ok) && !q->column_is_null(1);
        out.push_back(ok ? std::optional<double>(q->column_double(1)) : std::nullopt);
    }
    return out;
}

Status RunStore::record(int64_t run, const EvaluationRecord& e) {
    auto insert = m_db.prepare(
        "INSERT INTO evaluations(run_id, candidate, config, config_hash, status, reason, latency, latency_source, metrics, "
        "seed, created_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!insert) return insert.error();
    insert->bind(1, run).bind(2, e.candidate).bind(3, e.config.dump()).bind(4, config_hash(e.config)).bind(5, status_name(e.status));
    insert->bind(6, e.reason);
    if (e.latency_us) insert->bind(7, *e.latency_us);
    else insert->bind(7, std::nullopt);
    insert->bind(8, e.latency_source).bind(9, e.metrics.dump()).bind(10, int64_t(e.seed)).bind(11, now_utc());
    return insert->run();  // autocommit: one transaction per evaluation
}

Result<int64_t> RunStore::count(int64_t run, const nlohmann::json& config) {
    auto q = m_db.prepare("SELECT COUNT(*) FROM evaluations WHERE run_id = ? AND config_hash = ?");
    if (!q) return q.error();
    auto row = q->bind(1, run).bind(2, config_hash(config)).step();
    if (!row) return row.error();
    return q->column_int(0);
}

Result<int64_t> RunStore::count(int64_t run) {
    auto q = m_db.prepare("SELECT COUNT(*) FROM evaluations WHERE run_id = ?");
    if (!q) return q.error();
    auto row = q->bind(1, run).step();
    if (!row) return row.error();
    return q->column_int(0);
}

}  // namespace ascendopt
