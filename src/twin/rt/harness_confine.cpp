#include "harness_confine.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <vector>

namespace ascendopt_twin::harness {
namespace {

#if defined(__x86_64__)
constexpr unsigned k_arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned k_arch = AUDIT_ARCH_AARCH64;
#else
#error "add the AUDIT_ARCH of this architecture"
#endif

constexpr unsigned k_nr = offsetof(seccomp_data, nr);
constexpr unsigned k_arch_off = offsetof(seccomp_data, arch);
constexpr unsigned k_arg0_low = offsetof(seccomp_data, args[0]);  // little-endian: low 32 bits first

sock_filter stmt(unsigned short code, unsigned k) { return BPF_STMT(code, k); }
sock_filter jump(unsigned short code, unsigned k, unsigned char jt, unsigned char jf) { return BPF_JUMP(code, k, jt, jf); }

// Syscalls refused with EPERM.
const long k_refused[] = {
#ifdef __NR_fork
    __NR_fork,
#endif
#ifdef __NR_vfork
    __NR_vfork,
#endif
    __NR_execve, __NR_execveat, __NR_socket, __NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev,
};

}  // namespace

bool forbid_process_escape_syscalls() {
    std::vector<sock_filter> prog = {
        stmt(BPF_LD | BPF_W | BPF_ABS, k_arch_off),
        jump(BPF_JMP | BPF_JEQ | BPF_K, k_arch, 1, 0),
        stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        stmt(BPF_LD | BPF_W | BPF_ABS, k_nr),
        // clone3 hides its flags in memory the filter cannot read: ENOSYS makes glibc fall back to clone.
        jump(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1),
        stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        // clone: threads (CLONE_THREAD) only.
        jump(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 4),
        stmt(BPF_LD | BPF_W | BPF_ABS, k_arg0_low),
        jump(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1),
        stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    };
    for (const long nr : k_refused) {
        prog.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, unsigned(nr), 0, 1));
        prog.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM));
    }
    prog.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    sock_fprog fprog{static_cast<unsigned short>(prog.size()), prog.data()};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog) == 0;
}

}  // namespace ascendopt_twin::harness
