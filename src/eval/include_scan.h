// The files an operator's build reads through #include, found the way the compiler searches:
// a quoted name first beside the including file, then (quoted or not) along the include
// folders in order. Includes are read textually, so a file named under a false #if counts too
// (an over-approximation, which is what a cache key and a sandbox view need).
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace ascendopt {

struct IncludeSearch {
    std::vector<std::filesystem::path> dirs;  // -I folders, in order
    // Only files under one of these are followed and reported; the rest (the twin's headers,
    // the C++ library) are someone else's.
    std::vector<std::filesystem::path> roots;
};

// Where `name`, included from `includer` (quoted or angle-bracketed), resolves, or empty.
std::filesystem::path resolve_include(const std::string& name, bool quoted, const std::filesystem::path& includer,
                                      const IncludeSearch& search);

// One #include (#include_next, #import) directive: the name between its quotes or angle
// brackets, and the physical line of its `#`.
struct IncludeDirective {
    std::string name;
    bool quoted = false;
    int line = 0;
};

// The include directives of a source text as the compiler's preprocessor finds them: line splices
// joined, `%:` read as `#`, comments anywhere around the directive's words, and nothing inside a
// comment or a string or character literal (raw strings too). A directive whose name is not a
// literal (an include by macro) is left out; the static screen refuses those.
std::vector<IncludeDirective> include_directives(const std::string& text);

// The same as (name, quoted), in order.
std::vector<std::pair<std::string, bool>> includes_of(const std::string& text);

// Every file under search.roots reached from `start` (not counting the start files themselves),
// in discovery order.
std::vector<std::filesystem::path> include_closure(const std::vector<std::filesystem::path>& start, const IncludeSearch& search);

// Whether `path` lies inside `dir` (both normalized lexically).
bool path_within(const std::filesystem::path& path, const std::filesystem::path& dir);

}  // namespace ascendopt
