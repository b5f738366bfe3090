// Builds operator binaries against the twin, caching every output by content hash:
//  - host:   op_host/*.cpp -> one object and the host binary, whose describe run reports the
//            OpDef and which later runs every case's tiling;
//  - kernel: op_kernel/*.cpp for one dtype combination -> the operator binary, which launches
//            the kernel from those tilings. No binary holds both (twin/rt/harness.h).
// The cache lives under cache_root()/builds; entries are written to a private folder and
// renamed into place, so concurrent ascendopt processes never see half an entry.
// Thread-safe: distinct kernel builds may run in parallel.
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "core/case.h"
#include "eval/kernel_type.h"
#include "eval/opdef.h"
#include "eval/operator_source.h"
#include "eval/screen.h"
#include "eval/symbol_gate.h"
#include "eval/toolchain.h"
#include "util/sandbox.h"
#include "util/subprocess.h"

namespace ascendopt {

struct HostBuild {
    std::filesystem::path dir;  // holds the host object, the host binary and describe.json
    std::string key;
    OpDefInfo opdef;
    bool cached = false;
};

struct KernelBuild {
    std::filesystem::path binary;  // the operator binary: the twin and the kernel, no host code
    std::string kernel_name;  // the symbol the harness looks up
    int kernel_args = 0;
    std::string inferred_type;  // the cores it runs on unless it declares them (kernel_type.h)
    bool cached = false;
    std::filesystem::path host_binary;  // the twin and the host code: describes and tiles (twin/rt/harness.h)
    std::shared_ptr<const OpDefInfo> opdef;  // the host build's, for launches through aclnn (device_launch.h)
    std::shared_ptr<const OperatorSource> source;  // what was built, for launchers that build it for a device
};

// What a compile of one operator may read besides the twin and the cache: the operator's folder
// (error messages name files relative to it) and, read-only, the places of its checkout.
struct SourceView {
    std::filesystem::path root;
    std::vector<std::filesystem::path> visible;  // besides root
    std::optional<std::filesystem::path> checkout;
    std::string show(const std::filesystem::path& file) const;  // as OperatorSource::display_path
};
SourceView source_view(const OperatorSource& op);

// A failed build: `message` says which step failed, `detail` holds the compiler output.
class Builder {
public:
    // `cache_limit_bytes`: the build cache is trimmed to it, least recently used builds first,
    // when the builder starts (0: never; util/cache_trim.h).
    Builder(Toolchain tc, std::filesystem::path cache_dir, uint64_t cache_limit_bytes = 0);

    Result<HostBuild> build_host(const OperatorSource& op);
    Result<KernelBuild> build_kernel(const OperatorSource& op, const HostBuild& host, const Case& sample);

    const Toolchain& toolchain() const { return m_tc; }
    // Macros the device compiler defines for the target SoC (__CCE_AICORE__=220, ...): kernels
    // choose code paths by them, so they go into every kernel build (and its cache key).
    void set_target_defines(std::vector<std::string> defines) { m_target_defines = std::move(defines); }
    // The SoC's short name (ascend910b), which picks an OpDef's per-SoC parameters (opdef.h).
    void set_soc_name(std::string name) { m_soc_name = std::move(name); }
    // Compiles and describes candidates inside bubblewrap from now on (empty: unconfined).
    void confine(std::optional<std::filesystem::path> bwrap) { m_bwrap = std::move(bwrap); }
    // The address space each compiler run may use (default 4 GiB); past it the build fails
    // and says so.
    void set_compile_memory(uint64_t bytes) { m_compile_memory = bytes; }
    // Whether the object gate checks what candidate objects import (symbol_gate.h); off only
    // with `eval --no-screen`, to test the walls behind it. Definitions are always checked.
    void check_imports(bool on) { m_check_imports = on; }
    // The static screen's second pass (screen.h) over the candidate's translation units, each
    // preprocessed like a compile (confined, with the SoC's macros) but with every header other
    // than the operator's own empty, so that only the candidate's macros expand. A clean verdict
    // is remembered by content (in this process and under the cache).
    Result<std::optional<ScreenHit>> screen_expanded(const OperatorSource& op);

private:
    Result<std::filesystem::path> precompiled_prelude();
    // Runs a compiler or linker on candidate sources under `root`, writing only into `out_dir`.
    Status compile(const std::vector<std::string>& args, const std::filesystem::path& source, const SourceView& where,
                   const std::filesystem::path& out_dir, uint64_t largest_output = 1ull << 30);
    // Runs untrusted code of a build (the host binary's --describe), writing only into `out_dir`.
    ProcessResult run_confined(const std::vector<std::string>& argv, const std::filesystem::path& out_dir, double timeout);
    SandboxSpec build_view(const SourceView& where, const std::filesystem::path& out_dir) const;
    Status compile_objects(const std::vector<std::filesystem::path>& sources, const std::vector<std::string>& flags,
                           const std::filesystem::path& out_dir, const std::string& prefix, const SourceView& where,
                           std::vector<std::string>& objects);
    // Links `objects` after the object gate has checked them together with `checked_alongside`
    // (objects of the same candidate that go into its other binary).
    Status link(const std::vector<CandidateObject>& objects, const std::filesystem::path& output, const SourceView& where,
                const std::vector<CandidateObject>& checked_alongside = {});
    Result<const SymbolGate*> symbol_gate();
    Status rename_host_symbols(const std::filesystem::path& object, const SourceView& where);
    Status rename_kernel_symbols(const std::filesystem::path& object, const SourceView& where);
    Result<std::filesystem::path> publish(const std::filesystem::path& tmp, const std::string& key);

    Toolchain m_tc;
    std::filesystem::path m_cache;
    std::string m_soc_name;
    std::mutex m_pch_mutex;
    std::filesystem::path m_pch;
    std::optional<std::filesystem::path> m_bwrap;
    uint64_t m_compile_memory = uint64_t(4) << 30;
    std::vector<std::string> m_target_defines;
    bool m_check_imports = true;
    std::mutex m_gate_mutex;
    std::optional<SymbolGate> m_gate;
};

// The DTYPE_<NAME> / ORIG_DTYPE_<NAME> macros of the OpDef parameters `sample` leaves out (names
// in `typed`, upper-case, already have theirs), from the first dtype combination the present
// parameters match: CANN compiles a kernel per combination, absent optional inputs included.
std::string absent_param_dtype_macros(const OpDefInfo& opdef, const Case& sample, const std::set<std::string>& typed);

// Name and GM-argument count of the kernel entry (extern "C" __global__ __aicore__ void name(...)).
Result<std::pair<std::string, int>> find_kernel_entry(const std::vector<std::filesystem::path>& kernel_sources);
// True when a kernel entry of this name would redeclare a C library function (cos, sqrt, trunc):
// such entries are renamed in the build, and KernelBuild::kernel_name holds the new symbol.
bool clashes_with_c_library(const std::string& name);
// Kernel source with each CANN launch `kernel<<<blockDim, l2ctrl, stream>>>(args)` (the host-side
// *_do wrappers some operators keep beside their kernel) turned into a call g++ can parse,
// `::ascendopt_twin::chevron_launch("kernel", blockDim, l2ctrl, stream)(args)`, with the line
// breaks kept; nullopt when the text has no such launch.
std::optional<std::string> rewrite_launch_chevrons(const std::string& text);
// The include guards of host tiling headers that a kernel file of another path also uses: the
// kernel build #undefs them after including the tiling headers.
std::vector<std::string> colliding_include_guards(const std::vector<std::filesystem::path>& tiling_headers,
                                                  const std::vector<std::filesystem::path>& kernel_files);
// The kernel's DTYPE_<NAME> and ORIG_DTYPE_<NAME> macros of a case's tensors (an output that
// shares an input's name is <NAME>_REF).
std::string tensor_dtype_defines(const Case& sample);
// The class a tiling header registers for `op_type` with REGISTER_TILING_DATA_CLASS, for the
// kernel's GET_TILING_DATA when the compiled host code registers none; with no registration for
// it anywhere, the one class the headers declare; else empty.
std::string tiling_class_in_headers(const std::vector<std::filesystem::path>& headers, const std::string& op_type);

}  // namespace ascendopt
