// The experience bank: records in one SQLite file with an FTS5 index over their text (family,
// title, symptoms, mechanism, guidance, keywords and the diff's identifiers, never the
// operator's name, so retrieval goes by symptom and structure, not identity). Equivalent
// records (same operator, family and diff) merge: support adds up and provenance is kept;
// evidence already recorded (the same provenance entry) is not counted twice.
// Each put is one transaction, so a killed writer leaves the bank as it was before or after.
// Not thread-safe: one Bank per thread.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bank/record.h"
#include "util/sqlite.h"

namespace ascendopt {

class Bank {
public:
    static Result<Bank> open(const std::filesystem::path& file);

    struct Put {
        int64_t id = 0;
        bool merged = false;  // an equivalent record was there already
    };
    Result<Put> put(const ExperienceRecord& r);
    Result<std::vector<ExperienceRecord>> list();
    Result<std::optional<ExperienceRecord>> get(int64_t id);

    struct Hit {
        ExperienceRecord record;
        double score = 0;  // higher is better (negated BM25, or cosine similarity)
    };
    // BM25 over the indexed text for any of the query's words; best first, at most k.
    Result<std::vector<Hit>> search_text(const std::string& query, size_t k);

    // Embeddings cached per record and model, for dense retrieval.
    Result<std::optional<std::vector<float>>> embedding(int64_t id, const std::string& model);
    Status put_embedding(int64_t id, const std::string& model, const std::vector<float>& v);

private:
    explicit Bank(Db db) : m_db(std::move(db)) {}
    Db m_db;
};

// The FTS5 query for free text: its words (letters, digits, underscores; 3+ characters, common
// words dropped), each quoted, joined by OR. Empty when nothing is left.
std::string fts_query(const std::string& text);

}  // namespace ascendopt
