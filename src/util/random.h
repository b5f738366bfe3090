// A small, fast, portable PRNG (xoshiro256**, seeded by splitmix64) so that generated inputs
// are identical on every machine and standard library for the same seed.
#pragma once

#include <cmath>
#include <cstdint>

namespace ascendopt {

class Rng {
public:
    explicit Rng(uint64_t seed) {
        for (auto& s : m_s) s = splitmix(seed);
    }
    uint64_t next() {
        const uint64_t result = rotl(m_s[1] * 5, 7) * 9;
        const uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }
    // Uniform in [0, 1).
    double uniform01() { return double(next() >> 11) * 0x1.0p-53; }
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }
    // Standard normal (Box-Muller; one value per call, for simplicity).
    double normal() {
        const double u1 = 1.0 - uniform01(), u2 = uniform01();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static uint64_t splitmix(uint64_t& x) {
        uint64_t z = (x += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    uint64_t m_s[4];
};

}  // namespace ascendopt
