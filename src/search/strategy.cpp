#include "search/strategy.h"

#include <algorithm>
#include <limits>

namespace ascendopt {
namespace {

double fitness(const Trial& t) {
    return t.status == EvalStatus::ok && t.latency_us ? *t.latency_us : std::numeric_limits<double>::infinity();
}

class Exhaustive : public Strategy {
public:
    explicit Exhaustive(const SearchSpace& s) : m_space(s) {}
    std::vector<TilingConfig> ask(size_t n) override {
        std::vector<TilingConfig> out;
        while (out.size() < n && m_next < m_space.size()) out.push_back(m_space.at(m_next++));
        return out;
    }
    void tell(const std::vector<Trial>&) override {}

private:
    const SearchSpace& m_space;
    uint64_t m_next = 0;
};

// Shared by random and genetic: proposals are never repeated.
class Seeded : public Strategy {
protected:
    Seeded(const SearchSpace& s, uint64_t seed) : m_space(s), m_rng(seed) {}
    TilingConfig random_config() {
        TilingConfig c;
        for (const auto& t : m_space.tunables()) c[t.name] = t.domain[m_rng.next() % t.domain.size()];
        return c;
    }
    bool fresh(const TilingConfig& c) { return m_seen.insert(c).second; }
    bool exhausted() const { return m_seen.size() >= m_space.size(); }

    const SearchSpace& m_space;
    Rng m_rng;
    std::set<TilingConfig> m_seen;
};

class RandomSearch : public Seeded {
public:
    RandomSearch(const SearchSpace& s, uint64_t seed) : Seeded(s, seed) {}
    std::vector<TilingConfig> ask(size_t n) override {
        std::vector<TilingConfig> out;
        for (size_t tries = 0; out.size() < n && !exhausted() && tries < 1000 * n; ++tries) {
            TilingConfig c = out.empty() && m_seen.empty() ? m_space.original() : random_config();
            if (fresh(c)) out.push_back(std::move(c));
        }
        return out;
    }
    void tell(const std::vector<Trial>&) override {}
};

class Genetic : public Seeded {
public:
    Genetic(const SearchSpace& s, uint64_t seed, GeneticParams p) : Seeded(s, seed), m_p(p) {}

    std::vector<TilingConfig> ask(size_t n) override {
        std::vector<TilingConfig> out;
        for (size_t tries = 0; out.size() < n && !exhausted() && tries < 1000 * n; ++tries) {
            TilingConfig c = next_candidate();
            if (fresh(c)) out.push_back(std::move(c));
        }
        return out;
    }

    void tell(const std::vector<Trial>& results) override {
        for (const auto& r : results) m_pool.push_back(r);
        // Survivors: the best `population` trials so far (stable for equal fitness).
        std::stable_sort(m_pool.begin(), m_pool.end(), [](const Trial& a, const Trial& b) { return fitness(a) < fitness(b); });
        if (m_pool.size() > m_p.population) m_pool.resize(m_p.population);
    }

private:
    TilingConfig next_candidate() {
        if (m_seen.empty()) return m_space.original();
        if (m_pool.size() < 2) return random_config();
        // Elites are kept in the pool by tell(); children come from tournaments.
        TilingConfig child = crossover(tournament(), tournament());
        mutate(child);
        return child;
    }
    const TilingConfig& tournament() {
        size_t best = m_rng.next() % m_pool.size();
        for (size_t k = 1; k < m_p.tournament; ++k) {
            const size_t i = m_rng.next() % m_pool.size();
            if (fitness(m_pool[i]) < fitness(m_pool[best])) best = i;
        }
        return m_pool[best].config;
    }
    TilingConfig crossover(const TilingConfig& a, const TilingConfig& b) {
        TilingConfig c;
        for (const auto& t : m_space.tunables()) c[t.name] = (m_rng.next() & 1) ? a.at(t.name) : b.at(t.name);
        return c;
    }
    void mutate(TilingConfig& c) {
        const auto& ts = m_space.tunables();
        for (size_t d = 0; d < ts.size(); ++d) {
            if (m_rng.uniform01() >= m_p.mutation_rate) continue;
            const auto& dom = ts[d].domain;
            if (m_rng.uniform01() < 0.7) {  // a neighbour: tiling optima are usually smooth in each constant
                const size_t i = m_space.index_of(d, c[ts[d].name]);
                const size_t j = (m_rng.next() & 1) ? std::min(i + 1, dom.size() - 1) : (i == 0 ? 0 : i - 1);
                c[ts[d].name] = dom[j];
            } else {
                c[ts[d].name] = dom[m_rng.next() % dom.size()];
            }
        }
    }

    GeneticParams m_p;
    std::vector<Trial> m_pool;
};

}  // namespace

Result<std::unique_ptr<Strategy>> make_strategy(const std::string& name, const SearchSpace& space, uint64_t seed,
                                                GeneticParams ga) {
    if (name == "exhaustive") return std::unique_ptr<Strategy>(std::make_unique<Exhaustive>(space));
    if (name == "random") return std::unique_ptr<Strategy>(std::make_unique<RandomSearch>(space, seed));
    if (name == "ga") return std::unique_ptr<Strategy>(std::make_unique<Genetic>(space, seed, ga));
    return make_error("unknown strategy '" + name + "'", "use ga, random or exhaustive");
}

}  // namespace ascendopt
