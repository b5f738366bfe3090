#include "eval/toml_json.h"

namespace ascendopt {

nlohmann::json toml_to_json(const toml::node& n) {
    if (auto v = n.value_exact<bool>()) return *v;
    if (auto v = n.value_exact<int64_t>()) return *v;
    if (auto v = n.value_exact<double>()) return *v;
    if (auto v = n.value_exact<std::string>()) return *v;
    if (const auto* t = n.as_table()) {
        nlohmann::json out = nlohmann::json::object();
        for (const auto& [k, v] : *t) out[std::string(k.str())] = toml_to_json(v);
        return out;
    }
    nlohmann::json out = nlohmann::json::array();
    if (const auto* arr = n.as_array())
        for (const auto& e : *arr) out.push_back(toml_to_json(e));
    return out;
}

}  // namespace ascendopt
