// The twin's own byte copies.
//
// A kernel build renames the C library's memcpy, memmove and memset in every candidate object
// to versions that charge and confine each byte like the kernel's own scalar accesses
// (rt/candidate_memory.cpp, docs/sandbox.md). The twin's kernel headers are compiled into the
// same objects, but their work is charged by the instruction model alone, so they copy through
// these functions, which the rename does not touch.
#pragma once

#include <cstddef>

namespace ascendopt_twin {

void raw_copy(void* dst, const void* src, std::size_t bytes);
void raw_move(void* dst, const void* src, std::size_t bytes);
void raw_fill(void* dst, int byte, std::size_t bytes);

}  // namespace ascendopt_twin
