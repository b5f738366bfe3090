#include "bank/bank.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

#include "util/json_bounded.h"

namespace ascendopt {
namespace {

constexpr const char* k_schema = R"sql(
CREATE TABLE IF NOT EXISTS records (
  id INTEGER PRIMARY KEY,
  equivalence TEXT NOT NULL UNIQUE,
  family TEXT NOT NULL,
  operator TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE VIRTUAL TABLE IF NOT EXISTS records_text USING fts5(
  family, title, bottleneck, mechanism, causal_chain, reusable_when, guidance, expected_effect, keywords, diff
);
CREATE TABLE IF NOT EXISTS record_embeddings (
  record INTEGER NOT NULL REFERENCES records(id),
  model TEXT NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY (record, model)
);
)sql";

// The families' dots and the diff's identifiers become words FTS5 can match.
std::string searchable(const std::string& s) {
    std::string out = s;
    for (char& c : out)
        if (c == '.' || c == '_') c = ' ';
    return out;
}

// What is indexed of a field: the operator's own name removed, so that records are found by
// symptom and structure, never by which operator they came from.
std::string indexed(std::string text, const std::string& op) {
    for (size_t at = op.empty() ? std::string::npos : text.find(op); at != std::string::npos; at = text.find(op, at)) text.erase(at, op.size());
    return searchable(text);
}

Status index_text(Db& db, const ExperienceRecord& r) {
    auto del = db.prepare("DELETE FROM records_text WHERE rowid = ?1");
    if (!del) return del.error();
    if (auto st = del->bind(1, r.id).run(); !st) return st;
    auto ins = db.prepare(
        "INSERT INTO records_text (rowid, family, title, bottleneck, mechanism, causal_chain, reusable_when, guidance, "
        "expected_effect, keywords, diff) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
    if (!ins) return ins.error();
    std::string keywords;
    for (const auto& k : r.keywords) keywords += k + " ";
    const std::string& op = r.operator_name;
    ins->bind(1, r.id).bind(2, searchable(r.family)).bind(3, indexed(r.title, op)).bind(4, indexed(r.bottleneck, op));
    ins->bind(5, indexed(r.mechanism, op)).bind(6, indexed(r.causal_chain, op)).bind(7, indexed(r.reusable_when, op));
    ins->bind(8, indexed(r.guidance, op)).bind(9, indexed(r.expected_effect, op)).bind(10, indexed(keywords, op)).bind(11, indexed(r.diff, op));
    return ins->run();
}

Result<ExperienceRecord> row_record(const Statement& st, int id_col, int body_col) {
    auto body = parse_bounded_json(st.column_text(body_col), "the record");
    if (!body) return make_error("a bank record is damaged: " + body.error().message);
    auto r = record_from_json(*body);
    if (!r) return make_error("a bank record is damaged: " + r.error().message);
    r->id = st.column_int(id_col);
    return r;
}

}  // namespace

std::string fts_query(const std::string& text) {
    static const std::set<std::string> common = {"the", "and", "for", "with", "that", "this", "from", "are", "per", "its", "into", "than"};
    std::set<std::string> seen;
    std::string query, word;
    auto flush = [&] {
        if (word.size() >= 3 && !common.count(word) && seen.insert(word).second) query += (query.empty() ? "" : " OR ") + ("\"" + word + "\"");
        word.clear();
    };
    for (char c : searchable(text)) {
        if (std::isalnum(static_cast<unsigned char>(c))) word += char(std::tolower(static_cast<unsigned char>(c)));
        else flush();
    }
    flush();
    return query;
}

Result<Bank> Bank::open(const std::filesystem::path& file) {
    auto db = Db::open(file);
    if (!db) return db.error();
    if (auto st = db->exec(k_schema); !st)
        return make_error("cannot set up the experience bank " + file.string() + ": " + st.error().message,
                          "is it an ascendopt bank? (SQLite with FTS5)");
    return Bank(std::move(*db));
}

Result<Bank::Put> Bank::put(const ExperienceRecord& record) {
    Transaction tx(m_db);
    if (!tx.begun()) return tx.begun().error();
    ExperienceRecord r = record;
    const std::string key = r.equivalence_key();
    auto find = m_db.prepare("SELECT id, body FROM records WHERE equivalence = ?1");
    if (!find) return find.error();
    find->bind(1, key);
    auto row = find->step();
    if (!row) return row.error();
    Put out;
    if (*row) {
        auto existing = row_record(*find, 0, 1);
        if (!existing) return existing.error();
        out = {existing->id, true};
        // The same evidence twice (a resumed rewind, a re-import) adds nothing.
        int64_t fresh = 0;
        for (const auto& p : r.provenance)
            if (std::find(existing->provenance.begin(), existing->provenance.end(), p) == existing->provenance.end())
                existing->provenance.push_back(p), ++fresh;
        if (r.provenance.empty()) fresh = r.support;
        if (fresh == 0) return out;
        existing->support += fresh;
        r = *existing;
        auto up = m_db.prepare("UPDATE records SET body = ?1 WHERE id = ?2");
        if (!up) return up.error();
        if (auto st = up->bind(1, to_json(r).dump()).bind(2, r.id).run(); !st) return st.error();
    } else {
        auto ins = m_db.prepare("INSERT INTO records (equivalence, family, operator, body) VALUES (?1, ?2, ?3, ?4)");
        if (!ins) return ins.error();
        r.id = 0;
        if (auto st = ins->bind(1, key).bind(2, r.family).bind(3, r.operator_name).bind(4, to_json(r).dump()).run(); !st) return st.error();
        r.id = m_db.last_insert_id();
        out = {r.id, false};
        if (auto st = index_text(m_db, r); !st) return st.error();
    }
    if (auto st = tx.commit(); !st) return st.error();
    return out;
}

Result<std::vector<ExperienceRecord>> Bank::list() {
    auto st = m_db.prepare("SELECT id, body FROM records ORDER BY id");
    if (!st) return st.error();
    std::vector<ExperienceRecord> out;
    for (;;) {
        auto row = st->step();
        if (!row) return row.error();
        if (!*row) break;
        auto r = row_record(*st, 0, 1);
        if (!r) return r.error();
        out.push_back(std::move(*r));
    }
    return out;
}

Result<std::optional<ExperienceRecord>> Bank::get(int64_t id) {
    auto st = m_db.prepare("SELECT id, body FROM records WHERE id = ?1");
    if (!st) return st.error();
    st->bind(1, id);
    auto row = st->step();
    if (!row) return row.error();
    if (!*row) return std::optional<ExperienceRecord>();
    auto r = row_record(*st, 0, 1);
    if (!r) return r.error();
    return std::optional<ExperienceRecord>(std::move(*r));
}

Result<std::vector<Bank::Hit>> Bank::search_text(const std::string& query, size_t k) {
    std::vector<Hit> hits;
    const std::string match = fts_query(query);
    if (match.empty() || k == 0) return hits;
    auto st = m_db.prepare(
        "SELECT r.id, r.body, bm25(records_text) AS score FROM records_text JOIN records r ON r.id = records_text.rowid "
        "WHERE records_text MATCH ?1 ORDER BY score, r.id LIMIT ?2");
    if (!st) return st.error();
    st->bind(1, match).bind(2, int64_t(k));
    for (;;) {
        auto row = st->step();
        if (!row) return row.error();
        if (!*row) break;
        auto r = row_record(*st, 0, 1);
        if (!r) return r.error();
        hits.push_back({std::move(*r), -st->column_double(2)});
    }
    return hits;
}

Result<std::optional<std::vector<float>>> Bank::embedding(int64_t id, const std::string& model) {
    auto st = m_db.prepare("SELECT vector FROM record_embeddings WHERE record = ?1 AND model = ?2");
    if (!st) return st.error();
    st->bind(1, id).bind(2, model);
    auto row = st->step();
    if (!row) return row.error();
    if (!*row) return std::optional<std::vector<float>>();
    const std::string bytes = st->column_text(0);
    std::vector<float> v(bytes.size() / sizeof(float));
    std::memcpy(v.data(), bytes.data(), v.size() * sizeof(float));
    return std::optional<std::vector<float>>(std::move(v));
}

Status Bank::put_embedding(int64_t id, const std::string& model, const std::vector<float>& v) {
    auto st = m_db.prepare("INSERT OR REPLACE INTO record_embeddings (record, model, vector) VALUES (?1, ?2, ?3)");
    if (!st) return st.error();
    return st->bind(1, id).bind(2, model).bind_blob(3, std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float))).run();
}

}  // namespace ascendopt
