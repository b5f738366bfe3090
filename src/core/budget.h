// The evaluation budget of a run, counted in unique evaluations: a repeat of an evaluated
// (candidate, configuration) is free, a failed evaluation costs one like any other.
#pragma once

#include <cstdint>

namespace ascendopt {

class Budget {
public:
    Budget(int64_t limit, int64_t used = 0) : m_limit(limit), m_used(used) {}
    bool exhausted() const { return m_used >= m_limit; }
    int64_t used() const { return m_used; }
    int64_t limit() const { return m_limit; }
    int64_t remaining() const { return m_limit > m_used ? m_limit - m_used : 0; }
    void charge() { ++m_used; }

private:
    int64_t m_limit;
    int64_t m_used;
};

}  // namespace ascendopt
