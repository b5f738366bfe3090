// The run store: one SQLite database per run folder (run.db, WAL mode, schema version
// checked on open) holding the runs, the candidates (source files, stored once by content
// hash) and every evaluation (status, latency with unit and source, metrics, tiling config,
// seed, time). Inspect it with the sqlite3 shell. Each evaluation is committed in its own
// transaction, so a run killed at any moment (kill -9) loses nothing that was recorded.
// Not thread-safe: one RunStore per thread (SQLite serializes writers across processes).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/eval_result.h"
#include "util/sqlite.h"

namespace ascendopt {

struct EvaluationRecord {
    std::string candidate;        // content hash from put_candidate
    nlohmann::json config;        // the tiling configuration evaluated ({} for the original)
    EvalStatus status = EvalStatus::ok;
    std::string reason;
    std::optional<double> latency_us;  // source "sim" or "npu", unit "us"
    std::string latency_source = "sim";
    nlohmann::json metrics = nlohmann::json::object();
    uint64_t seed = 0;
};

class RunStore {
public:
    static constexpr int k_schema_version = 1;

    // Opens or creates `file`; a database of another schema version is an error that says so.
    static Result<RunStore> open(const std::filesystem::path& file);

    // The run with these settings: resumed when one exists (same method and settings), else new.
    Result<int64_t> open_run(const std::string& method, const nlohmann::json& settings);

    // Stores the files of a candidate once; returns its content hash.
    Result<std::string> put_candidate(const std::map<std::string, std::string>& files);
    Result<std::map<std::string, std::string>> candidate_files(const std::string& hash);

    Result<std::optional<EvaluationRecord>> find(int64_t run, const std::string& candidate, const nlohmann::json& config);
    Status record(int64_t run, const EvaluationRecord& e);
    Result<int64_t> count(int64_t run);
    // The evaluations of `run` made with this configuration (Stage I's candidates have none: {}).
    Result<int64_t> count(int64_t run, const nlohmann::json& config);
    // The latency of each evaluation in the order they were committed (nullopt for one that did
    // not pass), for progress-versus-budget curves; every run's when `run` is nullopt.
    Result<std::vector<std::optional<double>>> latencies(std::optional<int64_t> run = std::nullopt);

    // A stable hash of a configuration (keys sorted), the identity used with the candidate.
    static std::string config_hash(const nlohmann::json& config);

private:
    explicit RunStore(Db db) : m_db(std::move(db)) {}
    Db m_db;
};

}  // namespace ascendopt
