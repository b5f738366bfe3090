#include "agent/transfer.h"

#include "agent/deopt.h"
#include "agent/lines.h"
#include "util/files.h"
#include "util/subprocess.h"

namespace ascendopt {
namespace {

namespace fs = std::filesystem;

// The target file with the same role as `file` of the record's operator, or "" when none or several.
std::string same_role(const std::string& file, const CandidateFiles& target) {
    if (target.count(file)) return file;
    const std::string folder = file.substr(0, file.find('/') + 1);
    const bool header = file.size() > 2 && file.compare(file.size() - 2, 2, ".h") == 0;
    const bool tiling = file.find("tiling") != std::string::npos;
    std::string found;
    for (const auto& [path, text] : target) {
        if (path.rfind(folder, 0) != 0) continue;
        const bool h = path.size() > 2 && path.compare(path.size() - 2, 2, ".h") == 0;
        if (h != header || (header && (path.find("tiling") != std::string::npos) != tiling)) continue;
        if (!found.empty()) return "";
        found = path;
    }
    return found;
}

// The record's diff with its file headers pointing at the target's files; "" when a file has no counterpart.
std::string retarget(const std::string& diff, const CandidateFiles& target, std::vector<std::string>& files) {
    std::string out;
    for (const auto& line : split_lines(diff)) {
        if (line.rfind("--- a/", 0) == 0 || line.rfind("+++ b/", 0) == 0) {
            const std::string mapped = same_role(line.substr(6), target);
            if (mapped.empty()) return "";
            if (line[0] == '-') files.push_back(mapped);
            out += line.substr(0, 6) + mapped + "\n";
        } else {
            out += line + "\n";
        }
    }
    return out;
}

}  // namespace

namespace {

// The record's diff patched into `target`.
Result<std::optional<Transferred>> by_patch(const ExperienceRecord& record, const CandidateFiles& target) {
    if (!find_program("patch")) return Error{"GNU patch is not installed (the transfer proposer applies diffs with it)", "apt-get install patch", "", true};
    std::vector<std::string> files;
    const std::string diff = retarget(record.diff, target, files);
    if (diff.empty()) return std::optional<Transferred>();
    auto dir = make_temp_dir(fs::temp_directory_path(), "ascendopt-transfer");
    if (!dir) return dir.error();
    ScratchDir scratch(*dir);
    for (const auto& f : files) {
        fs::create_directories((*dir / f).parent_path());
        if (auto s = write_atomic(*dir / f, target.at(f)); !s) return s.error();
    }
    ProcessOptions o;
    o.cwd = *dir;
    o.stdin_data = diff;
    o.timeout_seconds = 30;
    const ProcessResult r = run_process({"patch", "-p1", "--fuzz=3", "--ignore-whitespace", "--forward", "--batch", "--no-backup-if-mismatch",
                                         "--reject-file=-", "--silent"},
                                        o);
    if (!r.succeeded()) return std::optional<Transferred>();
    Transferred t{target, {}, "the record's diff"};
    for (const auto& f : files) {
        auto text = read_text(*dir / f);
        if (!text) return text.error();
        if (*text != target.at(f)) t.changed.push_back(f);
        t.files[f] = std::move(*text);
    }
    if (t.changed.empty()) return std::optional<Transferred>();
    return std::optional<Transferred>(std::move(t));
}

// The optimization of the record's family applied as a rule (agent/deopt.h), for a target the
// diff does not fit.
std::optional<Transferred> by_rule(const ExperienceRecord& record, const CandidateFiles& target) {
    const Deoptimization* rule = deoptimization_for_family(record.family);
    if (!rule || !rule->restore) return std::nullopt;
    auto files = rule->restore(target);
    if (!files) return std::nullopt;
    Transferred t{*files, {}, "rule " + rule->restore_name};
    for (const auto& [rel, text] : *files)
        if (text != target.at(rel)) t.changed.push_back(rel);
    return t;
}

}  // namespace

Result<std::optional<Transferred>> transfer_record(const ExperienceRecord& record, const CandidateFiles& target) {
    auto patched = by_patch(record, target);
    if (!patched || *patched) return patched;
    return by_rule(record, target);
}

}  // namespace ascendopt
