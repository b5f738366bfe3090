#include "llm/command_proposer.h"

#include "util/subprocess.h"

namespace ascendopt {

std::string render_conversation(const std::vector<ChatMessage>& messages) {
    std::string text;
    for (const auto& m : messages) {
        if (!text.empty()) text += "\n";
        text += "## " + m.role + "\n\n" + m.content;
        if (text.empty() || text.back() != '\n') text += "\n";
    }
    return text;
}

Result<ChatReply> CommandProposer::propose(const ChatRequest& request) {
    ProcessOptions options;
    options.stdin_data = render_conversation(request.messages);
    options.separate_stderr = true;
    options.timeout_seconds = m_config.timeout_seconds;
    options.keep_bytes = 8 << 20;  // a whole reply, not a head and tail
    const ProcessResult run = run_process({"/bin/sh", "-c", m_config.command}, options);
    const std::string where = "the LLM command `" + m_config.command + "`";
    if (!run.succeeded()) {
        const std::string tail = run.error_output.size() > 2000 ? run.error_output.substr(run.error_output.size() - 2000) : run.error_output;
        return make_error(where + " failed (" + run.describe_end() + ")",
                          run.timed_out ? "raise llm.command_timeout or make the command faster" : "run it by hand with a prompt on stdin",
                          tail);
    }
    if (run.output.find_first_not_of(" \t\r\n") == std::string::npos)
        return make_error(where + " printed nothing on stdout", "the reply must be written to stdout", run.error_output);
    ChatReply reply;
    reply.text = run.output;
    reply.model = m_config.model;
    reply.latency_seconds = run.wall_seconds;
    reply.usage.prompt_tokens = int64_t(options.stdin_data->size() / 4);
    reply.usage.completion_tokens = int64_t(run.output.size() / 4);
    reply.usage_estimated = true;
    reply.finish_reason = "stop";
    return reply;
}

}  // namespace ascendopt
