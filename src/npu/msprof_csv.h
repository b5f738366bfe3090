// The per-pipe profile of a device run, read from what `msprof op --aic-metrics=PipeUtilization`
// writes (PipeUtilization.csv, one row per core: its time and each pipe's busy time, as CANN 8.0's
// msprof op documents the file), into the structure of the twin's timing (eval/profile.h reads
// both): per core, the end of its busy time and each pipe's busy time.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "util/result.h"

namespace ascendopt {

// The twin's "blocks" for the rows of a PipeUtilization.csv: {block, core, busy_end_us, pipes:
// {S, V, MTE2, MTE3, MTE1, M, FIX: {busy_us}}}. Columns it lacks count as idle pipes; an error
// when the text has no header with block_id and a core time, or a row is not numbers.
Result<nlohmann::json> blocks_from_pipe_utilization(const std::string& csv);

// The first file named `name` under `dir` (msprof op writes into OPPROF_<time>_<id>/ folders).
std::optional<std::filesystem::path> find_named_file(const std::filesystem::path& dir, const std::string& name);

}  // namespace ascendopt
