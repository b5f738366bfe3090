#include "util/sqlite.h"

#include "util/secrets.h"

namespace ascendopt {
namespace {

Error sqlite_error(sqlite3* db, std::string_view what) {
    return make_error(std::string(what) + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}

}  // namespace

Statement& Statement::bind(int i, int64_t v) {
    if (sqlite3_bind_int64(m_stmt.get(), i, v) != SQLITE_OK && m_bind_error) m_bind_error = sqlite_error(m_db, "bind");
    return *this;
}
Statement& Statement::bind(int i, double v) {
    if (sqlite3_bind_double(m_stmt.get(), i, v) != SQLITE_OK && m_bind_error) m_bind_error = sqlite_error(m_db, "bind");
    return *this;
}
// Text goes into the stores scrubbed of secrets (an error message may quote a key); blobs
// (tensors, archives) byte for byte.
Statement& Statement::bind(int i, std::string_view v) {
    const std::string clean = scrub_secrets(std::string(v));
    if (sqlite3_bind_text(m_stmt.get(), i, clean.data(), int(clean.size()), SQLITE_TRANSIENT) != SQLITE_OK && m_bind_error)
        m_bind_error = sqlite_error(m_db, "bind");
    return *this;
}
Statement& Statement::bind(int i, std::nullopt_t) {
    if (sqlite3_bind_null(m_stmt.get(), i) != SQLITE_OK && m_bind_error) m_bind_error = sqlite_error(m_db, "bind");
    return *this;
}
Statement& Statement::bind_blob(int i, std::string_view bytes) {
    if (sqlite3_bind_blob(m_stmt.get(), i, bytes.data(), int(bytes.size()), SQLITE_TRANSIENT) != SQLITE_OK && m_bind_error)
        m_bind_error = sqlite_error(m_db, "bind");
    return *this;
}

Result<bool> Statement::step() {
    if (!m_bind_error) return m_bind_error.error();
    const int rc = sqlite3_step(m_stmt.get());
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    return sqlite_error(m_db, "sqlite step");
}

Status Statement::run() {
    for (;;) {
        auto r = step();
        if (!r) return r.error();
        if (!*r) return ok_status();
    }
}

int64_t Statement::column_int(int i) const { return sqlite3_column_int64(m_stmt.get(), i); }
double Statement::column_double(int i) const { return sqlite3_column_double(m_stmt.get(), i); }
std::string Statement::column_text(int i) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_blob(m_stmt.get(), i));
    return p ? std::string(p, size_t(sqlite3_column_bytes(m_stmt.get(), i))) : std::string();
}
bool Statement::column_is_null(int i) const { return sqlite3_column_type(m_stmt.get(), i) == SQLITE_NULL; }
void Statement::reset() {
    sqlite3_reset(m_stmt.get());
    sqlite3_clear_bindings(m_stmt.get());
    m_bind_error = ok_status();
}

Result<Db> Db::open(const std::filesystem::path& file) {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(file.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
    Db db(raw);
    if (rc != SQLITE_OK) return sqlite_error(raw, "cannot open " + file.string());
    sqlite3_busy_timeout(raw, 10000);
    if (auto s = db.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"); !s)
        return make_error("cannot set up " + file.string() + ": " + s.error().message);
    return db;
}

Status Db::exec(std::string_view sql) {
    char* message = nullptr;
    const std::string text(sql);
    if (sqlite3_exec(m_db.get(), text.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return ok_status();
    Error e = make_error(std::string("sqlite: ") + (message ? message : "error"));
    sqlite3_free(message);
    return e;
}

Result<Statement> Db::prepare(std::string_view sql) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(m_db.get(), sql.data(), int(sql.size()), &stmt, nullptr) != SQLITE_OK)
        return sqlite_error(m_db.get(), "prepare");
    return Statement(m_db.get(), stmt);
}

Transaction::Transaction(Db& db) : m_db(db), m_begun(db.exec("BEGIN IMMEDIATE")) {}

Transaction::~Transaction() {
    if (m_begun && !m_done) (void)m_db.exec("ROLLBACK");
}

Status Transaction::commit() {
    if (!m_begun) return m_begun;
    auto s = m_db.exec("COMMIT");
    m_done = bool(s);
    return s;
}

}  // namespace ascendopt
