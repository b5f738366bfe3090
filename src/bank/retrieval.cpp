#include "bank/retrieval.h"

#include <algorithm>

namespace ascendopt {
namespace {

Result<std::vector<Bank::Hit>> dense(Bank& bank, const std::string& symptoms, const RetrievalOptions& o) {
    auto records = bank.list();
    if (!records) return records.error();
    std::vector<std::vector<float>> vectors(records->size());
    std::vector<std::string> missing_text;
    std::vector<size_t> missing_index;
    for (size_t i = 0; i < records->size(); ++i) {
        auto cached = bank.embedding((*records)[i].id, o.embeddings->model());
        if (!cached) return cached.error();
        if (*cached) vectors[i] = std::move(**cached);
        else missing_text.push_back(embedding_text((*records)[i])), missing_index.push_back(i);
    }
    missing_text.push_back(symptoms);
    auto embedded = o.embeddings->embed(missing_text);
    if (!embedded) return embedded.error();
    for (size_t j = 0; j < missing_index.size(); ++j) {
        vectors[missing_index[j]] = (*embedded)[j];
        if (auto st = bank.put_embedding((*records)[missing_index[j]].id, o.embeddings->model(), (*embedded)[j]); !st) return st.error();
    }
    const auto& query = embedded->back();
    std::vector<Bank::Hit> hits;
    for (size_t i = 0; i < records->size(); ++i)
        if ((*records)[i].operator_name != o.exclude_operator) hits.push_back({(*records)[i], cosine_similarity(query, vectors[i])});
    std::stable_sort(hits.begin(), hits.end(), [](const auto& a, const auto& b) { return a.score > b.score; });
    if (hits.size() > o.top_k) hits.resize(o.top_k);
    return hits;
}

}  // namespace

std::string embedding_text(const ExperienceRecord& r) {
    return r.family + ": " + r.title + ". Bottleneck: " + r.bottleneck + ". Mechanism: " + r.mechanism + ". Reusable when: " + r.reusable_when;
}

Result<Retrieved> retrieve(Bank& bank, const std::string& symptoms, const RetrievalOptions& o) {
    Retrieved out;
    if (o.embeddings) {
        auto hits = dense(bank, symptoms, o);
        if (hits) {
            out.hits = std::move(*hits);
            out.method = "dense";
            return out;
        }
        out.note = "dense retrieval failed (" + hits.error().message + "); used BM25";
    }
    // Ask for more than k: the operator's own records are dropped afterwards.
    auto hits = bank.search_text(symptoms, o.top_k + 16);
    if (!hits) return hits.error();
    for (auto& h : *hits)
        if (h.record.operator_name != o.exclude_operator && out.hits.size() < o.top_k) out.hits.push_back(std::move(h));
    out.method = "bm25";
    return out;
}

}  // namespace ascendopt
