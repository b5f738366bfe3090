// A small RAII layer over SQLite: a connection (WAL journal, foreign keys on, busy timeout),
// prepared statements with typed binding and reading, and transactions. Every failure is a
// value carrying SQLite's message. A Db is used from one thread at a time.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "util/result.h"

namespace ascendopt {

class Statement {
public:
    Statement(sqlite3* db, sqlite3_stmt* stmt) : m_db(db), m_stmt(stmt, &sqlite3_finalize) {}

    // Binds by 1-based index; returns *this for chaining.
    Statement& bind(int i, int64_t v);
    Statement& bind(int i, double v);
    Statement& bind(int i, std::string_view v);
    Statement& bind(int i, std::nullopt_t);
    Statement& bind_blob(int i, std::string_view bytes);

    // Runs to the next row: true when a row is available, false when done; errors as values.
    Result<bool> step();
    Status run();  // step until done

    int64_t column_int(int i) const;
    double column_double(int i) const;
    std::string column_text(int i) const;
    bool column_is_null(int i) const;
    void reset();

private:
    sqlite3* m_db;
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> m_stmt;
    Status m_bind_error = ok_status();
};

class Db {
public:
    // Opens (creating if needed) the database file in WAL mode.
    static Result<Db> open(const std::filesystem::path& file);

    Status exec(std::string_view sql);
    Result<Statement> prepare(std::string_view sql);
    int64_t last_insert_id() const { return sqlite3_last_insert_rowid(m_db.get()); }
    int changes() const { return sqlite3_changes(m_db.get()); }

private:
    explicit Db(sqlite3* db) : m_db(db, &sqlite3_close_v2) {}
    std::unique_ptr<sqlite3, int (*)(sqlite3*)> m_db;
};

// BEGIN IMMEDIATE on construction, ROLLBACK on destruction unless commit() succeeded.
class Transaction {
public:
    explicit Transaction(Db& db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    const Status& begun() const { return m_begun; }
    Status commit();

private:
    Db& m_db;
    Status m_begun;
    bool m_done = false;
};

}  // namespace ascendopt
