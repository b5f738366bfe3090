#include "eval/candidate_folder.h"

#include "util/files.h"

namespace ascendopt {

namespace fs = std::filesystem;

Result<CandidateFiles> read_candidate_files(const OperatorSource& op) {
    CandidateFiles files;
    for (const auto& f : op.all_files) {
        auto text = read_text(f);
        if (!text) return text.error();
        files[fs::relative(f, op.root).generic_string()] = std::move(*text);
    }
    return files;
}

Result<OperatorSource> materialize_candidate(const OperatorSource& original, const CandidateFiles& files, const std::string& hash,
                                             const fs::path& out_dir) {
    const fs::path dir = out_dir / "candidates" / hash.substr(0, 16) / original.root.filename();
    std::error_code ec;
    if (!fs::exists(dir / ".complete", ec)) {
        for (const auto& [rel, text] : files) {
            fs::create_directories((dir / rel).parent_path());
            if (auto s = write_atomic(dir / rel, text); !s) return s.error();
        }
        if (auto s = write_atomic(dir / ".complete", ""); !s) return s.error();
    }
    return load_copy_of(dir, original);  // the original's cases, whatever the folder holds
}

}  // namespace ascendopt
