// Removing secrets from text before it is written anywhere (cassettes, call records, errors).
#pragma once

#include <string>
#include <vector>

namespace ascendopt {

// Replaces each known secret, and anything shaped like an API key or a Bearer token
// ("sk-...", "Bearer ..."), with "[REDACTED]". Empty known secrets are ignored.
std::string scrub_secrets(std::string text, const std::vector<std::string>& known_secrets = {});

}  // namespace ascendopt
