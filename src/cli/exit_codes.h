// Exit codes of the ascendopt command (also listed in `ascendopt --help`).
#pragma once

namespace ascendopt {

enum ExitCode {
    k_exit_ok = 0,           // everything evaluated passed
    k_exit_failed = 1,       // an operator did not pass (build_failed, wrong_result, race, ...)
    k_exit_bad_input = 2,    // bad command line, operator folder, manifest, case file or golden
    k_exit_environment = 3,  // a tool is missing (compiler, Python with numpy)
    k_exit_internal = 4,     // a bug in ascendopt
    k_exit_llm = 5,          // the LLM could not be reached or gave no usable answer
};

constexpr const char* k_exit_codes_help =
    "Exit codes:\n"
    "  0  every case of every operator passed\n"
    "  1  an operator failed (rejected, build_failed, tiling_failed, run_failed, timeout, wrong_result, resource_exceeded,\n"
    "     golden_failed, race); cases marked known_defect that fail as expected do not count\n"
    "  2  bad input: command line, operator folder, manifest, msopst JSON or golden\n"
    "  3  missing tool: C++ compiler, a Python with numpy, or a working bubblewrap (see --unsandboxed)\n"
    "  4  internal error in ascendopt\n"
    "  5  the LLM could not be reached or gave no usable answer (llm ping)\n";

}  // namespace ascendopt
