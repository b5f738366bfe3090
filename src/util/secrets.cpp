#include "util/secrets.h"

#include <cstdlib>
#include <cstring>

#include <algorithm>
#include <mutex>

namespace ascendopt {
namespace {

constexpr size_t k_shortest_secret = 8;
constexpr std::string_view k_redacted = "[REDACTED]";

struct Registry {
    std::mutex mutex;
    std::vector<std::string> secrets;
};

Registry& registry() {
    static Registry r;  // function-local: usable from other statics' constructors
    return r;
}

bool key_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

void replace_all(std::string& text, const std::string& secret) {
    if (secret.size() < k_shortest_secret) return;
    for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + k_redacted.size()))
        text.replace(at, secret.size(), k_redacted);
}

// The length of a run of characters satisfying `accept` starting at `from`.
template <class Accept>
size_t run_length(const std::string& text, size_t from, Accept accept) {
    size_t n = 0;
    while (from + n < text.size() && accept(text[from + n])) ++n;
    return n;
}

// "sk-" + 16 or more key characters, at the start of a word ("disk-..." is not a key).
void replace_key_shapes(std::string& text) {
    for (size_t at = text.find("sk-"); at != std::string::npos; at = text.find("sk-", at + 1)) {
        if (at > 0 && key_char(text[at - 1])) continue;
        const size_t body = run_length(text, at + 3, key_char);
        if (body >= 16) text.replace(at, 3 + body, k_redacted);
    }
}

// "Bearer" + whitespace + 12 or more token characters.
void replace_bearer_tokens(std::string& text) {
    const auto token_char = [](char c) { return key_char(c) || c == '.'; };
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    for (size_t at = text.find("Bearer"); at != std::string::npos; at = text.find("Bearer", at + 1)) {
        const size_t gap = run_length(text, at + 6, space);
        if (gap == 0) continue;
        const size_t token = run_length(text, at + 6 + gap, token_char);
        if (token >= 12) text.replace(at, 6 + gap + token, k_redacted);
    }
}

}  // namespace

void register_secret(std::string_view secret) {
    if (secret.size() < k_shortest_secret) return;
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    if (std::find(r.secrets.begin(), r.secrets.end(), secret) == r.secrets.end()) r.secrets.emplace_back(secret);
}

std::string scrub_secrets(std::string text, const std::vector<std::string>& also) {
    {
        auto& r = registry();
        std::lock_guard lock(r.mutex);
        for (const auto& s : r.secrets) replace_all(text, s);
    }
    for (const auto& s : also) replace_all(text, s);
    replace_key_shapes(text);
    replace_bearer_tokens(text);
    return text;
}

bool is_scrubbed_text_file(std::string_view filename) {
    for (std::string_view ext : {".json", ".md", ".html", ".txt", ".csv", ".jsonl", ".log", ".toml"})
        if (filename.size() >= ext.size() && filename.substr(filename.size() - ext.size()) == ext) return true;
    return false;
}

void hide_secret_environment_variable(const char* name) {
    char* original = std::getenv(name);
    if (!original || !*original) return;
    const std::string value = original;
    register_secret(value);
    // setenv points the environment at a copy of its own; the bytes of the original block,
    // which /proc/<pid>/environ reads, are then overwritten.
    if (setenv(name, value.c_str(), 1) != 0) return;
    std::memset(original, '*', value.size());
}

}  // namespace ascendopt
