// main() of operator binaries. See harness.h.
#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <ucontext.h>
#include <sys/time.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <new>

#include "harness.h"
#include "harness_confine.h"
#include "harness_files.h"
#include "twin_rt.h"

namespace ascendopt_twin::harness {
namespace {

// The pre-opened result file of the running case (harness_files.h); -1 before the first.
std::atomic<int> g_result_fd{-1};
GmSpace* g_gm_for_crash_reports = nullptr;

void write_result(const std::string& text) { overwrite_fd(g_result_fd.load(), text.data(), text.size()); }

// A core's failure on its own thread (the harness's error handler): the launch picks which one
// the case reports once every core has ended (RaisedFailure in twin_rt.h), and it reaches
// run_cases as this exception.
struct CoreFailure : TwinError {
    CoreFailure(ErrorKind k, const std::string& a, const std::string& m, nlohmann::json v) : TwinError(k, a, m), verdict(std::move(v)) {}
    nlohmann::json verdict;
};

// Each core's first verdict, ready to write, for the signal handlers: when a case times out or
// aborts after some core failed (another core loops forever; an exception met a noexcept frame),
// the case reports that failure, as the device would have ended the kernel there.
constexpr size_t k_verdict_slots = 256;
std::array<std::atomic<const std::string*>, k_verdict_slots> g_core_verdicts{};
std::array<std::atomic<bool>, k_verdict_slots> g_core_verdict_is_consequence{};

void remember_core_verdict(int64_t core, const nlohmann::json& verdict, bool consequence) {
    if (core < 0 || size_t(core) >= k_verdict_slots || g_core_verdicts[size_t(core)].load()) return;
    nlohmann::json last = verdict;
    last["ends_process"] = true;
    g_core_verdict_is_consequence[size_t(core)].store(consequence);
    g_core_verdicts[size_t(core)].store(new std::string(last.dump(2)));  // lives until the process ends
}

// The verdict the launch would report (reported_failure's rule) among those remembered so far,
// or null. Async-signal-safe.
const std::string* remembered_verdict() {
    const std::string* any = nullptr;
    for (size_t c = 0; c < k_verdict_slots; ++c)
        if (const std::string* v = g_core_verdicts[c].load()) {
            if (!g_core_verdict_is_consequence[c].load()) return v;
            if (!any) any = v;
        }
    return any;
}

// Return addresses of the calling stack inside the operator binary, as offsets from its load
// address (the evaluator maps them to op_kernel/op_host source lines with addr2line). `first`,
// when non-zero, is the faulting instruction.
nlohmann::json stack_offsets(uintptr_t first = 0) {
    static const uintptr_t base = [] {
        Dl_info self{};
        dladdr(reinterpret_cast<void*>(&stack_offsets), &self);
        return reinterpret_cast<uintptr_t>(self.dli_fbase);
    }();
    void* frames[48];
    const int n = backtrace(frames, 48);
    nlohmann::json out = nlohmann::json::array();
    auto add = [&](uintptr_t pc, bool return_address) {
        Dl_info where{};
        if (pc == 0 || !dladdr(reinterpret_cast<void*>(pc), &where) || reinterpret_cast<uintptr_t>(where.dli_fbase) != base) return;
        char hex[32];
        // A return address points after its call; one byte back lands on the call's line.
        std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(pc - base - (return_address ? 1 : 0)));
        out.push_back(hex);
    };
    add(first, false);
    for (int i = 0; i < n; ++i) add(reinterpret_cast<uintptr_t>(frames[i]), true);
    return out;
}

// Whose code was running: the kernel (and which block), the host tiling, or the harness.
std::string running_where() {
    const int64_t block = current_block_or_none();
    if (block >= 0) return "in the kernel (block " + std::to_string(block) + ")";
    return running_code() == RunningCode::host_tiling ? "in the host tiling function" : "in the harness, outside operator code";
}

// A kernel that touches GM through a plain pointer lands here; say so plainly.
void on_fault(int sig, siginfo_t* info, void* context) {
    static std::atomic<bool> reporting{false};
    if (reporting.exchange(true))
        for (;;) pause();
    if (const std::string* failed = sig == SIGABRT ? remembered_verdict() : nullptr) {
        write_result(*failed);
        _exit(k_verdict);
    }
    const auto addr = reinterpret_cast<uint64_t>(info->si_addr);
    std::string message;
    std::string name;
    uint64_t offset = 0;
    const char* status = "run_failed";
    if (auto ub = ub_fault_report(addr); ub && (sig == SIGSEGV || sig == SIGBUS)) {
        message = *ub;
        status = "resource_exceeded";
    } else if (g_gm_for_crash_reports && g_gm_for_crash_reports->contains(addr)) {
        // Scalar accesses through pointers are checked before they happen; a fault here is
        // code the instrumentation does not see (e.g. a library function given a GM pointer).
        message = g_gm_for_crash_reports->outside_every_allocation(addr);
        if (g_gm_for_crash_reports->describe(addr, name, offset))
            message = "an access at byte " + std::to_string(offset) + " of GM tensor '" + name + "' lies past its allocation";
    } else {
        message = sig == SIGSEGV ? "segmentation fault " + running_where()
                  : sig == SIGBUS ? "bus error " + running_where()
                  : sig == SIGABRT ? "the operator aborted (SIGABRT: abort(), a failed assert or an uncaught exception) " + running_where()
                  : sig == SIGFPE ? "arithmetic fault " + running_where() + " (SIGFPE: integer division by zero or overflow)"
                                  : "illegal instruction " + running_where() + " (SIGILL)";
    }
    const char* api = sig == SIGSEGV || sig == SIGBUS ? "memory access" : "signal";
#if defined(__x86_64__)
    const uintptr_t pc = uintptr_t(static_cast<const ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
#else
    const uintptr_t pc = 0;
    (void)context;
#endif
    const nlohmann::json result = {{"status", status}, {"api", api}, {"message", message}, {"ends_process", true},
                                   {"frames", stack_offsets(pc)}};
    std::fprintf(stderr, "ascendopt-twin: %s: %s\n", status, message.c_str());
    write_result(result.dump());
    _exit(k_verdict);
}

void install_fault_handler() {
    stack_offsets();  // backtrace() loads its unwinder on first use: not inside a signal handler
    static char alt_stack[1 << 16];
    stack_t ss{};
    ss.ss_sp = alt_stack;
    ss.ss_size = sizeof alt_stack;
    sigaltstack(&ss, nullptr);
    struct sigaction sa{};
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigaction(SIGSEGV, &sa, nullptr);
    for (int sig : {SIGBUS, SIGABRT, SIGFPE, SIGILL}) sigaction(sig, &sa, nullptr);
}

// The per-case time limit: SIGALRM writes the case's timeout verdict, prepared before the
// timer was armed (nothing may allocate in a signal handler), and ends the process.
std::string g_timeout_verdict;

void on_case_timeout(int) {
    static std::atomic<bool> reporting{false};
    if (reporting.exchange(true))
        for (;;) pause();
    if (const std::string* failed = remembered_verdict()) {
        write_result(*failed);
        _exit(k_verdict);
    }
    write_result(g_timeout_verdict);
    static const char line[] = "ascendopt-twin: timeout: the case ran past its time limit\n";
    (void)!::write(STDERR_FILENO, line, sizeof line - 1);
    _exit(k_verdict);
}

void arm_case_timer(double seconds, const char* suspect) {
    g_timeout_verdict = nlohmann::json{{"status", "timeout"}, {"api", "harness"}, {"ends_process", true},
                                       {"message", "no result within " + std::to_string(seconds).substr(0, 5) + " s; " + suspect +
                                                       " may loop forever"}}.dump();
    struct sigaction sa{};
    sa.sa_handler = on_case_timeout;
    sigaction(SIGALRM, &sa, nullptr);
    itimerval t{};
    t.it_value.tv_sec = time_t(seconds);
    t.it_value.tv_usec = suseconds_t((seconds - double(time_t(seconds))) * 1e6);
    setitimer(ITIMER_REAL, &t, nullptr);
}

void disarm_case_timer() {
    itimerval t{};
    setitimer(ITIMER_REAL, &t, nullptr);
}

// The cases of a job: its "cases" array, each completed with the job's shared fields, or the
// job itself when it has none (one case).
std::vector<nlohmann::json> cases_of(const nlohmann::json& job) {
    if (!job.contains("cases")) return {job};
    std::vector<nlohmann::json> out;
    for (const auto& c : job["cases"]) {
        nlohmann::json full = job;
        full.erase("cases");
        for (const auto& [k, v] : c.items()) full[k] = v;
        out.push_back(std::move(full));
    }
    return out;
}

// What one mode of the harness does per case: `run` gives the case's document, written to the
// file named by the case's `output_key`.
struct CaseStep {
    const char* output_key;
    const char* suspect;  // what a timeout blames
    nlohmann::json (*run)(const nlohmann::json&);
};

int run_cases(const nlohmann::json& job, const CaseStep& step) {
    const double timeout = job.value("case_timeout_s", 0.0);
    bool all_ok = true;
    for (const auto& c : cases_of(job)) {
        set_result_path(c.value(step.output_key, ""));
        if (timeout > 0) arm_case_timer(timeout, step.suspect);
        const auto start = std::chrono::steady_clock::now();
        nlohmann::json result;
        try {
            result = step.run(c);
        } catch (const CoreFailure& e) {
            finish_with_verdict(e.verdict);
        }
        disarm_case_timer();
        result["run_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (result.value("status", "") != "ok") {
            all_ok = false;
            std::fprintf(stderr, "ascendopt-twin: %s: %s: %s\n", result.value("status", "").c_str(), result.value("api", "").c_str(),
                         result.value("message", "").c_str());
        }
        write_result(result.dump(2));
    }
    std::fflush(stdout);
    return all_ok ? k_ok : k_verdict;
}

int usage() {
    std::cerr << "usage: <host-binary> --describe OUT.json | --tiling JOB.json\n"
                 "       <operator-binary> --job JOB.json\n"
                 "Operator binaries are built and run by `ascendopt eval`; see docs/twin.md.\n";
    return k_bad_job;
}

}  // namespace

void set_result_path(const std::string& path) { g_result_fd.store(preopened_fd(path)); }

void set_crash_report_gm(GmSpace* gm) { g_gm_for_crash_reports = gm; }

void finish_with_verdict(const nlohmann::json& result) {
    // Several blocks may fail at once; the first verdict is the one written, the others wait
    // here for the process to end (writing concurrently would truncate each other's file).
    static std::atomic<bool> finishing{false};
    if (finishing.exchange(true))
        for (;;) pause();
    std::fflush(stdout);
    if (result.value("status", "") != "ok")
        std::fprintf(stderr, "ascendopt-twin: %s: %s: %s\n", result.value("status", "").c_str(),
                     result.value("api", "").c_str(), result.value("message", "").c_str());
    nlohmann::json last = result;
    last["ends_process"] = true;  // the evaluator runs the job's later cases in a fresh process
    write_result(last.dump(2));
    _exit(result.value("status", "") == "ok" ? k_ok : k_verdict);
}

}  // namespace ascendopt_twin::harness

// exit() from operator code ends the case as the operator's failure, at once. The C library's
// exit would run the process's destructors and atexit handlers while the other cores' threads
// still run the kernel over that state: the case then ends in whatever that race produces (a
// heap corruption abort, a hang, a clean exit), not in a verdict. The harness itself never
// relies on destructors (it ends with _exit), so elsewhere exit only flushes stdio.
extern "C" [[noreturn]] void exit(int status) noexcept {
    using namespace ascendopt_twin;
    if (current_block_or_none() < 0 && running_code() != RunningCode::host_tiling) {
        std::fflush(nullptr);
        _exit(status);
    }
    harness::finish_with_verdict({{"status", "run_failed"},
                                  {"api", "exit"},
                                  {"message", "the operator called exit(" + std::to_string(status) + ") " + harness::running_where() +
                                                  ", which ends its process without a result (operator code must return)"},
                                  {"frames", harness::stack_offsets()}});
    _exit(harness::k_verdict);  // not reached: finish_with_verdict ends the process
}

namespace {
// Set by the first constructor, read by main(): built on first use (see harness_files.cpp).
std::string& preopen_error() {
    static std::string error;
    return error;
}
}  // namespace

// The walls go up here, before any candidate code: priority 101 is the first the linker orders
// after the implementation's own, and the build refuses candidate objects that would run
// earlier (.preinit_array, prioritised .init_array entries, IFUNC resolvers: elf_screen.h).
// glibc hands init_array functions the program's arguments. Every file the job names is opened
// now; then the process loses the system calls an operator never needs, open() among them.
__attribute__((constructor(101))) static void confine_before_candidate_code(int argc, char** argv, char**) {
    using namespace ascendopt_twin::harness;
    if (!preopen_files(argc, argv, preopen_error())) return;  // main() reports it; nothing of the job runs
    install_fault_handler();  // also loads the unwinder, which the walls would not let load later
    if (!forbid_process_escape_syscalls()) {
        // Fail closed: the candidate's own constructors run next, and without the filter they
        // could start processes, open sockets and files.
        std::fprintf(stderr, "ascendopt-twin: error: the kernel refused the seccomp filter, so no operator code may run here\n");
        std::fflush(stderr);
        _exit(k_bad_job);
    }
}

int main(int argc, char** argv) {
    using namespace ascendopt_twin::harness;
    if (!preopen_error().empty()) {
        std::cerr << "ascendopt-twin: " << preopen_error() << "\n";
        return k_bad_job;
    }
    if (argc != 3) return usage();
    const std::string& mode = preopened_mode();
    if (mode == "--describe") {
        const std::string text = describe_registry().dump(2);
        return overwrite_preopened(describe_path(), text) ? k_ok : k_bad_job;
    }
    if (mode != "--job" && mode != "--tiling") return usage();
    const nlohmann::json& job = preopened_job();
    std::set_new_handler([] {
        ascendopt_twin::fail(ascendopt_twin::ErrorKind::resource_exceeded, "memory",
                             "an allocation failed: the operator's host code or kernel exceeded its memory limit "
                             "(data belongs in GM buffers and UB, not in heap allocations)");
    });
    // On a core's thread the failure unwinds that core only; elsewhere it ends the process.
    ascendopt_twin::set_error_handler([](ascendopt_twin::ErrorKind kind, const std::string& api, const std::string& message) {
        nlohmann::json verdict = {{"status", ascendopt_twin::error_kind_name(kind)}, {"api", api}, {"message", message}, {"frames", stack_offsets()}};
        const int64_t core = ascendopt_twin::current_core_or_none();
        if (core < 0) finish_with_verdict(verdict);
        remember_core_verdict(core, verdict, ascendopt_twin::raising_consequence());
        throw CoreFailure(kind, api, message, std::move(verdict));
    });
    const CaseStep step = mode == "--tiling" ? CaseStep{"tiling", "the host tiling", tile_case}
                                             : CaseStep{"result", "the kernel", run_job};
    _exit(run_cases(job, step));
}
