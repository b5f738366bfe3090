#include <cstdlib>
#include <filesystem>
#include <map>
#include <thread>

#include "cli/commands.h"
#include "eval/evaluator.h"

namespace ascendopt {
namespace {

void add_race_option(CLI::App& cmd, EvalOptions& o) {
    o.races = RaceCheck::note;
    const std::map<std::string, RaceCheck> modes = {{"fail", RaceCheck::fail}, {"note", RaceCheck::note}, {"off", RaceCheck::off}};
    cmd.add_option("--races", o.races,
                   "The hazard checker (docs/twin.md, 'Races'): on-chip bytes that two pipes touch with no flag, barrier or queue "
                   "hand-off ordering them. note: reported, the case passes (published operators have races; Stage I and rewind "
                   "reject a candidate with a race its original lacks); fail: such a case fails with status race; off: not checked")
        ->transform(CLI::CheckedTransformer(modes, CLI::ignore_case))
        ->type_name("fail|note|off")
        ->default_str("note");
}

}  // namespace

namespace {
std::vector<std::string>& remembered_command_line() {
    static std::vector<std::string> line;
    return line;
}
}  // namespace

void remember_command_line(int argc, char** argv) { remembered_command_line().assign(argv, argv + argc); }
const std::vector<std::string>& command_line() { return remembered_command_line(); }

void add_common_eval_options(CLI::App& cmd, EvalOptions& o) {
    o.jobs = int(std::max(1u, std::thread::hardware_concurrency()));
    cmd.add_option("--backend", o.backend,
                   "Where candidates run: twin (the Ascend C twin on this CPU), twin-acl (the twin, each case run through the "
                   "ACL runtime and aclnn API as on an NPU) or npu (an Ascend NPU through your CANN toolkit, docs/npu.md); "
                   "default: $ASCENDOPT_BACKEND, else twin")
        ->check(CLI::IsMember({"twin", "twin-acl", "npu"}))
        ->envname("ASCENDOPT_BACKEND")
        ->capture_default_str();
    cmd.add_option("--device", o.npu_devices,
                   "--backend npu: the NPUs to run on, as ids (0,2); each runs one evaluation at a time, so parallel work "
                   "(-j, bench) spreads over them; default: every NPU this process may use (ASCEND_RT_VISIBLE_DEVICES)")
        ->type_name("IDS");
    cmd.add_flag("--profile", o.device_profile,
                  "--backend npu: also run each passing case under the CANN profiler (msprof op) and keep its per-pipe profile "
                  "(the twin always has one)");
    cmd.add_option("--soc", o.soc, "SoC to model: a name under share/soc (Ascend910B2, Ascend310P3) or a .toml path")
        ->capture_default_str();
    cmd.add_option("--seed", o.seed, "Seed of the generated inputs and of --sim-noise")->capture_default_str();
    // The hidden case's shape is drawn afresh for every run (eval/hidden_case.h); a result
    // records the nonce it came from, and this draws that shape again.
    cmd.add_option("--hidden-nonce", o.hidden_nonce,
                   "Draw the hidden case's shape from this nonce (a result's hidden_nonce) instead of a fresh one, to reproduce "
                   "a failure; default: $ASCENDOPT_HIDDEN_NONCE, else fresh for every run")
        ->envname("ASCENDOPT_HIDDEN_NONCE")
        ->type_name("NONCE");
    cmd.add_option("--timeout", o.timeout_seconds, "Seconds each case may run")->capture_default_str();
    cmd.add_option("--golden-timeout", o.golden_timeout_seconds, "Seconds each case's golden may run")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    cmd.add_option_function<double>(
           "--memory", [&o](double gib) { o.memory_limit_bytes = uint64_t(gib * double(1ull << 30)); },
           "GiB of memory an operator run may use; a case that cannot fit is refused before it starts (default 8)")
        ->check(CLI::Range(0.25, 1024.0))
        ->type_name("GIB");
    cmd.add_option_function<double>(
           "--compiler-memory", [&o](double gib) { o.compile_memory_bytes = uint64_t(gib * double(1ull << 30)); },
           "GiB of memory each compiler run may use; a candidate that needs more fails its build (default 4)")
        ->check(CLI::Range(0.25, 1024.0))
        ->type_name("GIB");
    cmd.add_option("--jobs,-j", o.jobs, "Parallel kernel builds (tune: also parallel evaluations)")->capture_default_str();
    cmd.add_option("--sim-noise", o.sim_noise_pct,
                   "Add reproducible measurement noise to simulated latencies: relative std-dev in percent")
        ->check(CLI::Range(0.0, 50.0))
        ->capture_default_str();
    cmd.add_option("--repeats", o.repeats, "Latency samples per perf case; the median is reported")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    cmd.add_flag("--keep", o.keep_work_dirs, "Keep the per-case work folders (inputs, outputs, job files)");
    cmd.add_flag("!--no-timing", o.timing, "Functional run only: skip the timing model (no simulated latency)");
    // Manifests that name a cann-ops operator (cann_ops = "src/math/cos") find it in this checkout.
    // The flag sets ASCENDOPT_CANN_OPS, which every later lookup (and every child process) reads.
    cmd.add_option_function<std::string>(
           "--cann-ops",
           [](const std::string& dir) {
               std::error_code ec;
               const auto abs = std::filesystem::absolute(dir, ec);
               setenv("ASCENDOPT_CANN_OPS", (ec ? std::filesystem::path(dir) : abs).c_str(), 1);
           },
           "Your cann-ops checkout (the folder holding src/), for manifests that name cann-ops operators; "
           "default: $ASCENDOPT_CANN_OPS")
        ->type_name("DIR");
    cmd.add_flag("--strict-gm", o.strict_gm,
                 "Fail any GM access past the end of a tensor, even inside the padding the device runtime allocates "
                 "(docs/twin.md, 'Device memory')");
    cmd.add_flag("--strict-ub", o.strict_ub,
                 "Fail any UB access past its tensor's buffer, even when it stays inside the UB (the device allows it: it "
                 "reads or overwrites the next buffer)");
    add_race_option(cmd, o);
    cmd.add_flag("--unsandboxed", o.unsandboxed,
                 "Build and run candidates without the bubblewrap sandbox (where it cannot run); every result says so");
}

void add_robust_option(CLI::App& cmd, EvalOptions& o) {
    cmd.add_flag("--robust", o.robust,
                 "Accept a rewrite (Stage I) or a tiling (Stage II) only when it is faster with every estimated timing "
                 "parameter at either end of its range (`ascendopt soc --estimates`), not only on the nominal SoC; the "
                 "re-timings cost no budget");
}

void add_replay_option(CLI::App& cmd, EvalOptions& o) {
    o.replay = true;
    cmd.add_flag("!--no-replay", o.replay,
                 "Run every evaluation, even one identical to an earlier one (same sources, cases, tunables and settings); "
                 "by default its stored result is replayed, which saves time and never budget");
}

}  // namespace ascendopt
