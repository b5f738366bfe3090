#include "llm/factory.h"

#include "llm/cassette.h"

namespace ascendopt {
namespace {

Result<std::unique_ptr<Proposer>> make_inner(const LlmConfig& c) {
    if (c.kind == "openai") {
        if (c.endpoint.base_url.empty())
            return make_error("llm.base_url is not set", "set ASCENDOPT_LLM_BASE_URL, e.g. http://127.0.0.1:8000/v1");
        if (c.model.empty()) return make_error("llm.model is not set", "set ASCENDOPT_LLM_MODEL to a model the server serves");
        return std::unique_ptr<Proposer>(std::make_unique<ChatClient>(std::make_shared<OpenAiEndpoint>(c.endpoint), c.model, c.prices));
    }
    if (c.kind == "command") {
        if (c.command.command.empty()) return make_error("llm.command is not set", "set ASCENDOPT_LLM_COMMAND to a shell command");
        return std::unique_ptr<Proposer>(std::make_unique<CommandProposer>(c.command));
    }
    if (c.kind == "replay") {
        auto replay = ReplayProposer::open(c.replay, c.model);
        if (!replay) return replay.error();
        return std::unique_ptr<Proposer>(std::move(*replay));
    }
    if (c.kind.empty())
        return make_error("no LLM is configured",
                          "set ASCENDOPT_LLM_BASE_URL and ASCENDOPT_LLM_MODEL (an OpenAI-compatible server), ASCENDOPT_LLM_COMMAND, "
                          "or llm.replay; `ascendopt config show` lists the settings");
    return make_error("unknown llm.kind '" + c.kind + "'", "use openai, command or replay");
}

}  // namespace

Result<std::unique_ptr<Proposer>> make_proposer(const LlmConfig& config, std::shared_ptr<CallLog> log, std::optional<int64_t> run) {
    auto p = make_inner(config);
    if (!p) return p.error();
    std::unique_ptr<Proposer> proposer = std::move(*p);
    const std::vector<std::string> secrets = {config.endpoint.api_key};
    if (!config.record.empty()) proposer = std::make_unique<RecordingProposer>(std::move(proposer), config.record, secrets);
    if (!config.resume.empty()) {
        auto resuming = ResumingProposer::open(std::move(proposer), config.resume, secrets);
        if (!resuming) return resuming.error();
        proposer = std::move(*resuming);
    }
    if (log) proposer = std::make_unique<AccountedProposer>(std::move(proposer), std::move(log), run, secrets);
    return proposer;
}

std::unique_ptr<EmbeddingsClient> make_embeddings(const LlmConfig& config) {
    if (config.embedding_model.empty() || config.endpoint.base_url.empty()) return nullptr;
    return std::make_unique<EmbeddingsClient>(std::make_shared<OpenAiEndpoint>(config.endpoint), config.embedding_model);
}

}  // namespace ascendopt
