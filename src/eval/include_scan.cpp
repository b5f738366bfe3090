#include "eval/include_scan.h"

#include <algorithm>
#include <regex>
#include <set>

#include "util/files.h"

namespace ascendopt {

namespace fs = std::filesystem;

bool path_within(const fs::path& path, const fs::path& dir) {
    const fs::path rel = path.lexically_normal().lexically_relative(dir.lexically_normal());
    return !rel.empty() && *rel.begin() != "..";
}

namespace {

bool under_a_root(const fs::path& p, const IncludeSearch& search) {
    for (const auto& r : search.roots)
        if (path_within(p, r)) return true;
    return false;
}

bool is_file(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

}  // namespace

fs::path resolve_include(const std::string& name, bool quoted, const fs::path& includer, const IncludeSearch& search) {
    if (name.empty() || fs::path(name).is_absolute()) return {};
    if (quoted) {
        const fs::path beside = (includer.parent_path() / name).lexically_normal();
        if (is_file(beside)) return beside;
    }
    for (const auto& d : search.dirs) {
        const fs::path p = (d / name).lexically_normal();
        if (is_file(p)) return p;
    }
    return {};
}

std::vector<std::pair<std::string, bool>> includes_of(const std::string& text) {
    static const std::regex include(R"(^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"])");
    std::vector<std::pair<std::string, bool>> out;
    size_t pos = 0;
    while (pos < text.size()) {
        const size_t end = std::min(text.find('\n', pos), text.size());
        if (text.find("include", pos) < end) {
            const std::string line = text.substr(pos, end - pos);
            std::smatch m;
            if (std::regex_search(line, m, include)) out.emplace_back(m[2].str(), m[1].str() == "\"");
        }
        pos = end + 1;
    }
    return out;
}

std::vector<fs::path> include_closure(const std::vector<fs::path>& start, const IncludeSearch& search) {
    std::set<fs::path> seen;
    for (const auto& f : start) seen.insert(f.lexically_normal());
    std::vector<fs::path> order;
    std::vector<fs::path> todo(start.begin(), start.end());
    while (!todo.empty()) {
        const fs::path f = todo.back();
        todo.pop_back();
        const auto text = read_text(f);
        if (!text) continue;
        for (const auto& [name, quoted] : includes_of(*text)) {
            const fs::path found = resolve_include(name, quoted, f, search);
            if (found.empty() || !under_a_root(found, search) || !seen.insert(found).second) continue;
            order.push_back(found);
            todo.push_back(found);
        }
    }
    return order;
}

}  // namespace ascendopt
