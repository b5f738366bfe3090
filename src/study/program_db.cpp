#include "study/program_db.h"

#include <algorithm>

namespace ascendopt {

size_t change_bin(size_t changed_lines) {
    if (changed_lines == 0) return 0;
    if (changed_lines <= 10) return 1;
    if (changed_lines <= 40) return 2;
    return 3;
}

ProgramDatabase::ProgramDatabase(EvolveConfig config, uint64_t seed)
    : m_config(config), m_rng(seed), m_islands(std::max<size_t>(1, config.islands)) {}

size_t ProgramDatabase::place(size_t index, size_t island) {
    const Program& p = m_programs[index];
    auto& grid = m_islands.at(island);
    const Cell cell{p.bottleneck, change_bin(p.changed_lines)};
    auto it = grid.find(cell);
    if (it == grid.end() || p.latency_us < m_programs[it->second].latency_us) grid[cell] = index;
    return index;
}

size_t ProgramDatabase::add(Program p, size_t island) {
    p.island = island;
    m_programs.push_back(std::move(p));
    return place(m_programs.size() - 1, island);
}

void ProgramDatabase::seed(const Program& start) {
    m_programs.push_back(start);
    for (size_t i = 0; i < m_islands.size(); ++i) place(m_programs.size() - 1, i);
}

std::vector<size_t> ProgramDatabase::elites(size_t island) const {
    std::vector<size_t> out;
    for (const auto& [cell, index] : m_islands.at(island)) out.push_back(index);
    std::sort(out.begin(), out.end(), [&](size_t a, size_t b) {
        return m_programs[a].latency_us != m_programs[b].latency_us ? m_programs[a].latency_us < m_programs[b].latency_us : a < b;
    });
    return out;
}

size_t ProgramDatabase::sample_parent(size_t island) {
    const auto cells = elites(island);
    const double r = m_rng.uniform01();
    if (r < m_config.exploitation) return cells[uniform(std::min(m_config.elite_pool, cells.size()))];
    if (r < m_config.exploitation + m_config.exploration) return cells[uniform(cells.size())];
    return uniform(m_programs.size());
}

std::vector<size_t> ProgramDatabase::inspirations(size_t island, size_t parent) {
    std::vector<size_t> out;
    const auto cells = elites(island);
    auto take = [&](size_t i) {
        if (i != parent && std::find(out.begin(), out.end(), i) == out.end() && out.size() < m_config.inspirations) out.push_back(i);
    };
    if (!cells.empty()) take(cells.front());  // the island's best
    for (size_t tries = 0; tries < 4 && out.size() < m_config.inspirations && cells.size() > 1; ++tries) take(cells[uniform(cells.size())]);
    return out;
}

size_t ProgramDatabase::migrate() {
    if (m_islands.size() < 2) return 0;
    std::vector<size_t> bests;
    for (size_t i = 0; i < m_islands.size(); ++i) bests.push_back(elites(i).front());
    size_t copies = 0;
    for (size_t i = 0; i < m_islands.size(); ++i) {
        const size_t to = (i + 1) % m_islands.size();
        const auto before = m_islands[to];
        place(bests[i], to);
        copies += before != m_islands[to] ? 1 : 0;
    }
    return copies;
}

size_t ProgramDatabase::best() const {
    size_t best = 0;
    for (size_t i = 1; i < m_programs.size(); ++i)
        if (m_programs[i].latency_us < m_programs[best].latency_us) best = i;
    return best;
}

nlohmann::json ProgramDatabase::to_json() const {
    nlohmann::json islands = nlohmann::json::array();
    for (const auto& grid : m_islands) {
        nlohmann::json cells = nlohmann::json::array();
        for (const auto& [cell, index] : grid)
            cells.push_back({{"bottleneck", cell.first}, {"change_bin", cell.second}, {"program", index}, {"latency_us", m_programs[index].latency_us}});
        islands.push_back(cells);
    }
    return {{"programs", m_programs.size()}, {"islands", islands}};
}

}  // namespace ascendopt
