#include "agent/prompts.h"

#include <fmt/format.h>

#include "agent/lines.h"
#include "util/json_bounded.h"

namespace ascendopt {

std::string render_files(const CandidateFiles& files) {
    std::string out;
    for (const auto& [path, text] : files) out += "### " + path + "\n```cpp\n" + text + (text.empty() || text.back() == '\n' ? "" : "\n") + "```\n\n";
    return out;
}

std::string render_experience(const std::vector<Bank::Hit>& hits) {
    if (hits.empty()) return "(none retrieved)\n";
    std::string out;
    for (const auto& h : hits) {
        const auto& r = h.record;
        out += fmt::format("- record #{} [{}] {}: {:.2f}x measured ({:.2f} -> {:.2f} us).\n  Bottleneck: {}\n  Reuse: {}\n  Avoid when: {}\n",
                           r.id, r.family, r.title, r.speedup(), r.slow_latency_us, r.fast_latency_us, r.bottleneck, r.guidance, r.avoid_when);
        out += "  Diff:\n```diff\n" + r.diff + "```\n";
    }
    return out;
}

std::string render_history(const std::vector<std::string>& episode) {
    if (episode.empty()) return "(nothing yet)\n";
    std::string out;
    for (size_t i = 0; i < episode.size(); ++i) out += fmt::format("{}. {}\n", i + 1, episode[i]);
    return out;
}

nlohmann::json json_block(const std::string& reply) {
    const auto lines = split_lines(reply);
    nlohmann::json found = nlohmann::json::object();
    for (size_t i = 0; i < lines.size(); ++i) {
        if (trim_blanks(lines[i]) != "```json") continue;
        std::string body;
        size_t j = i + 1;
        for (; j < lines.size() && trim_blanks(lines[j]) != "```"; ++j) body += lines[j] + "\n";
        auto j_obj = parse_bounded_json(body, "a JSON block of the reply");
        if (j_obj && j_obj->is_object()) found = *j_obj;
        i = j;
    }
    return found;
}

Result<ChatRequest> make_request(const TemplateStore& templates, const std::string& name, const std::map<std::string, std::string>& values,
                                 const GenerationParams& params, const std::string& purpose) {
    auto system = templates.render("system", {});
    if (!system) return system.error();
    auto user = templates.render(name, values);
    if (!user) return user.error();
    ChatRequest r;
    r.messages = {{"system", *system}, {"user", *user}};
    r.params = params;
    r.purpose = purpose;
    return r;
}

}  // namespace ascendopt
