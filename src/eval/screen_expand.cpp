// The static screen's second pass (screen.h): the candidate's code with its own macros expanded.
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "core/format.h"
#include "eval/builder.h"
#include "eval/include_scan.h"
#include "util/files.h"
#include "util/hash.h"

namespace ascendopt {
namespace {

constexpr uint64_t k_largest_expansion = 16ull << 20;  // a macro bomb stops here (SIGXFSZ)

// How deep the mirror and the stub folder sit in the scratch folder: an include that climbs out
// of the operator's folder (`../../sibling/op_host/x.h`) by up to this many levels finds a stub.
constexpr int k_depth = 8;

fs::path nested(const fs::path& base, const char* leaf) {
    fs::path p = base;
    for (int i = 0; i < k_depth; ++i) p /= "d" + std::to_string(i);
    return p / leaf;
}

// Every header a candidate file names that is not one of the operator's own files: each becomes
// an empty file in the stub folder, so that only the candidate's macros are expanded (the
// checkout's shared headers are stubbed too: they are not the candidate's).
std::set<std::string> foreign_headers(const OperatorSource& op) {
    std::set<std::string> out;
    for (const auto& f : op.all_files) {
        const auto text = read_text(f);
        if (!text) continue;
        for (const auto& [name, quoted] : includes_of(*text)) {
            std::error_code ec;
            const fs::path beside = (f.parent_path() / name).lexically_normal();
            if (quoted && path_within(beside, op.root) && fs::is_regular_file(beside, ec)) continue;
            out.insert(name);
        }
    }
    return out;
}

// Line `n` (from 1) of `text`, trimmed, to show with a refusal.
std::string physical_line(const std::string& text, int n) {
    size_t at = 0;
    for (int l = 1; l < n; ++l) {
        at = text.find('\n', at);
        if (at == std::string::npos) return "";
        ++at;
    }
    std::string line = text.substr(at, text.find('\n', at) - at);
    const auto b = line.find_first_not_of(" \t\r"), e = line.find_last_not_of(" \t\r");
    return b == std::string::npos ? "" : line.substr(b, e - b + 1);
}

// The first pass refuses absolute includes and those that climb out of the operator's folder,
// but it reads only the files the build reads; the preprocessor here reads the mirror of every
// file. An include it would resolve outside the scratch folder (an absolute name, or one that
// climbs past the stub folder's depth) is refused before it runs, so that no file of the
// machine is read on a candidate's behalf.
std::optional<ScreenHit> include_leaving_the_scratch(const OperatorSource& op) {
    for (const auto& f : op.all_files) {
        const auto text = read_text(f);
        if (!text) continue;
        for (const auto& d : include_directives(*text)) {
            std::string why;
            if (!d.name.empty() && d.name[0] == '/') why = "includes a file by its absolute path (" + d.name + ")";
            else if (!path_within((nested("/stubs", "include") / d.name).lexically_normal(), "/stubs"))
                why = "includes a file outside the operator's folder (" + d.name + "): it climbs more than " + std::to_string(k_depth) + " folders up";
            if (!why.empty()) return ScreenHit{f, d.line, why, physical_line(*text, d.line)};
        }
    }
    return std::nullopt;
}

std::mutex g_passed_mutex;
std::set<std::string> g_passed;  // screen keys that passed in this process

}  // namespace

Result<std::optional<ScreenHit>> Builder::screen_expanded(const OperatorSource& op) {
    Sha256 key;
    key.update("screen-expanded-v3\n").update(m_tc.fingerprint);
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
    if (auto hit = include_leaving_the_scratch(op)) return hit;
    auto made = make_temp_dir(m_cache / "builds", "tmp");
    if (!made) return made.error();
    ScratchDir tmp(*made);
    // The candidate's files are preprocessed from a copy, so that its includes find its own
    // files and the stubs, never the files around its folder.
    const fs::path mirror = nested(tmp.path() / "mirror", "op");
    for (const auto& f : op.all_files) {
        const fs::path copy = mirror / f.lexically_relative(op.root);
        std::error_code ec;
        fs::create_directories(copy.parent_path(), ec);
        auto text = read_text(f);
        if (!text) return text.error();
        if (auto s = write_atomic(copy, *text); !s) return s.error();
    }
    const fs::path stubs = nested(tmp.path() / "stubs", "include");
    fs::create_directories(stubs);
    for (const auto& name : foreign_headers(op)) {
        const fs::path stub = (stubs / name).lexically_normal();
        if (!path_within(stub, tmp.path() / "stubs")) continue;  // refused above
        std::error_code ec;
        fs::create_directories(stub.parent_path(), ec);
        if (auto s = write_atomic(stub, ""); !s) return s.error();
    }
    std::vector<fs::path> units;
    for (const auto* list : {&op.host_sources, &op.kernel_units})
        for (const auto& f : *list)
            if (path_within(f, op.root)) units.push_back(mirror / f.lexically_relative(op.root));
    for (size_t i = 0; i < units.size(); ++i) {
        const fs::path out = tmp.path() / ("expanded" + std::to_string(i) + ".ii");
        std::vector<std::string> args = {m_tc.cxx, "-E", "-std=c++17", "-nostdinc", "-nostdinc++", "-I", stubs.string()};
        for (const auto& d : m_target_defines) args.push_back("-D" + d);
        // The format codes a kernel build defines (builder.cpp), which #if lines compare.
        for (const auto& [name, code] : format_names()) args.push_back("-DFORMAT_" + name + "=" + std::to_string(code));
        args.insert(args.end(), {units[i].string(), "-o", out.string()});
        if (auto s = compile(args, units[i], SourceView{mirror}, tmp.path(), k_largest_expansion); !s) {
            Error e = s.error();
            e.message = "expanding the macros of " + units[i].lexically_relative(mirror).string() + " for the static screen failed: " + e.message;
            return e;
        }
        auto text = read_text(out);
        if (!text) return text.error();
        if (auto hit = screen_preprocessed(*text, mirror, {tmp.path() / "stubs"})) {
            if (path_within(hit->file, mirror)) hit->file = op.root / hit->file.lexically_relative(mirror);
            return hit;
        }
    }
    std::lock_guard lock(g_passed_mutex);
    g_passed.insert(k);
    std::error_code ec;
    fs::create_directories(passed_mark.parent_path(), ec);
    (void)write_atomic(passed_mark, "passed\n");
    return std::optional<ScreenHit>();
}

}  // namespace ascendopt
