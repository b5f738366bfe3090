// The object gate: what a candidate's compiled objects may define and call (docs/sandbox.md).
//
// Every symbol a candidate object defines or imports is checked before it is linked:
// - it may not define a name the C and C++ runtime libraries export or the twin's libraries
//   define (a strtod, malloc or JSON number formatter of its own would change how the harness
//   reads the SoC or writes results), nor a name of the instrumentation or of a reserved
//   namespace (std, nlohmann, ascendopt_twin) except as a weak template instantiation, which the
//   link never prefers to the twin's own (eval/builder.cpp links the twin first);
// - it may import the twin's functions (the Ascend C API, registration), libm, libgcc, the C++
//   library (but not its threads, files, clocks or random devices) and a small C library subset;
//   kernel objects get a smaller one still (the device has no C library: memory functions are
//   renamed to charged versions, candidate_memory.h);
// - kernel code may not call functions that only host code defines, nor host code kernel code.
#pragma once

#include <filesystem>
#include <string>
#include <unordered_set>
#include <vector>

#include "eval/elf_screen.h"
#include "eval/toolchain.h"
#include "util/result.h"

namespace ascendopt {

struct CandidateObject {
    std::filesystem::path path;
    std::string label;  // how messages name it (the source it was compiled from)
    bool kernel = false;
};

// The C library functions a kernel object's imports of memcpy, memmove, memset, strlen and the
// printf family into a buffer are
// renamed to before the gate and the link ("objcopy --redefine-sym old=new" pairs).
const std::vector<std::pair<std::string, std::string>>& kernel_symbol_renames();

// The same for host objects: `syscall` and `prctl` go through versions that allow only what
// CANN's host code uses them for (the thread id in log headers, a name for the thread in the
// matmul tiling cache).
const std::vector<std::pair<std::string, std::string>>& host_symbol_renames();

class SymbolGate {
public:
    // Reads what the system libraries an operator links export and what the twin libraries define.
    static Result<SymbolGate> load(const Toolchain& tc);
    // The weak definitions of a kernel object that the twin's libraries also define (template
    // instantiations both compile), each with the name it gets in that object so that the link
    // keeps both: the kernel's own calls then run its instrumented copy, charged like the rest of
    // its code, and the twin's its own.
    std::vector<std::pair<std::string, std::string>> private_copies(const ObjectSymbols& kernel_object) const;
    // Why `objects` (one operator binary's candidate objects) may not be linked, or "". Without
    // `imports`, only what they define is checked (eval --no-screen).
    std::string check(const std::vector<CandidateObject>& objects, bool imports = true) const;

private:
    std::string check_definition(const CandidateObject& o, const std::string& name, bool strong) const;
    std::string check_import(const CandidateObject& o, const std::string& name) const;
    bool provided_by_a_library(const std::string& name) const;

    std::unordered_set<std::string> m_libc, m_libm, m_libstdcxx, m_libgcc, m_loader, m_twin, m_twin_strong;
};

// The demangled form of a C++ symbol, or the name itself.
std::string demangled(const std::string& name);

}  // namespace ascendopt
