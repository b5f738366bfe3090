// msopst case files (tests/st/*.json): an array of cases, each with input_desc/output_desc
// (format, type, shape, data_distribute, value_range, name), attr, calc_expect_func_file.
// "type" (and "format") may list several dtypes; entry i of every tensor forms combination i.
// ascendopt also reads "role" ("check"/"perf"), "rtol" and "atol" when present.
#include <cmath>

#include "core/format.h"
#include "eval/golden.h"
#include "eval/operator_source.h"
#include "util/files.h"
#include "util/json_bounded.h"

namespace ascendopt {
namespace {

using nlohmann::json;

// A scalar or a list; returns entry i (or the only entry).
Result<json> pick(const json& v, size_t i, size_t combos, const std::string& what) {
    if (!v.is_array()) return v;
    if (v.size() == 1) return v[0];
    if (v.size() != combos) return make_error(what + " lists " + std::to_string(v.size()) + " entries but the case has " + std::to_string(combos) + " dtype combinations");
    return v[i];
}

size_t combinations(const json& c) {
    size_t n = 1;
    for (const char* key : {"input_desc", "output_desc"})
        for (const auto& t : c.value(key, json::array()))
            if (t.contains("type") && t["type"].is_array()) n = std::max(n, t["type"].size());
    return n;
}

Result<TensorSpec> read_tensor(const json& t, size_t i, size_t combos, const std::string& where, bool input) {
    TensorSpec s;
    if (!t.is_object()) return make_error(where + ": each tensor description must be an object");
    s.name = t.value("name", "");
    if (s.name.empty()) return make_error(where + ": a tensor description has no \"name\"", "msopst names must match the OpDef's input/output names");
    const std::string what = where + " tensor '" + s.name + "'";
    if (!t.contains("type")) return make_error(what + " has no \"type\"");
    auto type = pick(t["type"], i, combos, what + " type");
    if (!type) return type.error();
    const auto dt = type->is_string() ? parse_dtype(type->get<std::string>()) : std::nullopt;
    if (!dt) return make_error(what + ": unknown type " + type->dump(), "e.g. \"float16\", \"float\", \"bfloat16\", \"int32\"");
    s.dtype = *dt;
    if (!t.contains("shape") || !t["shape"].is_array()) return make_error(what + " has no \"shape\" array");
    for (const auto& d : t["shape"]) {
        if (!d.is_number_integer() || d.get<int64_t>() < 0) return make_error(what + ": shape must list non-negative integers, got " + t["shape"].dump());
        s.shape.push_back(d.get<int64_t>());
    }
    if (t.contains("format")) {  // unknown formats (msopst files use a few oddities) stay ND
        auto f = pick(t["format"], i, combos, what + " format");
        if (f && f->is_string() && format_code(f->get<std::string>())) s.format = f->get<std::string>();
    }
    if (!input) return s;
    if (t.contains("data_distribute")) {
        auto dist = pick(t["data_distribute"], i, combos, what + " data_distribute");
        if (!dist) return dist.error();
        auto parsed = parse_distribution(dist->is_string() ? dist->get<std::string>() : dist->dump());
        if (!parsed) return make_error(what + ": " + parsed.error().message, parsed.error().hint);
        s.distribution = *parsed;
    }
    if (t.contains("value_range")) {
        json r = t["value_range"];
        if (r.is_array() && !r.empty() && r[0].is_array()) {
            auto p = pick(r, i, combos, what + " value_range");
            if (!p) return p.error();
            r = *p;
        }
        if (!r.is_array() || r.size() != 2 || !r[0].is_number() || !r[1].is_number() || !std::isfinite(r[0].get<double>()) ||
            !std::isfinite(r[1].get<double>()) || r[0].get<double>() > r[1].get<double>())
            return make_error(what + ": value_range must be [low, high] of finite numbers, got " + t["value_range"].dump());
        s.low = r[0].get<double>();
        s.high = r[1].get<double>();
    }
    return s;
}

Status read_case(const json& c, const fs::path& file, const GoldenSpec& default_golden, const fs::path& operator_folder,
                 std::vector<CaseDraft>& out) {
    if (!c.is_object()) return make_error(file.filename().string() + ": each case must be an object");
    const std::string name = c.value("case_name", "");
    if (name.empty()) return make_error(file.filename().string() + ": a case has no \"case_name\"");
    const std::string where = file.filename().string() + " case '" + name + "'";
    CaseDraft base;
    base.origin = file.filename().string();
    base.explicit_tensors = true;
    base.golden = default_golden;
    const std::string role = c.value("role", "check");
    if (role != "check" && role != "perf") return make_error(where + ": role must be \"check\" or \"perf\"");
    base.role = role == "perf" ? CaseRole::perf : CaseRole::check;
    if (c.contains("rtol") || c.contains("atol")) {
        for (const char* key : {"rtol", "atol"})
            if (c.contains(key) && (!c[key].is_number() || !std::isfinite(c[key].get<double>()) || c[key].get<double>() < 0))
                return make_error(file.string() + ": case " + name + ": " + key + " must be a finite number >= 0");
        if (c.contains("rtol")) base.tolerance.rtol = c["rtol"].get<double>();
        if (c.contains("atol")) base.tolerance.atol = c["atol"].get<double>();
    }
    if (c.contains("calc_expect_func_file")) {
        // A golden anywhere on disk would run as a program: only one kept with the operator is.
        const std::string ref = c.value("calc_expect_func_file", "");
        auto g = parse_golden_ref(ref, file.parent_path());
        const Status kept = g ? check_golden_location(*g, ref, file, operator_folder) : Status(g.error());
        if (!kept) return make_error(where + ": " + kept.error().message, kept.error().hint);
        base.golden = *g;
    }
    for (const auto& a : c.value("attr", json::array())) {
        if (!a.is_object() || !a.contains("name") || !a.contains("value")) return make_error(where + ": each attr needs \"name\" and \"value\"");
        base.attrs[a["name"].get<std::string>()] = a["value"];
    }
    const size_t combos = combinations(c);
    for (size_t i = 0; i < combos; ++i) {
        CaseDraft d = base;
        for (const auto& [key, input] : {std::pair{"input_desc", true}, std::pair{"output_desc", false}}) {
            if (!c.contains(key) || !c[key].is_array()) return make_error(where + " has no \"" + std::string(key) + "\" array");
            for (const auto& t : c[key]) {
                auto spec = read_tensor(t, i, combos, where, input);
                if (!spec) return spec.error();
                (input ? d.inputs : d.outputs).push_back(std::move(*spec));
            }
        }
        d.name = combos > 1 ? name + "[" + dtype_name(d.inputs.empty() ? d.outputs.front().dtype : d.inputs.front().dtype) + "]" : name;
        out.push_back(std::move(d));
    }
    return ok_status();
}

}  // namespace

Status read_msopst(const fs::path& file, const GoldenSpec& default_golden, std::vector<CaseDraft>& out, const fs::path& operator_folder) {
    auto text = read_text(file);
    if (!text) return text.error();
    auto parsed = parse_bounded_json(*text, file.string());
    if (!parsed) return make_error(parsed.error().message, "msopst case files hold a JSON array of case objects");
    json doc = std::move(*parsed);
    if (doc.is_object()) doc = json::array({doc});
    if (!doc.is_array()) return make_error(file.string() + ": expected an array of cases");
    try {
        for (const auto& c : doc)
            if (auto s = read_case(c, file, default_golden, operator_folder, out); !s) return s;
    } catch (const json::exception& e) {  // a field of the wrong JSON type
        return make_error(file.string() + ": " + e.what());
    }
    return ok_status();
}

}  // namespace ascendopt
