#include "eval/soc_params.h"

#include <map>
#include <set>

namespace ascendopt {
namespace {

using nlohmann::json;

// The identity of a SoC, not a parameter of the model.
bool is_identity(const std::string& key) { return key == "name" || key == "short_name" || key == "provenance"; }

// Every leaf value of the description with its dotted path: numbers, and arrays as one value.
void collect_leaves(const json& node, const std::string& prefix, std::vector<SocParameter>& out) {
    for (const auto& [k, v] : node.items()) {
        const std::string key = prefix.empty() ? k : prefix + "." + k;
        if (prefix.empty() && is_identity(k)) continue;
        if (v.is_object()) {
            collect_leaves(v, key, out);
            continue;
        }
        SocParameter p;
        p.key = key;
        if (v.is_number()) p.value = v.get<double>();
        p.shown = v.is_string() ? v.get<std::string>() : v.dump();
        out.push_back(std::move(p));
    }
}

std::optional<Provenance> provenance_from(const std::string& s) {
    if (s == "doc") return Provenance::doc;
    if (s == "vendor-config") return Provenance::vendor_config;
    if (s == "measured") return Provenance::measured;
    if (s == "estimate") return Provenance::estimate;
    return std::nullopt;
}

std::optional<ParameterRange> pair_of(const json& entry, const char* field) {
    if (!entry.contains(field)) return std::nullopt;
    const json& r = entry[field];
    if (!r.is_array() || r.size() != 2 || !r[0].is_number() || !r[1].is_number()) return ParameterRange{-1, -2};
    return ParameterRange{r[0].get<double>(), r[1].get<double>()};
}

struct Entry {
    std::string name;
    const json* body = nullptr;
};

// The entry that covers `key`: one named by the key itself, else one that lists it in `keys`,
// else the nearest table entry whose name is a prefix of the key.
const Entry* covering_entry(const std::string& key, const std::map<std::string, Entry>& exact,
                            const std::map<std::string, Entry>& listed) {
    if (auto it = exact.find(key); it != exact.end()) return &it->second;
    if (auto it = listed.find(key); it != listed.end()) return &it->second;
    for (std::string prefix = key; prefix.find('.') != std::string::npos;) {
        prefix.erase(prefix.rfind('.'));
        if (auto it = exact.find(prefix); it != exact.end()) return &it->second;
    }
    return nullptr;
}

std::string fix_hint() {
    return "give it an entry in the file's [provenance] table: kind = \"doc\" | \"vendor-config\" | \"measured\" | \"estimate\", "
           "source = \"where it comes from\"; an estimate also needs range = [low, high] (or range_factor) and reason";
}

// Fills p's provenance from `e`, or says what is wrong with the entry.
std::optional<Error> apply_entry(SocParameter& p, const Entry& e) {
    const json& b = *e.body;
    auto where = [&] { return "[provenance] entry \"" + e.name + "\" (for " + p.key + ")"; };
    const auto kind = provenance_from(b.value("kind", ""));
    if (!kind) return make_error(where() + " has no kind doc, vendor-config, measured or estimate", fix_hint());
    p.provenance = *kind;
    p.source = b.value("source", "");
    p.reason = b.value("reason", "");
    p.entry = e.name;
    if (p.source.empty()) return make_error(where() + " has no source", fix_hint());
    const auto range = pair_of(b, "range");
    const auto factor = pair_of(b, "range_factor");
    if ((range && range->low > range->high) || (factor && factor->low > factor->high))
        return make_error(where() + ": a range is [low, high] with low <= high");
    if (p.value && range) p.range = range;
    if (p.value && factor) p.range = ParameterRange{*p.value * factor->low, *p.value * factor->high};
    if (p.provenance == Provenance::estimate && !p.range)
        return make_error(where() + " is an estimate without a range", fix_hint());
    if (p.range && p.reason.empty()) return make_error(where() + " gives a range without a reason", fix_hint());
    if (p.range && p.value && (*p.value < p.range->low || *p.value > p.range->high))
        return make_error(p.key + " = " + p.shown + " lies outside its range [" + std::to_string(p.range->low) + ", " +
                          std::to_string(p.range->high) + "]");
    return std::nullopt;
}

}  // namespace

const char* provenance_name(Provenance p) {
    switch (p) {
        case Provenance::doc: return "doc";
        case Provenance::vendor_config: return "vendor-config";
        case Provenance::measured: return "measured";
        case Provenance::estimate: return "estimate";
    }
    return "?";
}

Result<std::vector<SocParameter>> soc_parameters(const json& doc) {
    if (!doc.is_object()) return make_error("a SoC description is a table");
    std::vector<SocParameter> params;
    collect_leaves(doc, "", params);
    const json provenance = doc.value("provenance", json::object());
    if (!provenance.is_object()) return make_error("the SoC description's provenance is not a table", fix_hint());
    std::map<std::string, Entry> exact, listed;
    for (const auto& [name, body] : provenance.items()) {
        if (!body.is_object()) return make_error("[provenance] entry \"" + name + "\" is not a table", fix_hint());
        if (!body.contains("keys")) {
            exact[name] = Entry{name, &body};
            continue;
        }
        if (!body["keys"].is_array()) return make_error("[provenance] entry \"" + name + "\": keys is a list of parameter names");
        for (const auto& k : body["keys"])
            if (k.is_string()) listed[k.get<std::string>()] = Entry{name, &body};
    }
    std::set<std::string> used;
    for (SocParameter& p : params) {
        const Entry* e = covering_entry(p.key, exact, listed);
        if (!e) return make_error("SoC parameter " + p.key + " has no provenance", fix_hint());
        if (auto err = apply_entry(p, *e)) return *err;
        used.insert(e->name);
    }
    for (const auto& [name, _] : provenance.items())
        if (!used.count(name))
            return make_error("[provenance] entry \"" + name + "\" names no parameter of the file",
                              "remove it or correct its name (parameters are named section.key)");
    return params;
}

std::vector<UncertainParameter> uncertain_parameters(const std::vector<SocParameter>& params) {
    std::vector<UncertainParameter> out;
    std::map<std::string, size_t> by_entry;
    for (const SocParameter& p : params) {
        if (!p.range || !p.value || *p.value == 0) continue;
        const double lo = p.range->low / *p.value, hi = p.range->high / *p.value;
        auto [it, fresh] = by_entry.try_emplace(p.entry, out.size());
        if (fresh) out.push_back(UncertainParameter{p.entry, {}, lo, hi});
        UncertainParameter& u = out[it->second];
        u.keys.push_back(p.key);
        // Members of a table entry share its factors; an entry with an absolute range over
        // several values keeps the narrowest factors that hold for all of them.
        u.low_factor = std::max(u.low_factor, lo);
        u.high_factor = std::min(u.high_factor, hi);
    }
    return out;
}

json scaled_soc(json doc, const std::vector<SocParameter>& params, const UncertainParameter& u, double factor) {
    std::map<std::string, double> values;
    for (const SocParameter& p : params)
        if (p.value) values[p.key] = *p.value;
    for (const std::string& key : u.keys) {
        json* node = &doc;
        size_t start = 0;
        for (size_t dot; (dot = key.find('.', start)) != std::string::npos; start = dot + 1) node = &(*node)[key.substr(start, dot - start)];
        (*node)[key.substr(start)] = values.at(key) * factor;
    }
    return doc;
}

}  // namespace ascendopt
