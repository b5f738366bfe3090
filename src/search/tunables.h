// Tunables: the integer constants of an operator that decide its tiling (tile sizes, buffer
// counts, core counts), found three ways (docs/stage2.md); a discovered constant whose name
// says it is an alignment, a data-type size or a hardware block width is left out, with why:
//  - marked: a constant whose line ends with `// ascendopt: tunable [values=a,b,...]`;
//  - discovered on unmodified code: integer constants used inside the host TilingFunc, and
//    integer constants of the kernel (e.g. BUFFER_NUM);
//  - when the host code has `// # evolve_tiling_block_start` ... `// # evolve_tiling_block_end`,
//    only host constants declared inside that region are tunable.
// Host tunables are injected at run time (no rebuild); kernel tunables are rewritten into the
// source (a new kernel build, cached by content).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "eval/operator_source.h"
#include "util/result.h"

namespace ascendopt {

struct Tunable {
    enum class Where { host, kernel };
    enum class Origin { marked, discovered };
    // One declaration of the constant. A name declared in the host and in the kernel with the
    // same value (e.g. BUFFER_NUM, which sizes the tiles and the queues) is one coupled tunable.
    struct Site {
        std::string file;  // relative to the operator folder
        int line = 0;      // 1-based
        Where where = Where::host;
    };
    std::string name;
    std::vector<Site> sites;
    int64_t value = 0;
    std::vector<int64_t> domain;  // sorted, includes `value`
    Where where = Where::host;    // kernel when any site is in the kernel (a new value rebuilds it)
    Origin origin = Origin::discovered;
    std::string why;  // why it is searched: marked, used by the tiling function, a kernel constant
};

// `ub_bytes` caps the domains of byte-sized constants. Declarations sharing a name are one
// tunable when they agree on the value. Discovered ones that disagree (a host BUFFER_NUM of 2
// beside a kernel BUFFER_NUM of 1) are left out of the search, each with a line in `left_out`
// saying where; marked ones that disagree are an error, since the user asked for them.
Result<std::vector<Tunable>> find_tunables(const OperatorSource& op, uint64_t ub_bytes, std::vector<std::string>* left_out = nullptr);

// Domain of a discovered constant: powers of two around `value` (x1/8 .. x8) for sizes,
// 1..4 for small counts such as buffer numbers, capped at `cap`.
std::vector<int64_t> default_domain(const std::string& name, int64_t value, uint64_t cap);

// A configuration assigns values to tunables by name; missing names keep their original.
using TilingConfig = std::map<std::string, int64_t>;

// Files of the operator with `config` applied: kernel tunables rewritten to their values,
// host tunables rewritten to read their run-time value. Keys are paths relative to the folder.
Result<std::map<std::string, std::string>> apply_config(const OperatorSource& op, const std::vector<Tunable>& tunables,
                                                        const TilingConfig& config);

// Files with `config` written in as plain values (host and kernel): the tuned operator.
Result<std::map<std::string, std::string>> bake_config(const OperatorSource& op, const std::vector<Tunable>& tunables,
                                                       const TilingConfig& config);

// Environment that carries the host tunables of `config` to the operator binary.
std::map<std::string, std::string> host_environment(const std::vector<Tunable>& tunables, const TilingConfig& config);

nlohmann::json to_json(const Tunable& t);

}  // namespace ascendopt
