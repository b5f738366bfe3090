// The static screen: before a candidate is built, its sources are searched for the escape
// hatches of C++ and for what would let it reach the twin's measurement: inline assembly,
// starting processes, sockets, files and file descriptors, the environment, dynamic loading,
// raw system calls and memory mappings, signals, threads, static constructors; any name of the
// twin's internals (ascendopt_twin::, ASCENDOPT_*) or of the instrumentation (__asan_*,
// __sanitizer_*); attributes off an allow-list (section, constructor, no_sanitize, alias, ...)
// and pragmas that change code generation; #line; integer-to-pointer casts it can see; in
// kernel files, C library copies (memcpy, ...) that would move data unaccounted. Includes must
// be on an allow-list (the Ascend C and twin headers, harmless standard headers, the operator's
// own headers). A hit rejects the candidate with the file, line and reason.
//
// Two passes: the source text (line splices joined, digraphs read as what they stand for,
// comments and literals skipped, macro bodies included), and the candidate's code after its own
// macros are expanded (screen_preprocessed, on `g++ -E` output where every header but the
// operator's own is empty), so a name built by token pasting is seen too. It remains a screen:
// the walls behind it are the seccomp filter, the build's ELF check and the sandbox
// (docs/sandbox.md).
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

// Where an operator's includes may lead besides its own folder and the allow-listed headers:
// files reached through the include folders of its build (or beside the including file) that
// lie in a trusted folder, the checkout's src/ (OperatorSource::context_files).
struct IncludeScope {
    std::vector<std::filesystem::path> dirs;
    std::vector<std::filesystem::path> trusted;
};

// The first hit in `files` (sources and headers of one operator under `root`), or nullopt.
std::optional<ScreenHit> screen_sources(const std::vector<std::filesystem::path>& files, const std::filesystem::path& root,
                                        const IncludeScope& scope = {});

// screen_sources over the operator's own files that its build reads (OperatorSource::build_files),
// with the include scope of its build. The files of the user's checkout that the build also
// reads (context_files) are not screened: they are not the candidate's, it cannot change them
// (the build sees them read-only), and they are the user's code as much as the original operator.
struct OperatorSource;
std::optional<ScreenHit> screen_operator(const OperatorSource& op);

// The same for one source text; `file` names the hit and says whether it is kernel code.
std::optional<ScreenHit> screen_text(const std::string& text, const std::filesystem::path& file, const std::filesystem::path& root,
                                     const IncludeScope& scope = {});

// The second pass, on the output of `g++ -E` over one candidate file with every header but the
// operator's own replaced by an empty one (Builder::screen_expanded), those in `headers`. A file
// the preprocessor read outside `root` and `headers` (named absolutely, climbing out with `..`,
// or computed by a macro) is refused at the line that included it.
std::optional<ScreenHit> screen_preprocessed(const std::string& cpp_output, const std::filesystem::path& root,
                                             const std::vector<std::filesystem::path>& headers = {});

}  // namespace ascendopt
