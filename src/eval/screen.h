// The static screen: before a candidate is built, its sources are searched for the known
// escape hatches of C++ — inline assembly, starting processes, sockets, file I/O, the
// environment, dynamic loading, raw system calls, memory protection, signals, static
// constructors (which would run before the operator binary drops its system calls) — and for
// includes outside an allow-list (the Ascend C headers, a set of standard headers, and the
// operator's own headers). A hit rejects the candidate with the file, line and reason.
//
// It is a screen, not a proof: comments and string literals are skipped, but a name built by
// token pasting gets through. The sandbox and the seccomp filter (docs/sandbox.md) are the walls
// behind it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ascendopt {

struct ScreenHit {
    std::filesystem::path file;
    int line = 0;
    std::string reason;  // e.g. "starts a process (fork)"
    std::string text;    // the source line, trimmed
    std::string describe(const std::filesystem::path& root) const;  // "op_kernel/x.cpp:12: ... : `text`"
};

// The first hit in `files` (sources and headers of one operator under `root`), or nullopt.
std::optional<ScreenHit> screen_sources(const std::vector<std::filesystem::path>& files, const std::filesystem::path& root);

// The same for one source text; `file` only labels the hit.
std::optional<ScreenHit> screen_text(const std::string& text, const std::filesystem::path& file, const std::filesystem::path& root);

}  // namespace ascendopt
