// The embeddings client (POST {base_url}/embeddings), for dense retrieval in the experience
// bank when an embedding model is configured. Thread-safe through its endpoint.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "llm/endpoint.h"

namespace ascendopt {

class EmbeddingsClient {
public:
    EmbeddingsClient(std::shared_ptr<OpenAiEndpoint> endpoint, std::string model);
    // One vector per input, in input order; every vector has the same length.
    Result<std::vector<std::vector<float>>> embed(const std::vector<std::string>& inputs);
    const std::string& model() const { return m_model; }

private:
    std::shared_ptr<OpenAiEndpoint> m_endpoint;
    std::string m_model;
};

// Cosine similarity; 0 when either vector is zero or their lengths differ.
double cosine_similarity(const std::vector<float>& a, const std::vector<float>& b);

}  // namespace ascendopt
