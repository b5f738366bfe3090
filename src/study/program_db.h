// The program database of the openevolve method (our own implementation of the style of
// OpenEvolve / AlphaEvolve): islands that evolve apart, each keeping a MAP-Elites grid in which
// every cell holds the fastest correct program with those features. Features:
//   bottleneck  the pipe that bounds the program's slowest core (S, V, MTE2, MTE3), from its profile;
//   change      how far it is from the starting program: changed lines, binned 0 | 1-10 | 11-40 | >40.
// Parents are drawn per island: exploitation (the island's fastest elites), exploration (any
// cell of the island) or, for the rest, any program of any island. Migration copies each
// island's best to the next island of the ring. Pure logic with a seeded Rng: no I/O.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/workspace.h"
#include "util/random.h"

namespace ascendopt {

// Defaults (docs/study.md). OpenEvolve's own defaults are sized for thousands of iterations
// (5 islands, migration every 50 generations); these are for budgets of tens to hundreds.
struct EvolveConfig {
    size_t islands = 3;
    double exploitation = 0.7;  // parent from the island's top elites
    double exploration = 0.2;   // parent from a random cell of the island; the rest: any program
    size_t elite_pool = 3;      // exploitation draws from the island's this many fastest
    size_t inspirations = 2;    // other programs shown with the parent (the island's best, a random cell)
    int64_t migration_interval = 8;  // evaluations between migrations
    // A model that keeps answering unusably stops the search after this many calls per evaluation of budget.
    int64_t calls_per_evaluation = 3;
};

struct Program {
    CandidateFiles files;
    double latency_us = 0;
    std::string bottleneck;     // "S", "V", "MTE2", "MTE3" ("" when unknown)
    size_t changed_lines = 0;   // against the starting program
    std::optional<size_t> parent;  // index of the parent program
    size_t island = 0;
};

size_t change_bin(size_t changed_lines);

class ProgramDatabase {
public:
    ProgramDatabase(EvolveConfig config, uint64_t seed);

    // Adds a correct program to `island`; it takes its cell when the cell is empty or it is faster.
    // Returns the program's index.
    size_t add(Program p, size_t island);
    // Seeds every island with the starting program.
    void seed(const Program& start);

    size_t sample_parent(size_t island);
    std::vector<size_t> inspirations(size_t island, size_t parent);
    // Each island's best program is copied into the next island (a ring). Returns the copies made.
    size_t migrate();

    const Program& program(size_t i) const { return m_programs.at(i); }
    size_t best() const;  // the fastest program of all
    size_t islands() const { return m_islands.size(); }
    const EvolveConfig& config() const { return m_config; }
    nlohmann::json to_json() const;  // occupancy and best latency of every island's cells

private:
    using Cell = std::pair<std::string, size_t>;  // (bottleneck, change bin)
    size_t place(size_t index, size_t island);
    std::vector<size_t> elites(size_t island) const;  // the island's cell holders, fastest first
    size_t uniform(size_t n) { return n <= 1 ? 0 : size_t(m_rng.next() % n); }

    EvolveConfig m_config;
    Rng m_rng;
    std::vector<Program> m_programs;
    std::vector<std::map<Cell, size_t>> m_islands;
};

}  // namespace ascendopt
