// Running independent work items on a few threads: the one worker pool of ascendopt (Stage II's
// parallel evaluations, the study's parallel jobs).
#pragma once

#include <cstddef>
#include <functional>

namespace ascendopt {

// Calls fn(i) for every i in [0, count), on at most `workers` threads at once (the calling
// thread is one of them); returns when every call has. Items are handed out in order. fn must
// not throw.
void for_each_parallel(size_t count, int workers, const std::function<void(size_t)>& fn);

}  // namespace ascendopt
