// The standard headers CANN's host headers bring along, which host code of the tree uses
// without including them itself (std::unique_ptr, std::vector, std::map, std::cout, ...).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

// CANN's base types header names float32_t for host code too (the kernel headers declare the
// same alias; redeclaring it is allowed).
using float32_t = float;
