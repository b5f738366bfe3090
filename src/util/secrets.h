// Removing secrets from text before it is written or printed anywhere: stdout and stderr, text
// files (reports, summaries, logs), the SQLite stores, cassettes and call records.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ascendopt {

// Adds a secret (an API key from the configuration or the environment) that every later
// scrub_secrets call removes, in any thread. Secrets shorter than 8 characters are too likely
// to be ordinary text and are ignored.
void register_secret(std::string_view secret);

// Registers the environment variable `name`'s value as a secret and blanks it where other
// processes can read it: /proc/<pid>/environ shows the environment block the process started
// with, which a golden (run as the same user, outside the sandbox) could read. The value stays
// available to getenv from a copy. Call at start-up, before any thread.
void hide_secret_environment_variable(const char* name);

// Replaces each registered secret, each of `also`, and anything shaped like an API key or a
// Bearer token ("sk-..." of 16+ key characters starting a word, "Bearer <12+ token characters>")
// with "[REDACTED]". Runs in linear time; text without secrets comes back unchanged.
std::string scrub_secrets(std::string text, const std::vector<std::string>& also = {});

// True when `path` names a text file ascendopt writes for people or tools to read (.json, .md,
// .html, .txt, .csv, .jsonl, .log, .toml): write_atomic scrubs those.
bool is_scrubbed_text_file(std::string_view filename);

}  // namespace ascendopt
