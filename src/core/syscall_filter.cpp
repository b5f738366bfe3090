#include "core/syscall_filter.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/syscall.h>

namespace ascendopt {
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

// Refused from exec on: processes, the network, other processes, mounts and kernel
// facilities an operator never needs.
const long k_refused_from_exec[] = {
#ifdef __NR_fork
    __NR_fork,
#endif
#ifdef __NR_vfork
    __NR_vfork,
#endif
#ifdef __NR_setrlimit
    __NR_setrlimit,
#endif
    __NR_socket, __NR_socketpair, __NR_ptrace, __NR_process_vm_readv, __NR_process_vm_writev, __NR_mount, __NR_umount2,
    __NR_chroot, __NR_pivot_root, __NR_memfd_create, __NR_io_uring_setup, __NR_bpf, __NR_perf_event_open, __NR_userfaultfd,
    __NR_kill, __NR_shmat, __NR_shmget, __NR_unshare, __NR_setns, __NR_keyctl, __NR_add_key, __NR_request_key,
};

// And once the harness has opened its files: every way to reach a file by name, and exec.
const long k_refused_after_files_opened[] = {
#ifdef __NR_open
    __NR_open,
#endif
#ifdef __NR_creat
    __NR_creat,
#endif
#ifdef __NR_link
    __NR_link,
#endif
#ifdef __NR_symlink
    __NR_symlink,
#endif
#ifdef __NR_unlink
    __NR_unlink,
#endif
#ifdef __NR_rename
    __NR_rename,
#endif
#ifdef __NR_mkdir
    __NR_mkdir,
#endif
#ifdef __NR_rmdir
    __NR_rmdir,
#endif
#ifdef __NR_chmod
    __NR_chmod,
#endif
#ifdef __NR_chown
    __NR_chown,
#endif
#ifdef __NR_mknod
    __NR_mknod,
#endif
    __NR_execve, __NR_execveat, __NR_openat, __NR_openat2, __NR_open_by_handle_at, __NR_name_to_handle_at, __NR_linkat,
    __NR_symlinkat, __NR_unlinkat, __NR_renameat, __NR_renameat2, __NR_mkdirat, __NR_mknodat, __NR_fchmodat, __NR_fchownat,
    __NR_truncate,
};

// Calls refused when an argument has certain bits.
struct ArgRule {
    long nr;
    unsigned arg_offset;
    unsigned bits;  // refused when arg & bits != 0; 0: refused when the argument is non-zero
};
// New resource limits (prlimit64 with a new value; reading them stays allowed): always.
const ArgRule k_arg_rules_from_exec[] = {
    {__NR_prlimit64, unsigned(offsetof(seccomp_data, args[2])), 0},
};
// New executable memory (no code made at run time): once the loader is done.
const ArgRule k_arg_rules_after_files_opened[] = {
    {__NR_mmap, unsigned(offsetof(seccomp_data, args[2])), PROT_EXEC},
    {__NR_mprotect, unsigned(offsetof(seccomp_data, args[2])), PROT_EXEC},
    {__NR_pkey_mprotect, unsigned(offsetof(seccomp_data, args[2])), PROT_EXEC},
};

void refuse(std::vector<sock_filter>& prog, long nr) {
    prog.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, unsigned(nr), 0, 1));
    prog.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM));
}

// nr matches: load the argument's low word, test it, refuse or allow; else go on.
void refuse_with_arg(std::vector<sock_filter>& prog, const ArgRule& r) {
    prog.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, unsigned(r.nr), 0, 4));
    prog.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, r.arg_offset));
    prog.push_back(r.bits ? jump(BPF_JMP | BPF_JSET | BPF_K, r.bits, 0, 1) : jump(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0));
    prog.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM));
    prog.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
}

}  // namespace

std::vector<sock_filter> syscall_filter(FilterStage stage) {
    std::vector<sock_filter> prog = {
        stmt(BPF_LD | BPF_W | BPF_ABS, k_arch_off),
        jump(BPF_JMP | BPF_JEQ | BPF_K, k_arch, 1, 0),
        stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        stmt(BPF_LD | BPF_W | BPF_ABS, k_nr),
        // x32 system calls share the x86-64 audit arch but carry bit 30 in their number, which
        // would slip past every comparison below: none is allowed.
        jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1),
        stmt(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
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
    for (const long nr : k_refused_from_exec) refuse(prog, nr);
    for (const ArgRule& r : k_arg_rules_from_exec) refuse_with_arg(prog, r);
    if (stage == FilterStage::after_files_opened) {
        for (const long nr : k_refused_after_files_opened) refuse(prog, nr);
        for (const ArgRule& r : k_arg_rules_after_files_opened) refuse_with_arg(prog, r);
    }
    prog.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    return prog;
}

}  // namespace ascendopt
