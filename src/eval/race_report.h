// The hazard checker's races (twin/rt/hazard.h, docs/twin.md "Races") as a kernel engineer
// reads them: both instructions at their operator source lines, the bytes and buffer, and the
// synchronisation that would order them.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/eval_result.h"

namespace ascendopt {

// Adds "where" ("op_kernel/add.cpp:45 in KernelAdd::Compute") to both sites of every race in
// `twin["races"]`, from their frames in `binary`; a site addr2line cannot place keeps none.
void resolve_race_sites(nlohmann::json& twin, const std::filesystem::path& binary);

// The case's reason when races fail it: the first race in full, and how many more there are.
std::string race_reason(const nlohmann::json& twin);

// What makes two races the same: their kind and both instructions (pipe and API), and with
// `with_lines` their source lines too (a report); without, a rewrite that moves code keeps it
// (Stage I's "no new race" rule).
std::string race_identity(const nlohmann::json& race, bool with_lines = true);

// The distinct races of an evaluation (at most 16), each {identity (without lines), text}: what
// an evaluation record keeps (eval/ledger.h).
nlohmann::json race_summary(const EvalResult& r);

// One race in a sentence (its sites resolved or not).
std::string describe_race(const nlohmann::json& race);

// The synchronisation that orders pipe `earlier` before pipe `later` (names as pipe_name gives
// them): "SetFlag/WaitFlag<HardEvent::V_MTE3>", or PipeBarrier<PIPE_ALL> where no event pairs them.
std::string missing_sync(const std::string& earlier, const std::string& later);

}  // namespace ascendopt
