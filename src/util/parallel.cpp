#include "util/parallel.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace ascendopt {

void for_each_parallel(size_t count, int workers, const std::function<void(size_t)>& fn) {
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i = next++; i < count; i = next++) fn(i);
    };
    std::vector<std::thread> helpers;
    const size_t threads = std::min<size_t>(size_t(std::max(1, workers)), count);
    for (size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
    work();
    for (auto& t : helpers) t.join();
}

}  // namespace ascendopt
