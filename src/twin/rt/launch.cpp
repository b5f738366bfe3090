// Kernel launch: one thread per core of each block (AIV, AIC, or an AIC with its AIVs), each with
// its own core; SyncAll and the cross-core flags between them (LaunchSync).
#include <pthread.h>
#include <ucontext.h>
#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <utility>

#include "candidate_memory.h"
#include "twin_rt.h"

namespace ascendopt_twin {

namespace {

constexpr size_t k_flags = 16;

}  // namespace

const char* kernel_type_name(KernelType t) {
    switch (t) {
        case KernelType::aiv: return "aiv";
        case KernelType::aic: return "aic";
        case KernelType::mix_aic_1_2: return "mix_aic_1_2";
        case KernelType::mix_aic_1_1: return "mix_aic_1_1";
        case KernelType::mix_aic_1_0: return "mix_aic_1_0";
        case KernelType::mix_aiv_1_0: return "mix_aiv_1_0";
    }
    return "?";
}

bool kernel_type_from_name(const std::string& name, KernelType& t) {
    for (KernelType k : {KernelType::aiv, KernelType::aic, KernelType::mix_aic_1_2, KernelType::mix_aic_1_1, KernelType::mix_aic_1_0,
                         KernelType::mix_aiv_1_0})
        if (name == kernel_type_name(k)) {
            t = k;
            return true;
        }
    return false;
}

// The state every blocking wait of a launch shares, under one mutex. A core that must wait
// marks itself waiting; whoever satisfies it unmarks it, so that "every running core waits"
// (a deadlock: nothing can ever wake them) is exact at every moment.
struct LaunchSync::Impl {
    std::vector<Core> cores;
    std::mutex mutex;
    std::condition_variable cv;
    std::vector<char> done;
    std::vector<std::string> waits_for;  // non-empty while the core waits: what for
    size_t live = 0;
    size_t waiting = 0;
    bool deadlock = false;
    bool failed_any = false;  // a core failed: waits it leaves unfinishable fail as consequences
    std::atomic<size_t> lowest_failed{SIZE_MAX};
    struct Bar {
        std::vector<size_t> members;
        size_t arrived = 0;
        uint64_t generation = 0;
        // The latest arrival per timing model (the main one, then each timing variant that every
        // core that arrived still follows), and what the last barrier released.
        std::vector<double> gathering, released;
        int64_t left = -1;  // a member that returned
    };
    Bar bars[3];  // SyncAll of the AIVs, of the AICs, of every core
    std::vector<std::vector<size_t>> group_aivs;
    std::vector<int64_t> group_aic;
    std::vector<size_t> all_of[2];  // by CoreKind
    // Per core and flag: the times of raises not yet taken by a wait, and of sets not yet matched
    // by the other participants (modes 0, 1, 2).
    std::vector<std::array<std::deque<double>, k_flags>> counter, pending[3];
    // Matmul service requests per launch block, oldest first.
    std::vector<std::deque<ServiceRequest*>> requests;
    bool aivs_done(size_t group) const {
        for (size_t m : group_aivs[group])
            if (!done[m]) return false;
        return true;
    }

    void start_waiting(size_t core, std::string what) {
        waits_for[core] = std::move(what);
        ++waiting;
        check_deadlock();
    }
    void stop_waiting(size_t core) {
        if (waits_for[core].empty()) return;
        waits_for[core].clear();
        --waiting;
    }
    void check_deadlock() {
        if (live > 0 && waiting == live && !deadlock) {
            deadlock = true;
            cv.notify_all();
        }
    }
    std::string name(size_t c) const {
        const Core& k = cores[c];
        std::string s = std::string(core_kind_name(k.kind)) + " block " + std::to_string(k.block);
        if (k.kind == CoreKind::aiv && group_aic[size_t(k.group)] >= 0) s += " (sub-block " + std::to_string(k.sub) + ")";
        return s;
    }
    std::string others(size_t self) const {
        std::string s;
        size_t shown = 0;
        for (size_t c = 0; c < cores.size() && shown < 8; ++c) {
            if (c == self) continue;
            s += (shown++ ? "; " : "") + name(c) + (done[c] ? " has returned" : " waits at " + waits_for[c]);
        }
        if (cores.size() > 9) s += "; ...";
        return s;
    }
    // Raises `flag` on `to` at time `t`.
    void raise(size_t to, uint16_t flag, double t, const char* api, std::unique_lock<std::mutex>& lock) {
        auto& q = counter[to][flag];
        if (q.size() >= 15) {
            lock.unlock();
            fail(ErrorKind::run_failed, api,
                 "flag " + std::to_string(flag) + " of " + name(to) + " was set 15 times without a CrossCoreWaitFlag taking it; its counter "
                 "holds 0..15 (the NPU reports an error)");
        }
        q.push_back(t);
        if (waits_for[to].rfind("CrossCoreWaitFlag(" + std::to_string(flag) + ")", 0) == 0) stop_waiting(to);
    }
    // Every member of `members` has a pending set of `flag` in `pend`: take one of each, and
    // return the latest time (or -1 while some member has none).
    static double match(std::vector<std::array<std::deque<double>, k_flags>>& pend, const std::vector<size_t>& members, uint16_t flag) {
        double t = 0;
        for (size_t m : members) {
            if (pend[m][flag].empty()) return -1;
            t = std::max(t, pend[m][flag].front());
        }
        for (size_t m : members) pend[m][flag].pop_front();
        return t;
    }
};

LaunchSync::LaunchSync(std::vector<Core> cores) : m_impl(std::make_unique<Impl>()) {
    auto& s = *m_impl;
    s.cores = std::move(cores);
    const size_t n = s.cores.size();
    s.done.assign(n, 0);
    s.waits_for.assign(n, "");
    s.live = n;
    s.counter.resize(n);
    for (auto& p : s.pending) p.resize(n);
    int64_t groups = 0;
    for (const auto& c : s.cores) groups = std::max(groups, c.group + 1);
    s.group_aivs.resize(size_t(groups));
    s.group_aic.assign(size_t(groups), -1);
    s.requests.resize(size_t(groups));
    for (size_t i = 0; i < n; ++i) {
        const Core& c = s.cores[i];
        s.all_of[size_t(c.kind)].push_back(i);
        if (c.kind == CoreKind::aiv) s.group_aivs[size_t(c.group)].push_back(i);
        else s.group_aic[size_t(c.group)] = int64_t(i);
        s.bars[c.kind == CoreKind::aiv ? 0 : 1].members.push_back(i);
        s.bars[2].members.push_back(i);
    }
}

LaunchSync::~LaunchSync() = default;

bool LaunchSync::outranked(size_t core) const { return m_impl->lowest_failed.load(std::memory_order_relaxed) < core; }

std::string LaunchSync::describe(size_t core) const { return m_impl->name(core); }

std::vector<double> LaunchSync::barrier(size_t core, bool aiv_only, const std::vector<double>& ready) {
    auto& s = *m_impl;
    std::unique_lock<std::mutex> lock(s.mutex);
    auto& b = s.bars[aiv_only ? (s.cores[core].kind == CoreKind::aiv ? 0 : 1) : 2];
    auto unbalanced = [&](int64_t gone) {
        const std::string who = s.name(core), left = s.name(size_t(gone));
        const bool consequence = s.failed_any;
        lock.unlock();
        fail_in_sync(consequence, ErrorKind::run_failed, "SyncAll",
             who + " waits at SyncAll but " + left +
                 " has already returned; every block must call SyncAll the same number of times (this hangs an NPU)");
    };
    if (b.left >= 0) unbalanced(b.left);
    const uint64_t gen = b.generation;
    if (b.arrived == 0) b.gathering = ready;
    b.gathering.resize(std::min(b.gathering.size(), ready.size()));
    for (size_t i = 0; i < b.gathering.size(); ++i) b.gathering[i] = std::max(b.gathering[i], ready[i]);
    if (++b.arrived == b.members.size()) {
        b.arrived = 0;
        b.released = std::move(b.gathering);
        b.gathering.clear();
        ++b.generation;
        for (size_t m : b.members) s.stop_waiting(m);
        s.cv.notify_all();
        return b.released;
    }
    s.start_waiting(core, "SyncAll");
    s.cv.wait(lock, [&] { return b.generation != gen || b.left >= 0 || s.deadlock; });
    if (b.generation != gen) return b.released;  // stays valid until every member arrives again
    s.stop_waiting(core);
    if (b.left >= 0) unbalanced(b.left);
    const std::string msg = s.name(core) + " waits at SyncAll, but no core can arrive there any more: " + s.others(core) + " (this hangs an NPU)";
    const bool consequence = s.failed_any;
    lock.unlock();
    fail_in_sync(consequence, ErrorKind::run_failed, "SyncAll", msg);
}

void LaunchSync::set_flag(size_t core, int mode, uint16_t flag, double ready) {
    auto& s = *m_impl;
    std::unique_lock<std::mutex> lock(s.mutex);
    const Core& c = s.cores[core];
    const char* api = "CrossCoreSetFlag";
    auto misuse = [&](const std::string& why) {
        const std::string who = s.name(core);
        lock.unlock();
        fail(ErrorKind::run_failed, api, "mode " + std::to_string(mode) + " on " + who + ": " + why);
    };
    const auto& aivs = s.group_aivs[size_t(c.group)];
    const int64_t aic = s.group_aic[size_t(c.group)];
    if (mode == 0) {
        s.pending[0][core][flag].push_back(ready);
        const auto& members = s.all_of[size_t(c.kind)];
        const double t = Impl::match(s.pending[0], members, flag);
        if (t >= 0)
            for (size_t m : members) s.raise(m, flag, t, api, lock);
    } else if (mode == 1) {
        if (c.kind != CoreKind::aiv) misuse("mode 1 synchronizes the AIVs of a block; an AIC takes no part");
        s.pending[1][core][flag].push_back(ready);
        const double t = Impl::match(s.pending[1], aivs, flag);
        if (t >= 0)
            for (size_t m : aivs) s.raise(m, flag, t, api, lock);
    } else if (mode == 2) {
        if (c.kind == CoreKind::aic) {
            if (aivs.empty()) misuse("mode 2 synchronizes the AIC of a block with its AIVs, and this launch has none (use a MIX kernel type)");
            for (size_t m : aivs) s.raise(m, flag, ready, api, lock);
        } else {
            if (aic < 0) misuse("mode 2 synchronizes the AIVs of a block with its AIC, and this launch has none (use a MIX kernel type)");
            s.pending[2][core][flag].push_back(ready);
            const double t = Impl::match(s.pending[2], aivs, flag);
            if (t >= 0) s.raise(size_t(aic), flag, t, api, lock);
        }
    } else {
        misuse("the 910B has modes 0, 1 and 2");
    }
    s.cv.notify_all();
}

double LaunchSync::wait_flag(size_t core, uint16_t flag) {
    auto& s = *m_impl;
    std::unique_lock<std::mutex> lock(s.mutex);
    auto& q = s.counter[core][flag];
    if (q.empty()) {
        s.start_waiting(core, "CrossCoreWaitFlag(" + std::to_string(flag) + ")");
        s.cv.wait(lock, [&] { return !q.empty() || s.deadlock; });
        if (q.empty()) {
            s.stop_waiting(core);
            const std::string msg = s.name(core) + " waits for flag " + std::to_string(flag) +
                                    ", but no core can set it any more: " + s.others(core) + " (this hangs an NPU)";
            const bool consequence = s.failed_any;
            lock.unlock();
            fail_in_sync(consequence, ErrorKind::run_failed, "CrossCoreWaitFlag", msg);
        }
    }
    const double t = q.front();
    q.pop_front();
    return t;
}

void LaunchSync::finish(size_t core, bool failed) {
    auto& s = *m_impl;
    std::lock_guard<std::mutex> lock(s.mutex);
    if (s.done[core]) return;
    s.failed_any = s.failed_any || failed;
    if (failed && core < s.lowest_failed.load()) s.lowest_failed.store(core);
    s.stop_waiting(core);
    s.done[core] = 1;
    --s.live;
    const int64_t aic = s.group_aic[size_t(s.cores[core].group)];
    if (aic >= 0 && s.aivs_done(size_t(s.cores[core].group)) && s.waits_for[size_t(aic)] == "the Matmul service") s.stop_waiting(size_t(aic));
    for (auto& b : s.bars)
        if (b.left < 0 && std::find(b.members.begin(), b.members.end(), core) != b.members.end()) b.left = int64_t(core);
    s.check_deadlock();
    s.cv.notify_all();
}

double LaunchSync::service_call(size_t core, ServiceRequest& request, const char* api) {
    auto& s = *m_impl;
    std::unique_lock<std::mutex> lock(s.mutex);
    const Core& c = s.cores[core];
    const int64_t aic = s.group_aic[size_t(c.group)];
    auto refuse = [&](const std::string& why) {
        const std::string who = s.name(core);
        lock.unlock();
        fail(ErrorKind::run_failed, api, who + ": " + why);
    };
    if (c.kind != CoreKind::aiv || aic < 0)
        refuse("a Matmul object of vector code needs the AIC of its AI Core, and this launch has none (a kernel that uses Matmul from "
               "vector code runs as a mixed kernel, KERNEL_TYPE_MIX_AIC_1_2 or 1_1)");
    if (s.done[size_t(aic)]) refuse("the AIC of this block has returned, so no core serves the Matmul request (REGIST_MATMUL_OBJ starts its service)");
    request.from = core;
    s.requests[size_t(c.group)].push_back(&request);
    if (s.waits_for[size_t(aic)] == "the Matmul service") s.stop_waiting(size_t(aic));
    s.cv.notify_all();
    s.start_waiting(core, "a Matmul request to its AIC");
    s.cv.wait(lock, [&] { return request.done || s.done[size_t(aic)] || s.deadlock; });
    if (request.done) return request.done_at;
    s.stop_waiting(core);
    auto& q = s.requests[size_t(c.group)];
    q.erase(std::remove(q.begin(), q.end(), &request), q.end());
    if (s.failed_any) {  // its AIC, or a core it waited on, failed
        const std::string who = s.name(core);
        lock.unlock();
        fail_in_sync(true, ErrorKind::run_failed, api, who + ": its Matmul request cannot be served after another core failed");
    }
    if (s.done[size_t(aic)]) refuse("the AIC of this block returned before serving its Matmul request (REGIST_MATMUL_OBJ starts the service)");
    refuse("waits for a Matmul request, but its AIC cannot serve it any more: " + s.others(core) + " (this hangs an NPU)");
    return 0;
}

size_t LaunchSync::aivs_in_block(size_t core) const { return m_impl->group_aivs[size_t(m_impl->cores[core].group)].size(); }

LaunchSync::ServiceRequest* LaunchSync::service_take(size_t core) {
    auto& s = *m_impl;
    std::unique_lock<std::mutex> lock(s.mutex);
    const size_t group = size_t(s.cores[core].group);
    auto& q = s.requests[group];
    for (;;) {
        if (!q.empty()) {
            ServiceRequest* r = q.front();
            q.pop_front();
            return r;
        }
        if (s.aivs_done(group) || s.deadlock) {
            s.stop_waiting(core);
            return nullptr;
        }
        if (s.waits_for[core].empty()) s.start_waiting(core, "the Matmul service");
        s.cv.wait(lock);
    }
}

void LaunchSync::service_done(ServiceRequest* request, double t) {
    auto& s = *m_impl;
    std::lock_guard<std::mutex> lock(s.mutex);
    request->done_at = t;
    request->done = true;
    s.stop_waiting(request->from);
    s.cv.notify_all();
}

namespace {

using Arg = uint8_t*;

// The stack a block's kernel code runs on (the device gives each core a few KiB; host-compiled
// kernels with large local arrays need more).
constexpr size_t k_kernel_stack_bytes = size_t(2) << 20;

// Kernels take GM addresses only (GM_ADDR each); the widest published kernels take about 20.
constexpr size_t k_most_kernel_args = 32;

template <size_t... I>
void call_with(KernelEntry entry, const std::vector<Arg>& a, std::index_sequence<I...>) {
    using Kernel = void (*)(decltype((void)I, Arg())...);
    reinterpret_cast<Kernel>(entry)(a[I]...);
}

template <size_t N = 2>
void call_kernel(KernelEntry entry, const std::vector<Arg>& a) {
    if constexpr (N > k_most_kernel_args) {
        fail(ErrorKind::run_failed, "launch",
             "kernels with " + std::to_string(a.size()) + " GM arguments are not supported (2.." + std::to_string(k_most_kernel_args) + ")");
    } else {
        if (a.size() == N) return call_with(entry, a, std::make_index_sequence<N>{});
        call_kernel<N + 1>(entry, a);
    }
}

// Kernel code runs on a stack of its own: the frames and saved registers of the trusted code
// that launched it stay on the thread's stack, out of reach of the kernel's writes (which may
// touch its own stack: candidate_memory.h), and control comes back through a context saved
// there, not through anything on the kernel's stack.
class KernelStack {
public:
    explicit KernelStack(size_t bytes) : m_bytes(bytes) {
        void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        if (p == MAP_FAILED) fail(ErrorKind::resource_exceeded, "launch", "cannot map a block's " + std::to_string(bytes >> 10) + " KiB stack");
        m_base = static_cast<uint8_t*>(p);
        mprotect(m_base, k_guard, PROT_NONE);  // an overflow faults instead of running into other memory
    }
    ~KernelStack() { munmap(m_base, m_bytes); }
    KernelStack(const KernelStack&) = delete;
    KernelStack& operator=(const KernelStack&) = delete;
    uint8_t* base() const { return m_base; }
    size_t bytes() const { return m_bytes; }
    static constexpr size_t k_guard = 4096;

private:
    uint8_t* m_base = nullptr;
    size_t m_bytes = 0;
};

struct KernelEntryCall {
    KernelEntry entry = nullptr;
    const std::vector<Arg>* args = nullptr;
    std::exception_ptr error;
};
thread_local KernelEntryCall t_entry_call;

// The first frame on the kernel's stack; exceptions (fail() in tests, a preflight's stop) end
// here and are rethrown on the thread's own stack.
void kernel_trampoline() {
    try {
        call_kernel(t_entry_call.entry, *t_entry_call.args);
    } catch (...) {
        t_entry_call.error = std::current_exception();
    }
}

void call_kernel_on_own_stack(KernelEntry entry, const std::vector<Arg>& args, size_t stack_bytes) {
    KernelStack stack(stack_bytes);
    ucontext_t back{}, kernel{};
    getcontext(&kernel);
    kernel.uc_stack.ss_sp = stack.base();
    kernel.uc_stack.ss_size = stack.bytes();
    kernel.uc_link = &back;
    makecontext(&kernel, kernel_trampoline, 0);
    t_entry_call = {entry, &args, nullptr};
    own_stack(stack.base() + KernelStack::k_guard, stack.base() + stack.bytes());
    swapcontext(&back, &kernel);
    own_stack(nullptr, nullptr);
    if (auto e = std::exchange(t_entry_call.error, nullptr)) std::rethrow_exception(e);
}

struct BlockJob {
    const SocSpec* soc;
    KernelEntry entry;
    const std::vector<Arg>* args;
    uint32_t block_dim;
    int64_t block;  // GetBlockIdx
    int64_t group;  // the launch block it belongs to
    CoreIdentity who;
    uint64_t tiling_key;
    GmSpace* gm;
    LaunchSync* sync;
    LaunchOptions options;
    InstrCounts counts;
    std::array<uint32_t, size_t(Mem::count)> mem_bytes{};
    std::vector<UbOverrun> ub_overruns;
    std::vector<Race> races;
    uint64_t races_dropped = 0;
    BlockTiming result;
    std::exception_ptr error;
    bool consequence = false;  // the error is a wait another core's failure left unfinishable
};

// The failure a launch reports (RaisedFailure): the lowest core's that failed on its own, else
// the lowest core's. Null when every core finished.
const BlockJob* reported_failure(const std::vector<BlockJob>& jobs) {
    const BlockJob* pick = nullptr;
    for (const auto& j : jobs)
        if (j.error && (!pick || (pick->consequence && !j.consequence))) pick = &j;
    return pick;
}

// Keeps, per API and buffer, the furthest overrun any block made.
void merge_overrun(std::vector<UbOverrun>& all, const UbOverrun& o) {
    for (auto& a : all)
        if (a.api == o.api && a.which == o.which && a.buffer == o.buffer) {
            a.bytes_past = std::max(a.bytes_past, o.bytes_past);
            return;
        }
    all.push_back(o);
}

// Keeps one entry per race (kind and both sites), counting the cores that saw it.
void merge_race(LaunchResult& r, const Race& race, int64_t block) {
    for (auto& a : r.races)
        if (a.race.kind == race.kind && a.race.earlier == race.earlier && a.race.later == race.later) {
            a.race.count += race.count;
            ++a.cores;
            return;
        }
    if (r.races.size() >= HazardChecker::k_max_races) {
        ++r.races_dropped;
        return;
    }
    r.races.push_back({race, block, 1});
}

void* run_block(void* p) {
    auto& job = *static_cast<BlockJob*>(p);
    try {
        CoreScope scope(*job.soc, job.block, job.block_dim, job.tiling_key, job.gm, job.sync, job.options, job.who);
        bool stopped = false;  // a preflight ended the block at its first data access
        try {
            call_kernel_on_own_stack(job.entry, *job.args, k_kernel_stack_bytes);
        } catch (const PreflightStop&) {
            stopped = true;
        } catch (const CoreStopped&) {
            stopped = true;  // the launch fails with a lower core's failure
        }
        for (size_t m = 0; m < size_t(Mem::count); ++m) job.mem_bytes[m] = scope.mem_bytes_used(Mem(m));
        job.ub_overruns = scope.ub_overruns();
        job.races = scope.races();
        job.races_dropped = scope.races_dropped();
        job.counts = scope.counts();
        job.result.kind = job.who.kind;
        job.result.block = job.block;
        job.result.sub_block = job.who.sub_block_idx;
        if (CoreTimeline* t = stopped ? nullptr : scope.timeline()) {
            job.result.end_cycles = scope.finish();
            job.result.variant_end_cycles = scope.variant_end_cycles();
            job.result.pipes = t->stats();
            job.result.basic_blocks = t->basic_block_count();
            job.result.trace = t->trace();
            job.result.dropped_events = t->dropped_events();
        }
    } catch (...) {
        job.error = std::current_exception();
    }
    // The core's first failure stands, whatever the kernel made of the exception.
    if (RaisedFailure first = take_raised_failure(); first.error) {
        job.error = first.error;
        job.consequence = first.consequence;
    }
    job.sync->finish(job.who.sync_index, job.error != nullptr);
    return nullptr;
}

// The cores of a launch of `block_dim` blocks of kernel type `kt`, in launch order.
std::vector<BlockJob> cores_of(KernelType kt, uint32_t block_dim) {
    std::vector<BlockJob> jobs;
    auto add = [&](CoreKind kind, int64_t block, int64_t group, int64_t sub, int64_t per_block) {
        BlockJob j{};
        j.block = block;
        j.group = group;
        j.who = {kind, sub, per_block, per_block, jobs.size()};
        jobs.push_back(std::move(j));
    };
    for (int64_t b = 0; b < int64_t(block_dim); ++b) switch (kt) {
            case KernelType::aiv: case KernelType::mix_aiv_1_0: add(CoreKind::aiv, b, b, 0, 1); break;
            case KernelType::aic: case KernelType::mix_aic_1_0: add(CoreKind::aic, b, b, 0, 1); break;
            case KernelType::mix_aic_1_1:
                add(CoreKind::aic, b, b, 0, 1);
                add(CoreKind::aiv, b, b, 0, 1);
                break;
            case KernelType::mix_aic_1_2:
                add(CoreKind::aic, b, b, 0, 1);
                add(CoreKind::aiv, 2 * b, b, 0, 2);
                add(CoreKind::aiv, 2 * b + 1, b, 1, 2);
                break;
        }
    return jobs;
}

uint64_t capacity(const SocSpec& soc, Mem m) {
    switch (m) {
        case Mem::UB: return soc.ub_bytes;
        case Mem::L1: return soc.l1_bytes;
        case Mem::L0A: return soc.l0a_bytes;
        case Mem::L0B: return soc.l0b_bytes;
        case Mem::L0C: return soc.l0c_bytes;
        case Mem::BT: return soc.bt_bytes;
        case Mem::FB: return soc.fb_bytes;
        default: return 0;
    }
}

// The launch's end in cycles from each core's own duration (`end_of(job)`): the cores of a block
// start together on their physical unit; blocks beyond the units run after the earlier blocks
// on the same unit. Fills `block_start` (per block) when given.
template <class EndOf>
double launch_cycles(const std::vector<BlockJob>& jobs, uint32_t block_dim, uint32_t units, EndOf end_of,
                     std::vector<double>* block_start = nullptr) {
    std::vector<double> block_end(block_dim, 0.0), unit_time(units, 0.0);
    for (const auto& j : jobs) block_end[size_t(j.group)] = std::max(block_end[size_t(j.group)], end_of(j));
    if (block_start) block_start->assign(block_dim, 0.0);
    for (uint32_t b = 0; b < block_dim; ++b) {
        if (block_start) (*block_start)[b] = unit_time[b % units];
        unit_time[b % units] += block_end[b];
    }
    return *std::max_element(unit_time.begin(), unit_time.end());
}

double latency_us(double cycles, const SocSpec& soc) { return cycles / (soc.timing.clock_ghz * 1000.0) + soc.timing.launch_overhead_us; }

// Each timing variant's latency, when every core followed them all (LaunchOptions::timing_variants).
std::vector<double> variant_latencies(const std::vector<BlockJob>& jobs, uint32_t block_dim, uint32_t units, const LaunchOptions& options) {
    const size_t n = options.timing_variants.size();
    for (const auto& j : jobs)
        if (j.result.variant_end_cycles.size() != n) return {};
    std::vector<double> out;
    for (size_t v = 0; v < n; ++v) {
        const double cycles = launch_cycles(jobs, block_dim, units, [&](const BlockJob& j) { return j.result.variant_end_cycles[v]; });
        out.push_back(latency_us(cycles, *options.timing_variants[v].soc));
    }
    return out;
}

}  // namespace

LaunchResult launch(const SocSpec& soc, KernelEntry kernel, const std::vector<uint8_t*>& args, uint32_t block_dim,
                    uint64_t tiling_key, GmSpace& gm, const LaunchOptions& options_in) {
    LaunchOptions options = options_in;
    const KernelType kt = options.kernel_type;
    const bool vector_only = kt == KernelType::aiv || kt == KernelType::mix_aiv_1_0;
    // Physical units the blocks share: AIVs, AICs, or whole AI Cores for mixed launches.
    const uint32_t units = std::max(1u, vector_only ? soc.vector_cores : soc.cube_cores);
    std::vector<BlockJob> jobs = cores_of(kt, block_dim);
    // GM bandwidth is shared by the cores that run at once.
    const uint32_t per_block = block_dim == 0 ? 1 : uint32_t(jobs.size() / block_dim);
    const uint32_t active = std::max(1u, std::min(block_dim, units) * per_block);
    options.dma = dma_rates(soc, active, gm.tensor_bytes());
    for (auto& v : options.timing_variants) v.dma = dma_rates(*v.soc, active, gm.tensor_bytes());
    std::vector<LaunchSync::Core> sync_cores;
    for (const auto& j : jobs) sync_cores.push_back({j.who.kind, j.block, j.group, j.who.sub_block_idx});
    LaunchSync sync(std::move(sync_cores));
    constexpr size_t k_stack = 256u << 10;  // the trusted frames only: kernel code has its own stack
    std::vector<pthread_t> threads(jobs.size());
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, k_stack);
    for (size_t i = 0; i < jobs.size(); ++i) {
        auto& j = jobs[i];
        j.soc = &soc;
        j.entry = kernel;
        j.args = &args;
        j.block_dim = block_dim;
        j.tiling_key = tiling_key;
        j.gm = &gm;
        j.sync = &sync;
        j.options = options;
        if (pthread_create(&threads[i], &attr, run_block, &j) != 0) {
            for (size_t k = i; k < jobs.size(); ++k) sync.finish(k);  // the started cores must not wait for these
            for (size_t k = 0; k < i; ++k) pthread_join(threads[k], nullptr);
            pthread_attr_destroy(&attr);
            fail(ErrorKind::resource_exceeded, "launch", "cannot start the thread for " + sync.describe(i));
        }
    }
    pthread_attr_destroy(&attr);
    for (auto& t : threads) pthread_join(t, nullptr);
    if (const BlockJob* failed = reported_failure(jobs)) std::rethrow_exception(failed->error);
    LaunchResult r;
    for (auto& j : jobs) {
        r.counts.merge(j.counts);
        for (size_t m = 0; m < size_t(Mem::count); ++m) r.mem_bytes[m] = std::max(r.mem_bytes[m], j.mem_bytes[m]);
        for (const auto& o : j.ub_overruns) merge_overrun(r.ub_overruns, o);
        for (const auto& race : j.races) merge_race(r, race, j.block);
        r.races_dropped += j.races_dropped;
    }
    r.ub_bytes = r.mem_bytes[size_t(Mem::UB)];
    // InitBuffer itself never fails on the device, but a buffer placed past a memory's end faults
    // at its first use, which a kernel makes in all but pathological cases: a preflight, which
    // stops before any use, reports it so a search need not spend a run on it.
    if (options.preflight)
        for (size_t m = 0; m < size_t(Mem::count); ++m)
            if (r.mem_bytes[m] > capacity(soc, Mem(m)))
                fail(ErrorKind::resource_exceeded, "TPipe::InitBuffer",
                     "the kernel's InitBuffer calls hand out " + std::to_string(r.mem_bytes[m]) + " bytes of " + mem_name(Mem(m)) +
                         ", past the core's " + std::to_string(capacity(soc, Mem(m))) + "-byte " + mem_name(Mem(m)) +
                         "; the first use of a buffer past the end faults on the device");
    if (!options.timing || options.preflight) return r;
    std::vector<double> block_start;
    const double cycles = launch_cycles(jobs, block_dim, units, [](const BlockJob& j) { return j.result.end_cycles; }, &block_start);
    r.latency_us = latency_us(cycles, soc);
    r.variant_latency_us = variant_latencies(jobs, block_dim, units, options);
    for (auto& j : jobs) {
        j.result.start_cycles = block_start[size_t(j.group)];
        r.blocks.push_back(std::move(j.result));
    }
    return r;
}

}  // namespace ascendopt_twin
