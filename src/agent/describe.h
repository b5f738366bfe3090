// Rule-based descriptions of an optimization, for when no LLM writes them: the family comes
// from what the change touches (BUFFER_NUM -> double buffering, PipeBarrier -> sync
// elimination, tile constants -> tile size, GetValue/SetValue -> vectorization, core counts ->
// multicore), and each family has a fixed explanation. The bottleneck is read from the slow
// version's profile. Numbers are never invented here; the caller fills them from measurement.
#pragma once

#include <nlohmann/json.hpp>

#include "bank/record.h"

namespace ascendopt {

// Family, title, mechanism, causal chain, reuse conditions, guidance, expected effect and
// keywords for a change that removes `removed` lines and adds `added` lines in `file`.
ExperienceRecord describe_change(const std::string& file, const std::string& removed, const std::string& added);

// "bound by MTE2 (DMA latency), 71% busy; V 12%, S 9%, MTE3 30%" from a compact profile.
std::string bottleneck_of(const nlohmann::json& profile);

}  // namespace ascendopt
