// Retrieval of experience for a bottleneck: BM25 over the bank's text index by default, dense
// (cosine over embeddings from the configured /embeddings model, cached in the bank) when an
// embeddings client is given. If the embeddings endpoint fails, retrieval falls back to BM25
// and says so in `note`.
#pragma once

#include "bank/bank.h"
#include "llm/embeddings.h"

namespace ascendopt {

struct RetrievalOptions {
    size_t top_k = 3;
    EmbeddingsClient* embeddings = nullptr;  // not owned; null: BM25
    std::string exclude_operator;            // leave out this operator's own records (they describe it, not help it)
};

struct Retrieved {
    std::vector<Bank::Hit> hits;
    std::string method;  // "bm25" or "dense"
    std::string note;    // why dense retrieval fell back, when it did
};

Result<Retrieved> retrieve(Bank& bank, const std::string& symptoms, const RetrievalOptions& options);

// The text of a record that dense retrieval embeds.
std::string embedding_text(const ExperienceRecord& r);

}  // namespace ascendopt
