#include "util/json_bounded.h"

namespace ascendopt {

int json_nesting_depth(std::string_view text, int stop_at) {
    int depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (const char c : text) {
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
            if (deepest > stop_at) return deepest;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

Result<nlohmann::json> parse_bounded_json(std::string_view text, const std::string& what, const JsonBounds& bounds) {
    if (text.size() > bounds.max_bytes)
        return make_error(what + " is " + std::to_string(text.size()) + " bytes, more than the " + std::to_string(bounds.max_bytes) +
                          " accepted");
    if (json_nesting_depth(text, bounds.max_depth) > bounds.max_depth)
        return make_error(what + " nests arrays or objects more than " + std::to_string(bounds.max_depth) + " levels deep");
    auto doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded()) return make_error(what + " is not valid JSON");
    return doc;
}

}  // namespace ascendopt
