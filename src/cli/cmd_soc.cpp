// `ascendopt soc [NAME]`: the parameters of a SoC description, each with the value the twin uses,
// where it comes from and, for an estimate, the range it could take (eval/soc_params.h).
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/exit_codes.h"
#include "cli/report_text.h"
#include "eval/build_config.h"
#include "eval/soc_loader.h"

namespace ascendopt {
namespace {

struct SocCommand {
    std::string soc = "Ascend910B2";
    bool json = false;
    bool estimates_only = false;
};

std::string shown_range(const SocParameter& p) {
    if (!p.range) return "";
    std::ostringstream s;
    s << "[" << p.range->low << ", " << p.range->high << "]";
    return s.str();
}

nlohmann::json parameter_json(const SocParameter& p) {
    nlohmann::json j = {{"key", p.key}, {"provenance", provenance_name(p.provenance)}, {"source", p.source}};
    if (p.value) j["value"] = *p.value;
    else j["value"] = p.shown;
    if (p.range) j["range"] = {p.range->low, p.range->high};
    if (!p.reason.empty()) j["reason"] = p.reason;
    return j;
}

void print_table(const std::string& name, const std::vector<SocParameter>& params, bool estimates_only) {
    std::map<std::string, int> counts;
    for (const auto& p : params) ++counts[provenance_name(p.provenance)];
    std::cout << name << ": " << params.size() << " parameters (";
    bool first = true;
    for (const auto& [kind, n] : counts) std::cout << (first ? "" : ", ") << kind << " " << n, first = false;
    std::cout << ")\n";
    std::cout << std::left << std::setw(44) << "parameter" << std::setw(14) << "value" << std::setw(15) << "provenance"
              << std::setw(22) << "range" << "source\n";
    for (const auto& p : params) {
        if (estimates_only && p.provenance != Provenance::estimate) continue;
        std::string value = p.shown.size() > 12 ? p.shown.substr(0, 11) + "~" : p.shown;
        std::cout << std::setw(44) << p.key << std::setw(14) << value << std::setw(15) << provenance_name(p.provenance)
                  << std::setw(22) << shown_range(p) << p.source;
        if (!p.reason.empty()) std::cout << " (range: " << p.reason << ")";
        std::cout << "\n";
    }
}

int run_soc(const SocCommand& c) {
    auto loaded = load_soc_parameters(c.soc, ASCENDOPT_SHARE_DIR);
    if (!loaded) {
        std::cerr << render_error(loaded.error());
        return k_exit_bad_input;
    }
    const std::string name = loaded->doc.value("name", c.soc);
    if (c.json) {
        nlohmann::json out = {{"name", name}, {"parameters", nlohmann::json::array()}};
        for (const auto& p : loaded->parameters)
            if (!c.estimates_only || p.provenance == Provenance::estimate) out["parameters"].push_back(parameter_json(p));
        std::cout << out.dump(2) << "\n";
        return k_exit_ok;
    }
    print_table(name, loaded->parameters, c.estimates_only);
    return k_exit_ok;
}

}  // namespace

CommandRunner add_soc_command(CLI::App& app) {
    auto c = std::make_shared<SocCommand>();
    CLI::App* cmd = app.add_subcommand("soc", "The parameters of a SoC description: value, provenance, range of each estimate");
    cmd->add_option("soc", c->soc, "A name under share/soc (Ascend910B2, Ascend910B3, Ascend310P3) or a .toml path")
        ->capture_default_str();
    cmd->add_flag("--json", c->json, "Print the parameters as JSON");
    cmd->add_flag("--estimates", c->estimates_only, "Only the estimated parameters");
    cmd->footer(k_exit_codes_help);
    return [c] { return run_soc(*c); };
}

}  // namespace ascendopt
