#include "eval/soc_loader.h"

#include <toml++/toml.h>

#include <algorithm>

#include "eval/soc_params.h"
#include "eval/toml_json.h"
#include "soc_json.h"
#include "util/files.h"

namespace ascendopt {

std::vector<std::string> known_socs(const fs::path& share_dir) {
    std::vector<std::string> names;
    for (const auto& f : list_files(share_dir / "soc", ".toml")) names.push_back(f.stem().string());
    return names;
}

namespace {

// The file's whole description, provenance included, checked by the twin's own reader and
// for the provenance of every value.
Result<nlohmann::json> read_soc_file(const std::string& name_or_path, const fs::path& share_dir) {
    std::string lower = name_or_path;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    fs::path file = name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".toml")
                        ? fs::path(name_or_path)
                        : share_dir / "soc" / (lower + ".toml");
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) {
        std::string known;
        for (const auto& n : known_socs(share_dir)) known += (known.empty() ? "" : ", ") + n;
        return make_error("unknown SoC '" + name_or_path + "'", "known: " + known + " (or a path to a SoC .toml file)");
    }
    nlohmann::json doc;
    try {
        doc = toml_to_json(toml::parse_file(file.string()));
    } catch (const toml::parse_error& e) {
        return make_error(file.string() + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
    }
    ascendopt_twin::SocSpec spec;
    std::string error;
    if (!ascendopt_twin::soc_from_json(doc, spec, error)) return make_error(file.string() + ": " + error);
    auto params = soc_parameters(doc);
    if (!params) {
        Error e = params.error();
        e.message = file.string() + ": " + e.message;
        return e;
    }
    return doc;
}

}  // namespace

Result<nlohmann::json> load_soc(const std::string& name_or_path, const fs::path& share_dir) {
    auto doc = read_soc_file(name_or_path, share_dir);
    if (doc) doc->erase("provenance");  // operator binaries get the model, not its sources
    return doc;
}

Result<SocWithParameters> load_soc_parameters(const std::string& name_or_path, const fs::path& share_dir) {
    auto doc = read_soc_file(name_or_path, share_dir);
    if (!doc) return doc.error();
    auto params = soc_parameters(*doc);
    nlohmann::json provenance = doc->value("provenance", nlohmann::json::object());
    doc->erase("provenance");
    return SocWithParameters{std::move(*doc), std::move(*params), std::move(provenance)};
}

}  // namespace ascendopt
