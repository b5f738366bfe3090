// The static screen's second pass (screen.h): the candidate's code with its own macros expanded.
#include <mutex>
#include <regex>
#include <set>

#include "eval/builder.h"
#include "util/files.h"
#include "util/hash.h"

namespace ascendopt {
namespace {

constexpr uint64_t k_largest_expansion = 16ull << 20;  // a macro bomb stops here (SIGXFSZ)

// Every header a candidate file names that is not the operator's own: each becomes an empty
// file in the stub folder, so that only the candidate's macros are expanded. The first pass
// has refused absolute paths, `..` and includes by macro.
std::set<std::string> foreign_headers(const OperatorSource& op) {
    static const std::regex include(R"(^\s*(?:#|%:)\s*include(?:_next)?\s*([<"])([^>"]+)[>"])");
    std::set<std::string> out;
    for (const auto& f : op.all_files) {
        const auto text = read_text(f);
        if (!text) continue;
        size_t pos = 0;
        while (pos < text->size()) {
            const size_t end = std::min(text->find('\n', pos), text->size());
            const std::string line = text->substr(pos, end - pos);
            pos = end + 1;
            std::smatch m;
            if (!std::regex_search(line, m, include)) continue;
            const std::string name = m[2].str();
            std::error_code ec;
            if (m[1].str() == "\"" && fs::is_regular_file(f.parent_path() / name, ec)) continue;
            if (name.find("..") == std::string::npos && !name.empty() && name[0] != '/') out.insert(name);
        }
    }
    return out;
}

std::mutex g_passed_mutex;
std::set<std::string> g_passed;  // screen keys that passed in this process

}  // namespace

Result<std::optional<ScreenHit>> Builder::screen_expanded(const OperatorSource& op) {
    Sha256 key;
    key.update("screen-expanded-v1\n").update(m_tc.fingerprint);
    for (const auto& d : m_target_defines) key.update(d).update("\n");
    for (const auto& f : op.all_files) {
        const auto text = read_text(f);
        key.update(fs::relative(f, op.root).string()).update("\n").update(text ? *text : std::string()).update("\n");
    }
    const std::string k = key.hex();
    const fs::path passed_mark = m_cache / "screen" / k;
    {
        std::lock_guard lock(g_passed_mutex);
        std::error_code ec;
        if (g_passed.count(k) || fs::exists(passed_mark, ec)) return std::optional<ScreenHit>();
    }
    auto made = make_temp_dir(m_cache / "builds", "tmp");
    if (!made) return made.error();
    ScratchDir tmp(*made);
    const fs::path stubs = tmp.path() / "stubs";
    for (const auto& name : foreign_headers(op)) {
        std::error_code ec;
        fs::create_directories((stubs / name).parent_path(), ec);
        if (auto s = write_atomic(stubs / name, ""); !s) return s.error();
    }
    fs::create_directories(stubs);
    std::vector<fs::path> units = op.host_sources;
    units.insert(units.end(), op.kernel_units.begin(), op.kernel_units.end());
    for (size_t i = 0; i < units.size(); ++i) {
        const fs::path out = tmp.path() / ("expanded" + std::to_string(i) + ".ii");
        std::vector<std::string> args = {m_tc.cxx, "-E", "-std=c++17", "-nostdinc", "-nostdinc++", "-I", stubs.string()};
        for (const auto& d : m_target_defines) args.push_back("-D" + d);
        args.insert(args.end(), {units[i].string(), "-o", out.string()});
        if (auto s = compile(args, units[i], op.root, tmp.path(), k_largest_expansion); !s) {
            Error e = s.error();
            e.message = "expanding the macros of " + fs::relative(units[i], op.root).string() + " for the static screen failed: " + e.message;
            return e;
        }
        auto text = read_text(out);
        if (!text) return text.error();
        if (auto hit = screen_preprocessed(*text, op.root)) return hit;
    }
    std::lock_guard lock(g_passed_mutex);
    g_passed.insert(k);
    std::error_code ec;
    fs::create_directories(passed_mark.parent_path(), ec);
    (void)write_atomic(passed_mark, "passed\n");
    return std::optional<ScreenHit>();
}

}  // namespace ascendopt
