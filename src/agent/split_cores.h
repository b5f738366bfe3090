// Splitting a replicated kernel over its cores: the restore of the multicore family for kernels
// that every block runs in full. When the host launches several blocks (SetBlockDim with anything
// but 1) and no kernel file reads GetBlockIdx, each core repeats the whole job: the block dim
// multiplies the GM traffic instead of dividing it. The rewrite hands the tiles of each outermost
// tile loop round-robin to the blocks and runs the statements after such a loop (the remainder
// tile) on the last block only. Correctness is not claimed: a loop that carries state from one
// tile to the next breaks, and the evaluator's cases reject that candidate.
#pragma once

#include <optional>
#include <string>

#include "eval/candidate_folder.h"

namespace ascendopt {

// True when the host sets a block dim other than a literal 1 and no kernel file reads its block
// index (GetBlockIdx, get_block_idx) or synchronises blocks (SyncAll, IBSet/IBWait, CrossCore*).
bool kernel_replicated_over_blocks(const CandidateFiles& files);

// One kernel file with its outermost tile loops split over the blocks; nullopt when it has no
// tile loop it can split safely in form (a `for (T i = 0; i < n; i++)` with a braced body whose
// index scales an offset, `i * len`), or when a second tile loop follows the first in one block.
std::optional<std::string> split_tile_loops(const std::string& kernel);

// The files with every kernel file's tile loops split; nullopt unless the kernel is replicated
// and at least one loop was split.
std::optional<CandidateFiles> split_over_cores(const CandidateFiles& files);

}  // namespace ascendopt
