#include "llm/secrets.h"

#include <regex>

namespace ascendopt {

std::string scrub_secrets(std::string text, const std::vector<std::string>& known_secrets) {
    for (const auto& secret : known_secrets) {
        if (secret.size() < 4) continue;  // too short to be a key, too likely to be ordinary text
        for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at))
            text.replace(at, secret.size(), "[REDACTED]");
    }
    static const std::regex shaped(R"((sk-[A-Za-z0-9_\-]{16,})|(Bearer\s+[A-Za-z0-9._\-]{12,}))");
    return std::regex_replace(text, shaped, "[REDACTED]");
}

}  // namespace ascendopt
