// The Proposer that runs the user's own command (a coding agent, a script around some other
// API): the conversation goes to its stdin as text, its stdout is the reply. The command runs
// through /bin/sh with the user's environment (it may need its own keys), in its own process
// group, killed past the timeout. Token counts are estimated (bytes / 4) and marked so.
// Thread-safe: each call runs its own process.
#pragma once

#include "llm/proposer.h"

namespace ascendopt {

struct CommandProposerConfig {
    std::string command;            // a shell command line
    std::string model = "command";  // the name used in records and cassette keys
    double timeout_seconds = 600;
};

class CommandProposer final : public Proposer {
public:
    explicit CommandProposer(CommandProposerConfig config) : m_config(std::move(config)) {}
    Result<ChatReply> propose(const ChatRequest& request) override;
    std::string describe() const override { return "command `" + m_config.command + "`"; }
    std::string model() const override { return m_config.model; }

private:
    CommandProposerConfig m_config;
};

// The conversation as plain text: each message under a "## role" heading.
std::string render_conversation(const std::vector<ChatMessage>& messages);

}  // namespace ascendopt
