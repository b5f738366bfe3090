// JSON from outside ascendopt's control (operator results, msopst files, LLM bodies, cassettes,
// bank imports): its size and nesting are checked before a document is built. nlohmann's
// parser, copy and destructor recurse once per level, so a document nested 100,000 deep
// overflows the stack even when parsing is told not to throw.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "util/result.h"

namespace ascendopt {

struct JsonBounds {
    size_t max_bytes = size_t(64) << 20;
    int max_depth = 64;
};

// The parsed document, or an error naming `what` ("result.json", "the LLM's reply") and the
// limit it broke, or that it is not JSON.
Result<nlohmann::json> parse_bounded_json(std::string_view text, const std::string& what, const JsonBounds& bounds = {});

// The deepest nesting of arrays and objects in `text`, counted without parsing (strings and
// their escapes are skipped); stops counting once past `stop_at`.
int json_nesting_depth(std::string_view text, int stop_at);

}  // namespace ascendopt
