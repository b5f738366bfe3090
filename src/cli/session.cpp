#include "cli/session.h"

#include <unistd.h>

#include <iostream>

#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "eval/soc_loader.h"
#include "eval/soc_variants.h"
#include "npu/npu_backend.h"
#include "npu/npu_launcher.h"
#include "npu/twin_acl_launcher.h"
#include "util/cache_trim.h"
#include "util/files.h"
#include "util/sandbox.h"

namespace ascendopt {

namespace {

// The SoC description's compiler.defines ("__CCE_AICORE__=220", ...).
std::vector<std::string> target_defines(const nlohmann::json& soc) {
    std::vector<std::string> out;
    if (soc.contains("compiler") && soc["compiler"].contains("defines"))
        for (const auto& d : soc["compiler"]["defines"])
            if (d.is_string()) out.push_back(d.get<std::string>());
    return out;
}

// --backend npu: the machine checked in one pass (so that a user learns at once everything that
// is missing), then the launcher over the devices the session may use.
Result<DeviceLauncher> npu_launcher(const EvalOptions& options, const std::filesystem::path& share_dir) {
    const EnvLookup env = process_environment();
    auto machine = probe_npu_machine(env, default_search_paths(env), options.soc);
    if (!machine) return machine.error();
    auto devices = chosen_devices(*machine, options.npu_devices);
    if (!devices) return devices.error();
    std::cerr << "ascendopt: npu: " << describe(*machine) << "; running on NPU " << id_list(*devices) << "\n";
    NpuTarget target{machine->cann, *devices, machine->acl.soc_name.empty() ? options.soc : machine->acl.soc_name, share_dir / "include",
                     cache_root() / "npu-packages"};
    target.repeats = std::max(options.repeats, target.repeats);
    target.profile = options.device_profile;
    target.note = [](const std::string& what) { std::cerr << "ascendopt: npu: " << what << "\n"; };
    return make_npu_launcher(std::move(target), env);
}

}  // namespace

std::variant<EvalSession, int> open_session(EvalOptions& options) {
    if (options.backend == "twin-acl") options.device_launcher = make_twin_acl_launcher(this_builds_twin_toolkit());
    auto tc = detect_toolchain();
    if (!tc) {
        std::cerr << render_error(tc.error());
        return k_exit_environment;
    }
    auto soc = load_soc(options.soc, tc->share_dir);
    if (!soc) {
        std::cerr << render_error(soc.error());
        return k_exit_bad_input;
    }
    options.soc_description = *soc;
    if (options.backend == "npu") {
        auto launcher = npu_launcher(options, tc->share_dir);
        if (!launcher) {
            std::cerr << render_error(launcher.error());
            return exit_code_for(launcher.error());
        }
        options.device_launcher = std::move(*launcher);
    }
    if (options.robust) {
        // The ends of every estimated parameter's range (no random samples: an acceptance test
        // should be the same for the same programs).
        auto params = load_soc_parameters(options.soc, tc->share_dir);
        if (!params) {
            std::cerr << render_error(params.error());
            return k_exit_bad_input;
        }
        options.robust_variants = to_json(sensitivity_variants(params->doc, params->parameters, 0, 0));
    }
    if (!options.unsandboxed) {
        auto bwrap = working_bubblewrap();
        if (!bwrap) {
            std::cerr << render_error(bwrap.error());
            return k_exit_environment;
        }
        options.sandbox = *bwrap;
    } else {
        std::cerr << "ascendopt: warning: --unsandboxed: candidates are built and run without isolation\n";
    }
    const auto cache_limit = build_cache_limit_bytes();
    if (!cache_limit) {
        std::cerr << render_error(make_error("ASCENDOPT_CACHE_MAX_GB='" + std::string(std::getenv("ASCENDOPT_CACHE_MAX_GB")) +
                                                 "' is not a number of GiB",
                                             "give the build cache's limit in GiB (0: no limit), or unset it for 20"));
        return k_exit_bad_input;
    }
    EvalSession s;
    s.toolchain = *tc;
    s.builder = std::make_unique<Builder>(*tc, cache_root(), *cache_limit);
    s.builder->set_target_defines(target_defines(*soc));
    s.builder->set_soc_name(soc->value("short_name", ""));
    s.builder->confine(options.sandbox);
    s.builder->set_compile_memory(options.compile_memory_bytes);
    s.builder->check_imports(options.screen);
    // Goldens get the address space of an operator run (--memory, 8 GiB by default).
    s.golden = std::make_unique<GoldenRunner>(*tc, cache_root(), options.golden_timeout_seconds, options.memory_limit_bytes,
                                              *cache_limit);
    s.evaluator = make_twin_evaluator(*s.builder, *s.golden, options);
    return s;
}

int exit_code_for(const Error& e) {
    return e.missing_tool ? k_exit_environment : k_exit_bad_input;
}

Progress::Progress(bool quiet) : m_on(!quiet && isatty(STDERR_FILENO)) {}

ProgressFn Progress::callback() {
    return [on = m_on](const std::string& what, const std::string& detail) {
        if (on) std::cerr << "\r\033[K" << what << ": " << detail << std::flush;
    };
}

void Progress::clear() {
    if (m_on) std::cerr << "\r\033[K" << std::flush;
}

}  // namespace ascendopt
