// ascendopt.toml reader. Unknown keys are errors, so a typo never silently drops a setting.
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/format.h"
#include "eval/golden.h"
#include "eval/operator_source.h"
#include "eval/toml_json.h"
#include "util/files.h"

namespace ascendopt {
namespace {

std::string at(const toml::node& n, const fs::path& file) {
    const auto& s = n.source();
    return file.filename().string() + ":" + std::to_string(s.begin.line) + ":" + std::to_string(s.begin.column);
}

Status check_keys(const toml::table& t, const std::set<std::string>& known, const std::string& where, const fs::path& file) {
    for (const auto& [k, v] : t) {
        if (known.count(std::string(k.str()))) continue;
        std::string list;
        for (const auto& n : known) list += (list.empty() ? "" : ", ") + n;
        return make_error(at(v, file) + ": unknown key '" + std::string(k.str()) + "' in " + where, "known keys: " + list);
    }
    return ok_status();
}

Result<std::vector<int64_t>> int_list(const toml::node& n, const std::string& what, const fs::path& file) {
    const auto* arr = n.as_array();
    if (!arr) return make_error(at(n, file) + ": " + what + " must be an array of integers");
    std::vector<int64_t> out;
    for (const auto& e : *arr) {
        const auto v = e.value<int64_t>();
        if (!v) return make_error(at(e, file) + ": " + what + " must be an array of integers");
        out.push_back(*v);
    }
    return out;
}

Result<std::vector<double>> number_list(const toml::node& n, const std::string& what, const fs::path& file) {
    const auto* arr = n.as_array();
    if (!arr || arr->empty()) return make_error(at(n, file) + ": " + what + " must be a non-empty array of numbers");
    std::vector<double> out;
    for (const auto& e : *arr) {
        // Integers convert (rounded to the nearest double past 2^53: int_list keeps them exact);
        // inf and nan are TOML floats.
        const auto i = e.value_exact<int64_t>();
        const auto v = i ? std::optional<double>(double(*i)) : e.value<double>();
        if (!v) return make_error(at(e, file) + ": " + what + " must be an array of numbers");
        out.push_back(*v);
    }
    return out;
}

Result<std::pair<double, double>> range_of(const toml::node& n, const fs::path& file) {
    const auto* arr = n.as_array();
    if (!arr || arr->size() != 2 || !(*arr)[0].value<double>() || !(*arr)[1].value<double>())
        return make_error(at(n, file) + ": range must be [low, high]");
    const double lo = *(*arr)[0].value<double>(), hi = *(*arr)[1].value<double>();
    if (!std::isfinite(lo) || !std::isfinite(hi))
        return make_error(at(n, file) + ": range must be finite numbers; give special values with values = [...]");
    if (lo > hi) return make_error(at(n, file) + ": range low " + std::to_string(lo) + " is above high " + std::to_string(hi));
    return std::make_pair(lo, hi);
}

Result<DType> dtype_of(const toml::node& n, const fs::path& file) {
    const auto s = n.value<std::string>();
    const auto t = s ? parse_dtype(*s) : std::nullopt;
    if (!t) return make_error(at(n, file) + ": unknown dtype " + (s ? "'" + *s + "'" : "(not a string)"), "e.g. float16, float32, bfloat16, int32");
    return *t;
}

Result<std::vector<DType>> dtype_list(const toml::node& n, const fs::path& file) {
    const auto* arr = n.as_array();
    if (!arr) return make_error(at(n, file) + ": dtypes must be an array of strings");
    std::vector<DType> out;
    for (const auto& e : *arr) {
        auto t = dtype_of(e, file);
        if (!t) return t.error();
        out.push_back(*t);
    }
    return out;
}

Result<std::vector<std::vector<int64_t>>> shape_list(const toml::node& n, const fs::path& file) {
    const auto* arr = n.as_array();
    if (!arr || arr->empty()) return make_error(at(n, file) + ": shapes must be a non-empty array of shapes, like [[4, 8], [33]]");
    std::vector<std::vector<int64_t>> out;
    for (const auto& e : *arr) {
        auto s = int_list(e, "each entry of shapes", file);
        if (!s) return s.error();
        out.push_back(std::move(*s));
    }
    return out;
}

Result<ToleranceOverride> tolerance_of(const toml::table& t, ToleranceOverride tol, const fs::path& file) {
    for (const auto& [key, field] : {std::pair{"rtol", &tol.rtol}, std::pair{"atol", &tol.atol}}) {
        const auto* n = t.get(key);
        if (!n) continue;
        const auto v = n->value<double>();
        if (!v || !std::isfinite(*v) || *v < 0) return make_error(at(*n, file) + ": " + key + " must be a finite number >= 0");
        *field = *v;
    }
    return tol;
}

// Settings shared by [defaults] and [[case]] (and, per tensor, by [case.tensors.NAME]).
Status read_common(const toml::table& t, CaseDraft& d, const fs::path& file) {
    if (const auto* n = t.get("shape")) {
        auto s = int_list(*n, "shape", file);
        if (!s) return s.error();
        d.shape = *s;
    }
    if (const auto* n = t.get("shapes")) {
        auto s = shape_list(*n, file);
        if (!s) return s.error();
        d.list_shapes = *s;
    }
    if (const auto* n = t.get("dtype")) {
        auto dt = dtype_of(*n, file);
        if (!dt) return dt.error();
        d.dtypes = {*dt};
    }
    if (const auto* n = t.get("dtypes")) {
        auto l = dtype_list(*n, file);
        if (!l) return l.error();
        d.dtypes = *l;
    }
    if (const auto* n = t.get("range")) {
        auto r = range_of(*n, file);
        if (!r) return r.error();
        d.range = *r;
    }
    if (const auto* n = t.get("distribution")) {
        auto dist = parse_distribution(n->value<std::string>().value_or("?"));
        if (!dist) return make_error(at(*n, file) + ": " + dist.error().message, dist.error().hint);
        d.distribution = *dist;
    }
    auto tol = tolerance_of(t, d.tolerance, file);
    if (!tol) return tol.error();
    d.tolerance = *tol;
    return ok_status();
}

Status read_tensor_override(const toml::table& t, const std::string& name, TensorOverride& o, const fs::path& file) {
    if (auto s = check_keys(t, {"shape", "shapes", "dtype", "range", "distribution", "values", "rtol", "atol", "format"}, "tensors." + name, file); !s)
        return s;
    if (const auto* n = t.get("format")) {
        const auto f = n->value<std::string>();
        if (!f || !format_code(*f)) return make_error(at(*n, file) + ": unknown format " + (f ? "'" + *f + "'" : "(not a string)"), "e.g. ND, NCHW, NCDHW, NDC1HWC0, FRACTAL_NZ");
        o.format = f->rfind("FORMAT_", 0) == 0 ? f->substr(7) : *f;
    }
    if (const auto* n = t.get("values")) {
        auto v = number_list(*n, "values", file);
        if (!v) return v.error();
        o.values = std::move(*v);
        // All integers: kept exactly too, for integer tensors (int64 beyond 2^53).
        const auto* arr = n->as_array();
        if (std::all_of(arr->begin(), arr->end(), [](const toml::node& e) { return e.is_integer(); })) {
            auto ints = int_list(*n, "values", file);
            if (!ints) return ints.error();
            o.int_values = std::move(*ints);
        }
    }
    CaseDraft tmp;
    tmp.dtypes.clear();
    if (auto s = read_common(t, tmp, file); !s) return s;
    if (tmp.shape) o.shape = tmp.shape;
    if (tmp.list_shapes) o.list_shapes = tmp.list_shapes;
    o.tolerance = tmp.tolerance;
    if (t.get("dtype")) o.dtype = tmp.dtypes.front();
    if (t.get("range")) o.range = tmp.range;
    if (t.get("distribution")) o.distribution = tmp.distribution;
    return ok_status();
}

// The golden `n` of the manifest `file` names, which must lie inside the operator folder `root`
// or the manifest's own folder (golden.h: goldens run as programs).
Result<GoldenSpec> read_golden(const toml::node& n, const fs::path& file, const fs::path& root) {
    const std::string ref = n.value<std::string>().value_or("");
    auto g = parse_golden_ref(ref, file.parent_path());
    const Status kept = g ? check_golden_location(*g, ref, file, root) : Status(g.error());
    if (!kept) return make_error(at(n, file) + ": " + kept.error().message, kept.error().hint);
    return g;
}

Status read_case(const toml::table& t, CaseDraft& d, const fs::path& file, const fs::path& root) {
    static const std::set<std::string> keys = {"name", "role", "shape", "shapes", "dtype", "dtypes", "range", "distribution",
                                               "rtol", "atol", "attrs", "tensors", "golden", "known_defect"};
    if (auto s = check_keys(t, keys, "[[case]]", file); !s) return s;
    const auto name = t["name"].value<std::string>();
    if (!name || name->empty()) return make_error(at(t, file) + ": every [[case]] needs a name");
    d.name = *name;
    if (const auto* n = t.get("role")) {
        const auto r = n->value<std::string>().value_or("");
        if (r != "check" && r != "perf") return make_error(at(*n, file) + ": role must be \"check\" or \"perf\", not '" + r + "'");
        d.role = r == "perf" ? CaseRole::perf : CaseRole::check;
    }
    if (auto s = read_common(t, d, file); !s) return s;
    if (const auto* n = t.get("known_defect")) {
        const auto why = n->value<std::string>();
        if (!why || why->empty())
            return make_error(at(*n, file) + ": known_defect must say why the operator gets this case wrong on the device");
        d.known_defect = *why;
    }
    if (const auto* attrs = t["attrs"].as_table())
        for (const auto& [k, v] : *attrs) d.attrs[std::string(k.str())] = toml_to_json(v);
    if (const auto* g = t.get("golden")) {
        auto spec = read_golden(*g, file, root);
        if (!spec) return spec.error();
        d.golden = *spec;
    }
    if (const auto* tensors = t["tensors"].as_table())
        for (const auto& [k, v] : *tensors) {
            const auto* tt = v.as_table();
            if (!tt) return make_error(at(v, file) + ": tensors." + std::string(k.str()) + " must be a table");
            if (auto s = read_tensor_override(*tt, std::string(k.str()), d.overrides[std::string(k.str())], file); !s) return s;
        }
    return ok_status();
}

// The operator folder a manifest describes: `source` (relative to the manifest) or `cann_ops`
// (relative to the user's cann-ops checkout, docs/operators.md).
Result<fs::path> operator_root(const toml::table* op, const fs::path& file) {
    const fs::path base = file.parent_path();
    std::error_code ec;
    if (op && op->contains("source") && op->contains("cann_ops"))
        return make_error(at(*op, file) + ": [operator] sets both source and cann_ops", "keep one: the operator folder comes from one place");
    if (const auto* n = op ? op->get("cann_ops") : nullptr) {
        const auto rel = n->value<std::string>();
        if (!rel || rel->empty()) return make_error(at(*n, file) + ": cann_ops must be a path inside a cann-ops checkout, like \"src/math/cos\"");
        auto checkout = cann_ops_checkout();
        if (!checkout) return make_error(file.string() + " names the cann-ops operator " + *rel + ": " + checkout.error().message, checkout.error().hint);
        const fs::path source = *checkout / *rel;
        if (!fs::is_directory(source, ec))
            return make_error(file.string() + ": the cann-ops checkout " + checkout->string() + " has no " + *rel,
                              "is " + checkout->string() + " a cann-ops checkout (it holds src/math/...)? name the right one with --cann-ops DIR");
        return fs::canonical(source, ec);
    }
    const fs::path source = base / (op ? (*op)["source"].value<std::string>().value_or(".") : ".");
    if (!fs::is_directory(source, ec)) return make_error(file.filename().string() + ": source folder " + source.string() + " does not exist");
    return fs::canonical(source, ec);
}

// [hidden]: dims = {m = 512, ...} (bounds), shapes = {x = ["m", "n"], bias = [1, "n"], ...}.
Result<HiddenShapes> read_hidden(const toml::table& t, const fs::path& file) {
    if (auto s = check_keys(t, {"dims", "shapes"}, "[hidden]", file); !s) return s.error();
    HiddenShapes spec;
    const auto* dims = t["dims"].as_table();
    const auto* shapes = t["shapes"].as_table();
    if (!dims || !shapes) return make_error(at(t, file) + ": [hidden] needs dims = {name = bound, ...} and shapes = {tensor = [dims], ...}");
    for (const auto& [k, v] : *dims) {
        const auto bound = v.value<int64_t>();
        if (!bound || *bound < 1) return make_error(at(v, file) + ": hidden dimension " + std::string(k.str()) + " needs a bound >= 1");
        spec.dims[std::string(k.str())] = *bound;
    }
    for (const auto& [k, v] : *shapes) {
        const auto* arr = v.as_array();
        if (!arr) return make_error(at(v, file) + ": hidden shape of " + std::string(k.str()) + " must be an array of dimension names and sizes");
        auto& shape = spec.shapes[std::string(k.str())];
        for (const auto& e : *arr) {
            if (const auto n = e.value<int64_t>(); n && e.is_integer() && *n >= 0) {
                shape.push_back(std::to_string(*n));
            } else if (const auto name = e.value<std::string>(); name && spec.dims.count(*name)) {
                shape.push_back(*name);
            } else {
                return make_error(at(e, file) + ": a hidden shape entry is a size or one of the dims of [hidden]");
            }
        }
    }
    return spec;
}

}  // namespace

Status read_manifest(const fs::path& file, OperatorSource& out) {
    toml::table doc;
    out.hidden_case = true;
    try {
        doc = toml::parse_file(file.string());
    } catch (const toml::parse_error& e) {
        return make_error(file.filename().string() + ":" + std::to_string(e.source().begin.line) + ":" +
                          std::to_string(e.source().begin.column) + ": " + std::string(e.description()));
    }
    if (auto s = check_keys(doc, {"operator", "defaults", "case", "hidden"}, "the manifest", file); !s) return s;
    if (const auto* h = doc["hidden"].as_table()) {
        auto spec = read_hidden(*h, file);
        if (!spec) return spec.error();
        out.hidden_shapes = std::move(*spec);
    }
    const toml::table* op = doc["operator"].as_table();
    if (op) {
        if (auto s = check_keys(*op, {"name", "source", "cann_ops", "golden", "msopst", "hidden_case", "inplace"}, "[operator]", file); !s)
            return s;
        out.hidden_case = (*op)["hidden_case"].value<bool>().value_or(true);
    }
    out.manifest = file;
    out.op_type = op ? (*op)["name"].value<std::string>().value_or("") : "";
    auto root = operator_root(op, file);
    if (!root) return root.error();
    out.root = std::move(*root);

    CaseDraft defaults;
    defaults.origin = file.filename().string();
    if (const auto* n = op ? op->get("inplace") : nullptr) {
        const auto* arr = n->as_array();
        if (!arr) return make_error(at(*n, file) + ": inplace must be an array of input names, like [\"x\"]");
        for (const auto& e : *arr) {
            const auto name = e.value<std::string>();
            if (!name || name->empty()) return make_error(at(e, file) + ": inplace must be an array of input names");
            defaults.inplace.push_back(*name);
        }
    }
    if (op && (*op)["golden"]) {
        auto g = read_golden(*op->get("golden"), file, out.root);
        if (!g) return g.error();
        defaults.golden = *g;
    }
    if (const auto* d = doc["defaults"].as_table()) {
        if (auto s = check_keys(*d, {"shape", "shapes", "dtype", "dtypes", "range", "distribution", "rtol", "atol"}, "[defaults]", file); !s)
            return s;
        if (auto s = read_common(*d, defaults, file); !s) return s;
    }
    const toml::array* cases = doc["case"].as_array();
    if (doc.contains("case") && !cases) return make_error(file.filename().string() + ": 'case' must be written [[case]]");
    if (cases)
        for (const auto& node : *cases) {
            CaseDraft d = defaults;
            if (!node.as_table()) return make_error(at(node, file) + ": [[case]] entries must be tables");
            if (auto s = read_case(*node.as_table(), d, file, out.root); !s) return s;
            out.cases.push_back(std::move(d));
        }
    const bool use_msopst = op ? (*op)["msopst"].value<bool>().value_or(!cases) : !cases;
    if (use_msopst) {
        const size_t first = out.cases.size();
        for (const auto& json : list_files(out.root / "tests" / "st", ".json"))
            if (auto s = read_msopst(json, defaults.golden, out.cases, out.root); !s) return s;
        for (size_t i = first; i < out.cases.size(); ++i) out.cases[i].inplace = defaults.inplace;
    }
    return ok_status();
}

}  // namespace ascendopt
