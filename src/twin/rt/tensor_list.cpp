// The tensor lists of dynamic parameters in GM (twin_rt.h).
#include <algorithm>

#include "twin_rt.h"

namespace ascendopt_twin {

std::vector<uint64_t> tensor_list_words(const std::vector<std::vector<int64_t>>& shapes, const std::vector<uint64_t>& data) {
    const bool shapeless = std::all_of(shapes.begin(), shapes.end(), [](const auto& s) { return s.empty(); });
    std::vector<uint64_t> words = {0};
    if (shapeless) {
        words.push_back(uint64_t(shapes.size()) << 32);
        words.push_back(0xffffffffull);
    } else {
        for (size_t i = 0; i < shapes.size(); ++i) {
            words.push_back((uint64_t(i) << 32) | uint64_t(shapes[i].size()));
            for (int64_t d : shapes[i]) words.push_back(uint64_t(d));
        }
    }
    words[0] = words.size() * sizeof(uint64_t);
    words.insert(words.end(), data.begin(), data.end());
    return words;
}

}  // namespace ascendopt_twin
