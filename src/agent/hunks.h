// The difference between two versions of an operator as hunks (GNU diff, unified format,
// 3 lines of context), and reverting chosen hunks in the newer version. Used by offline rewind:
// each hunk of baseline -> strong is a candidate optimization.
#pragma once

#include <string>
#include <vector>

#include "agent/workspace.h"

namespace ascendopt {

struct Hunk {
    std::string file;                  // relative path, the same in both versions
    size_t old_start = 0, new_start = 0;  // 1-based first lines of the hunk in each version
    std::vector<std::string> old_lines, new_lines;  // the hunk's lines on each side (context included)
    std::string text;                  // the hunk as a unified diff, with its file header
    // Lines taken out and put in, for describing what the hunk does.
    std::string removed() const;
    std::string added() const;
};

// Hunks that turn `older` into `newer`, file by file in path order. Files present on only one
// side are reported in `skipped` (whole-file changes are not hunks). A missing `diff` tool is
// an error that names it.
Result<std::vector<Hunk>> diff_hunks(const CandidateFiles& older, const CandidateFiles& newer, std::vector<std::string>* skipped = nullptr);

// The whole difference as one unified diff (hunk texts in file order); empty when there is none
// or GNU diff cannot run (a display aid, so a failure is not an error).
std::string unified_diff(const CandidateFiles& older, const CandidateFiles& newer);

// `newer` with the given hunks (all from diff_hunks(older, newer), none overlapping) undone.
CandidateFiles revert_hunks(const CandidateFiles& newer, const std::vector<const Hunk*>& hunks);

}  // namespace ascendopt
