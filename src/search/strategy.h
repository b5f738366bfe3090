// Search strategies behind one ask/tell interface: ask for a batch of configurations, tell
// the results (in any order), repeat. All randomness comes from the seed, so a seed fixes the
// sequence of proposals for a given sequence of results.
//  - exhaustive: every configuration in index order (for small spaces);
//  - random: uniform samples without repetition;
//  - genetic: tournament selection, uniform crossover, per-gene mutation to a neighbouring or
//    random domain value, elitism; the original configuration seeds the first generation.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/eval_result.h"
#include "search/space.h"
#include "util/random.h"
#include "util/result.h"

namespace ascendopt {

struct Trial {
    TilingConfig config;
    EvalStatus status = EvalStatus::ok;
    std::optional<double> latency_us;  // the objective; failures have none
};

class Strategy {
public:
    virtual ~Strategy() = default;
    // Up to `n` configurations not proposed before; fewer (or none) when the space is used up.
    virtual std::vector<TilingConfig> ask(size_t n) = 0;
    virtual void tell(const std::vector<Trial>& results) = 0;
};

struct GeneticParams {
    size_t population = 12;
    size_t tournament = 3;
    size_t elites = 2;
    double mutation_rate = 0.3;  // per gene
};

Result<std::unique_ptr<Strategy>> make_strategy(const std::string& name, const SearchSpace& space, uint64_t seed,
                                                GeneticParams ga = {});

}  // namespace ascendopt
