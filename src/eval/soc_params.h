// What each SoC parameter rests on: every value of a share/soc/*.toml file has an entry in its
// [provenance] table (doc, vendor-config, measured or estimate, with a source line), and an
// estimate has the range it could plausibly take and the reason for it, so that a figure can
// say what it rests on and a program can be re-timed across those ranges.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/result.h"

namespace ascendopt {

enum class Provenance { doc, vendor_config, measured, estimate };
const char* provenance_name(Provenance p);

struct ParameterRange {
    double low = 0;
    double high = 0;
};

// One value of a SoC description. `key` is its dotted path ("mte.latency_cycles",
// "vector.cycles_per_repeat.Exp"); `value` is unset for a non-numeric value (compiler.defines).
struct SocParameter {
    std::string key;
    std::optional<double> value;
    std::string shown;  // the value as the file has it
    Provenance provenance = Provenance::estimate;
    std::string source;
    std::optional<ParameterRange> range;
    std::string reason;  // why the range is what it is
    std::string entry;   // the [provenance] entry that covers it
};

// The parameters of a parsed SoC file, each with its provenance, or an error naming the first
// parameter without an entry, an estimate without a range, a value outside its range, or an
// entry that covers nothing.
Result<std::vector<SocParameter>> soc_parameters(const nlohmann::json& doc);

// An uncertain quantity of the model: one [provenance] entry with a range, and the parameters
// it moves together (a table-wide entry scales all its values by one factor). Factors are
// relative to the file's values: a sample sets each member to value * factor.
struct UncertainParameter {
    std::string name;  // the entry's name
    std::vector<std::string> keys;
    double low_factor = 1;
    double high_factor = 1;
};
std::vector<UncertainParameter> uncertain_parameters(const std::vector<SocParameter>& params);

// `doc` with every member of `u` set to its file value times `factor`.
nlohmann::json scaled_soc(nlohmann::json doc, const std::vector<SocParameter>& params, const UncertainParameter& u,
                          double factor);

}  // namespace ascendopt
