#include "study/suite.h"

#include <algorithm>
#include <map>

#include <toml++/toml.h>

#include "eval/operator_source.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

// operator folder name -> level, from SUITE/suite.toml.
Result<std::map<std::string, std::string>> read_levels(const fs::path& file) {
    toml::table table;
    try {
        table = toml::parse_file(file.string());
    } catch (const toml::parse_error& e) {
        return make_error(file.string() + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
    }
    const auto* levels = table["levels"].as_table();
    if (!levels) return make_error(file.string() + " has no [levels] table", "write: [levels] then lines like elementwise = [\"add_custom\"]");
    std::map<std::string, std::string> out;
    for (const auto& [level, node] : *levels) {
        const auto* names = node.as_array();
        if (!names) return make_error(file.string() + ": levels." + std::string(level.str()) + " must be a list of operator folder names");
        for (const auto& n : *names) {
            const auto name = n.value<std::string>();
            if (!name) return make_error(file.string() + ": levels." + std::string(level.str()) + " holds a value that is not a string");
            if (!names_an_operator(file.parent_path() / *name))
                return make_error(file.string() + ": levels." + std::string(level.str()) + " names '" + *name + "', which is not an operator folder of the suite");
            out[*name] = std::string(level.str());
        }
    }
    return out;
}

}  // namespace

Result<std::vector<StudyTarget>> study_targets(const fs::path& suite) {
    if (!fs::is_directory(suite)) return make_error(suite.string() + " is not a folder", "a suite is a folder of operator folders, like ops/");
    std::map<std::string, std::string> levels;
    const bool has_levels = fs::is_regular_file(suite / "suite.toml");
    if (has_levels) {
        auto read = read_levels(suite / "suite.toml");
        if (!read) return read.error();
        levels = std::move(*read);
    }
    std::vector<StudyTarget> out;
    auto add = [&](const fs::path& folder, const std::string& folder_level) {
        const std::string name = folder.filename().string();
        const fs::path dir = names_an_operator(folder / "baseline") ? folder / "baseline" : folder;
        const auto level = levels.find(name);
        out.push_back({dir, name, level != levels.end() ? level->second : has_levels ? "other" : folder_level});
    };
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(suite, ec)) {
        if (names_an_operator(e.path())) {
            add(e.path(), "all");
            continue;
        }
        if (!e.is_directory()) continue;
        // A category folder (cann-ops: src/<category>/<operator>): its operators are its level.
        for (const auto& inner : fs::directory_iterator(e.path(), ec))
            if (names_an_operator(inner.path())) add(inner.path(), e.path().filename().string());
    }
    std::sort(out.begin(), out.end(), [](const StudyTarget& a, const StudyTarget& b) { return a.op < b.op; });
    for (size_t i = 1; i < out.size(); ++i)
        if (out[i].op == out[i - 1].op)
            return make_error("two operators are named " + out[i].op + ": " + out[i - 1].dir.string() + " and " + out[i].dir.string(),
                              "results are filed by operator name; study one of them, or rename a folder");
    return out;
}

}  // namespace ascendopt
