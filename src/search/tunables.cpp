#include "search/tunables.h"

#include "eval/include_scan.h"

#include <algorithm>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "eval/include_scan.h"
#include "util/files.h"

namespace ascendopt {
namespace {

// `[static] constexpr|const <integer type> NAME = <integer expression>;` with an optional marker.
const std::regex k_constant(
    R"(^(\s*(?:static\s+)?(?:constexpr|const)\s+(?:static\s+)?(?:u?int(?:8|16|32|64)_t|int|unsigned(?:\s+int)?|long|size_t)\s+)([A-Za-z_]\w*)(\s*=\s*)([0-9][0-9\s*+uUlL]*?)(\s*;)(.*)$)");
const std::regex k_marker(R"(//\s*ascendopt:\s*tunable(?:\s+values\s*=\s*([0-9,\s]+))?)");

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

// Evaluates "16 * 1024", "2", "3 + 1" (integer literals with * and +); false if anything else.
bool eval_expression(const std::string& expr, int64_t& out) {
    int64_t sum = 0, product = 1;
    bool have = false;
    std::string digits;
    auto flush = [&]() -> bool {
        if (digits.empty()) return false;
        product *= std::stoll(digits);
        digits.clear();
        have = true;
        return true;
    };
    for (char c : expr) {
        if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
        else if (c == '*') { if (!flush()) return false; }
        else if (c == '+') {
            if (!flush()) return false;
            sum += product;
            product = 1;
        } else if (!std::isspace(static_cast<unsigned char>(c)) && c != 'u' && c != 'U' && c != 'l' && c != 'L') return false;
    }
    if (!flush()) return false;
    out = sum + product;
    return have;
}

// Lines [first, last) of the TilingFunc body, or none.
std::pair<size_t, size_t> tiling_function(const std::vector<std::string>& lines) {
    for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].find("TilingFunc(") == std::string::npos || lines[i].find(';') != std::string::npos) continue;
        int depth = 0;
        bool opened = false;
        for (size_t j = i; j < lines.size(); ++j) {
            for (char c : lines[j]) {
                if (c == '{') { ++depth; opened = true; }
                if (c == '}') --depth;
            }
            if (opened && depth == 0) return {i, j + 1};
        }
    }
    return {0, 0};
}

std::pair<size_t, size_t> evolve_block(const std::vector<std::string>& lines) {
    size_t start = lines.size();
    for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].find("# evolve_tiling_block_start") != std::string::npos) start = i;
        if (lines[i].find("# evolve_tiling_block_end") != std::string::npos && start < i) return {start, i};
    }
    return {0, 0};
}

bool used_in(const std::string& name, const std::vector<std::string>& lines, std::pair<size_t, size_t> range) {
    const std::regex word("\\b" + name + "\\b");
    for (size_t i = range.first; i < range.second; ++i)
        if (std::regex_search(lines[i], word)) return true;
    return false;
}

// The first line (1-based) other than `decl` that needs `name` at compile time: a constexpr
// initializer, static_assert, a template argument, an array bound or a case label; 0 when none.
// A host constant used so cannot be read at run time (Stage II injects host values that way).
// Conservative: a comparison that looks like a template argument also counts.
size_t compile_time_use(const std::string& name, const std::vector<std::string>& lines, size_t decl) {
    const std::string w = "\\b" + name + "\\b";
    const std::regex word(w);
    const std::regex template_argument("<[^<>;()]*" + w + "[^<>;()]*>");
    const std::regex array_bound("[A-Za-z_][\\w:<>]*\\s+[A-Za-z_]\\w*\\s*\\[[^\\]]*" + w);
    const std::regex case_label("\\bcase\\b[^:]*" + w);
    for (size_t i = 0; i < lines.size(); ++i) {
        if (i == decl || !std::regex_search(lines[i], word)) continue;
        const std::string& l = lines[i];
        if (l.find("constexpr") != std::string::npos || l.find("static_assert") != std::string::npos ||
            std::regex_search(l, template_argument) || std::regex_search(l, array_bound) || std::regex_search(l, case_label))
            return i + 1;
    }
    return 0;
}

// Why a discovered constant is no tiling decision, or nullopt: it names a property of the
// hardware or of a data type, and a new value would break the layout the code assumes rather
// than choose another tiling (a 32-byte block of 64 bytes, a 2-byte type of 8). Counts of
// blocks (BLOCK_NUM, BLOCK_DIM) and of repeats per tile (TILE_REPEATS) are tiling decisions
// and stay in. Marked constants are the
// user's choice and are never left out by this.
std::optional<std::string> fixed_meaning(const std::string& name, int64_t value) {
    std::string u = name;
    for (auto& c : u) c = char(std::toupper(static_cast<unsigned char>(c)));
    auto has = [&](const char* part) { return u.find(part) != std::string::npos; };
    if (has("ALIGN")) return "an alignment, which the layout of the code assumes";
    if (has("DTYPE") || has("TYPE_SIZE") || has("TYPESIZE") || has("SIZEOF") || has("BYTES_PER") || has("ELEM_BYTES"))
        return "the size of a data type";
    // The width of one block or repeat (BLOCK_BYTES, REPEAT_SIZE, blockElems), not how many of
    // them a tile holds (TILE_REPEATS) or how many blocks run (BLOCK_NUM).
    const bool width = (has("BLOCK") || has("BLK") || has("REPEAT")) && (has("BYTE") || has("SIZE") || has("ELEM") || has("WIDTH") || has("LEN"));
    const bool counts = has("TILE") || has("NUM") || has("CNT") || has("COUNT") || has("DIM");
    const bool hardware_width = value == 8 || value == 16 || value == 32 || value == 64 || value == 128 || value == 256 || value == 512;
    if (width && !counts && hardware_width) return "a block or repeat width of the hardware (32-byte blocks, 256-byte repeats)";
    return std::nullopt;
}

void scan_file(const fs::path& file, const OperatorSource& op, Tunable::Where where, uint64_t cap, std::vector<Tunable>& out,
               std::vector<std::string>* left_out) {
    auto text = read_text(file);
    if (!text) return;
    const auto lines = split_lines(*text);
    const auto func = tiling_function(lines);
    const auto block = evolve_block(lines);
    const bool restricted = where == Tunable::Where::host && block.second > 0;
    for (size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        if (!std::regex_match(lines[i], m, k_constant)) continue;
        Tunable t;
        t.name = m[2];
        t.sites.push_back({fs::relative(file, op.root).string(), int(i + 1), where});
        t.where = where;
        if (!eval_expression(m[4], t.value) || t.value <= 0) continue;
        std::smatch marker;
        const std::string trailing = m[6];
        if (std::regex_search(trailing, marker, k_marker)) {
            t.origin = Tunable::Origin::marked;
            if (marker[1].matched) {
                std::stringstream values(marker[1].str());
                for (std::string v; std::getline(values, v, ',');)
                    if (v.find_first_not_of(" \t") != std::string::npos) t.domain.push_back(std::stoll(v));
            }
            t.why = "marked tunable";
        } else {
            if (restricted && (i <= block.first || i >= block.second)) continue;
            if (where == Tunable::Where::host && !restricted && !used_in(t.name, lines, func)) continue;
            if (const auto meaning = fixed_meaning(t.name, t.value)) {
                if (left_out)
                    left_out->push_back(t.name + " at " + t.sites[0].file + ":" + std::to_string(i + 1) + ": not tuned (" + *meaning + ")");
                continue;
            }
            t.why = restricted ? "declared in the evolve_tiling block"
                    : where == Tunable::Where::host ? "used by the tiling function"
                                                     : "a kernel constant (tile and buffer sizes, buffer counts)";
        }
        if (where == Tunable::Where::host)
            if (const size_t use = compile_time_use(t.name, lines, i)) {
                if (left_out)
                    left_out->push_back(t.name + " at " + t.sites[0].file + ":" + std::to_string(i + 1) + ": not tuned (line " +
                                        std::to_string(use) + " needs it at compile time, and host values are set at run time)");
                continue;
            }
        if (t.domain.empty()) t.domain = default_domain(t.name, t.value, cap);
        t.domain.push_back(t.value);
        std::sort(t.domain.begin(), t.domain.end());
        t.domain.erase(std::unique(t.domain.begin(), t.domain.end()), t.domain.end());
        out.push_back(std::move(t));
    }
}

}  // namespace

std::vector<int64_t> default_domain(const std::string& name, int64_t value, uint64_t cap) {
    std::set<int64_t> d;
    std::string upper = name;
    for (auto& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
    const bool count_like = value <= 8 && upper.find("BYTE") == std::string::npos && upper.find("SIZE") == std::string::npos &&
                            upper.find("LEN") == std::string::npos && upper.find("ELEM") == std::string::npos;
    if (count_like) {
        for (int64_t v = 1; v <= 4; ++v) d.insert(v);
    } else {
        for (int shift = -3; shift <= 3; ++shift) {
            const int64_t v = shift < 0 ? value >> -shift : value << shift;
            if (v >= 1 && uint64_t(v) <= cap) d.insert(v);
        }
    }
    d.insert(value);
    return {d.begin(), d.end()};
}

Result<std::vector<Tunable>> find_tunables(const OperatorSource& op, uint64_t ub_bytes, std::vector<std::string>* left_out) {
    std::vector<Tunable> found;
    // Only the operator's own files: a shared source of its checkout is not the candidate's to change.
    for (const auto& f : op.host_sources)
        if (path_within(f, op.root)) scan_file(f, op, Tunable::Where::host, ub_bytes, found, left_out);
    for (const auto& f : op.kernel_sources) scan_file(f, op, Tunable::Where::kernel, ub_bytes, found, left_out);
    std::vector<Tunable> out;
    std::set<std::string> disagreeing;
    for (auto& t : found) {
        auto same = std::find_if(out.begin(), out.end(), [&](const Tunable& o) { return o.name == t.name; });
        if (same == out.end()) {
            if (!disagreeing.count(t.name)) out.push_back(std::move(t));
            continue;
        }
        if (same->value != t.value) {
            const std::string where = t.name + " is " + std::to_string(same->value) + " at " + same->sites[0].file + ":" +
                                      std::to_string(same->sites[0].line) + " but " + std::to_string(t.value) + " at " + t.sites[0].file + ":" +
                                      std::to_string(t.sites[0].line);
            if (same->origin == Tunable::Origin::marked || t.origin == Tunable::Origin::marked)
                return make_error(where, "constants with one name are tuned together; rename one of them or make them agree");
            if (left_out) left_out->push_back(where + ": not tuned (constants with one name are tuned together)");
            disagreeing.insert(t.name);
            out.erase(same);
            continue;
        }
        same->sites.push_back(t.sites[0]);
        if (t.where == Tunable::Where::kernel) same->where = Tunable::Where::kernel;
        if (t.origin == Tunable::Origin::marked) {
            same->origin = t.origin;
            same->domain = t.domain;
        }
    }
    return out;
}

namespace {

// Rewrites the tunables' declarations; `inject_host` makes host ones read their run-time value.
Result<std::map<std::string, std::string>> rewrite(const OperatorSource& op, const std::vector<Tunable>& tunables,
                                                   const TilingConfig& config, bool inject_host) {
    std::map<std::string, std::string> files;
    for (const auto& f : op.all_files) {
        auto text = read_text(f);
        if (!text) return text.error();
        files[fs::relative(f, op.root).string()] = *text;
    }
    std::map<std::string, std::vector<std::pair<const Tunable*, const Tunable::Site*>>> by_file;
    for (const auto& t : tunables)
        for (const auto& site : t.sites) by_file[site.file].emplace_back(&t, &site);
    for (const auto& [file, list] : by_file) {
        auto lines = split_lines(files.at(file));
        bool host_rewrite = false;
        for (const auto& [t, site] : list) {
            std::smatch m;
            std::string& line = lines.at(size_t(site->line - 1));
            if (!std::regex_match(line, m, k_constant) || m[2] != t->name)
                return make_error(file + ":" + std::to_string(site->line) + " no longer declares " + t->name);
            const auto it = config.find(t->name);
            const int64_t value = it == config.end() ? t->value : it->second;
            if (site->where == Tunable::Where::kernel || !inject_host) {
                line = m[1].str() + m[2].str() + m[3].str() + std::to_string(value) + m[5].str() + m[6].str();
            } else {
                std::string decl = m[1].str();
                if (const auto p = decl.find("constexpr"); p != std::string::npos) decl.replace(p, 9, "const");
                line = decl + m[2].str() + m[3].str() + "::ascendopt_twin::host::tunable_value(\"" + t->name + "\", " +
                       std::to_string(t->value) + ")" + m[5].str() + m[6].str();
                host_rewrite = true;
            }
        }
        std::string joined = host_rewrite ? "#include \"ascendopt_twin/host/tunable.h\"\n" : "";
        for (const auto& l : lines) joined += l + "\n";
        files[file] = joined;
    }
    return files;
}

}  // namespace

Result<std::map<std::string, std::string>> apply_config(const OperatorSource& op, const std::vector<Tunable>& tunables,
                                                        const TilingConfig& config) {
    return rewrite(op, tunables, config, true);
}

Result<std::map<std::string, std::string>> bake_config(const OperatorSource& op, const std::vector<Tunable>& tunables,
                                                       const TilingConfig& config) {
    return rewrite(op, tunables, config, false);
}

std::map<std::string, std::string> host_environment(const std::vector<Tunable>& tunables, const TilingConfig& config) {
    std::map<std::string, std::string> env;
    for (const auto& t : tunables)
        if (std::any_of(t.sites.begin(), t.sites.end(), [](const Tunable::Site& s) { return s.where == Tunable::Where::host; })) {
            const auto it = config.find(t.name);
            env["ASCENDOPT_TUNE_" + t.name] = std::to_string(it == config.end() ? t.value : it->second);
        }
    return env;
}

nlohmann::json to_json(const Tunable& t) {
    nlohmann::json sites = nlohmann::json::array();
    for (const auto& s : t.sites)
        sites.push_back({{"file", s.file}, {"line", s.line}, {"where", s.where == Tunable::Where::host ? "host" : "kernel"}});
    return {{"name", t.name}, {"sites", sites}, {"value", t.value}, {"domain", t.domain},
            {"where", t.where == Tunable::Where::host ? "host" : "kernel"},
            {"origin", t.origin == Tunable::Origin::marked ? "marked" : "discovered"}, {"why", t.why}};
}

}  // namespace ascendopt
