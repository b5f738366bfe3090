// `ascendopt llm ping`: one tiny chat request to the configured LLM, to check the endpoint,
// model and key before a long run. `ascendopt config show`: every setting and its source.
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/config.h"
#include "cli/exit_codes.h"
#include "cli/report_text.h"

namespace ascendopt {
namespace {

struct LlmCommandOptions {
    SettingFlags settings;
    bool json = false;
};

int print_error(const Error& e, int code) {
    std::cerr << render_error(e);
    return code;
}

int run_ping(const LlmCommandOptions& o) {
    auto settings = Settings::resolve(o.settings);
    if (!settings) return print_error(settings.error(), k_exit_bad_input);
    auto config = llm_config(*settings);
    if (!config) return print_error(config.error(), k_exit_bad_input);
    auto proposer = make_proposer(*config);
    if (!proposer) return print_error(proposer.error(), k_exit_bad_input);
    ChatRequest request;
    request.purpose = "ping";
    request.messages = {{"system", "You are a health check. Answer in one word."}, {"user", "Reply with the word: pong"}};
    request.params = config->params;
    if (!request.params.max_tokens) request.params.max_tokens = 16;
    std::cerr << "ascendopt: pinging " << (*proposer)->describe() << "\n";
    auto reply = (*proposer)->propose(request);
    if (!reply) return print_error(reply.error(), k_exit_llm);
    const std::string tokens = fmt::format("{} prompt + {} completion{}", reply->usage.prompt_tokens, reply->usage.completion_tokens,
                                           reply->usage_estimated ? " (estimated)" : "");
    if (o.json) {
        std::cout << nlohmann::json{{"model", reply->model},
                                    {"latency_s", reply->latency_seconds},
                                    {"prompt_tokens", reply->usage.prompt_tokens},
                                    {"completion_tokens", reply->usage.completion_tokens},
                                    {"usage_estimated", reply->usage_estimated},
                                    {"attempts", reply->attempts},
                                    {"reply", reply->text}}
                         .dump(2)
                  << "\n";
        return k_exit_ok;
    }
    std::string excerpt = reply->text.substr(0, 60);
    for (char& c : excerpt)
        if (c == '\n') c = ' ';
    std::cout << fmt::format("model    {}\nlatency  {:.3f} s{}\ntokens   {}\nreply    {}\n", reply->model, reply->latency_seconds,
                             reply->attempts > 1 ? fmt::format(" ({} attempts)", reply->attempts) : "", tokens, excerpt);
    return k_exit_ok;
}

int run_config_show(const LlmCommandOptions& o) {
    auto settings = Settings::resolve(o.settings);
    if (!settings) return print_error(settings.error(), k_exit_bad_input);
    auto shown = [](const ResolvedSetting& r) -> std::string {
        if (!r.def->secret) return r.value;
        return r.value.empty() ? "" : "(set, hidden)";
    };
    if (o.json) {
        nlohmann::json j = nlohmann::json::object();
        for (const auto& r : settings->all()) j[r.def->key] = {{"value", shown(r)}, {"source", r.source}};
        std::cout << j.dump(2) << "\n";
        return k_exit_ok;
    }
    std::cout << "config file: " << (settings->config_file().empty() ? "(none)" : settings->config_file()) << "\n";
    std::cout << fmt::format("{:<26} {:<40} {}\n", "setting", "value", "source");
    for (const auto& r : settings->all()) {
        std::string value = shown(r);
        for (char& c : value)
            if (c == '\n') c = '|';
        std::cout << fmt::format("{:<26} {:<40} {}\n", r.def->key, value.empty() ? "-" : value, r.source);
    }
    return k_exit_ok;
}

}  // namespace

CommandRunner add_llm_command(CLI::App& app) {
    auto o = std::make_shared<LlmCommandOptions>();
    auto* llm = app.add_subcommand("llm", "Check the configured LLM");
    llm->require_subcommand(1);
    auto* ping = llm->add_subcommand("ping", "Send a tiny chat request; print model, latency and token usage");
    add_setting_flags(*ping, o->settings);
    ping->add_flag("--json", o->json, "Machine-readable output");
    return [o] { return run_ping(*o); };
}

CommandRunner add_config_command(CLI::App& app) {
    auto o = std::make_shared<LlmCommandOptions>();
    auto* config = app.add_subcommand("config", "Show ascendopt's settings");
    config->require_subcommand(1);
    auto* show = config->add_subcommand("show", "Every setting with its value and where it came from (flag, env, file, default)");
    add_setting_flags(*show, o->settings);
    show->add_flag("--json", o->json, "Machine-readable output");
    return [o] { return run_config_show(*o); };
}

}  // namespace ascendopt
