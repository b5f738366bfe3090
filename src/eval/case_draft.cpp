#include <algorithm>
#include "eval/case_draft.h"

#include <set>

namespace ascendopt {
namespace {

std::string where(const CaseDraft& d) { return "case '" + d.name + "' (" + d.origin + ")"; }

// Whether a case can use column i at all: every parameter it cannot leave out is representable.
bool column_usable(const OpDefInfo& op, size_t i) {
    for (const auto* list : {&op.inputs, &op.outputs})
        for (const auto& p : *list)
            if (!p.optional && p.unsupported_columns.count(i)) return false;
    return true;
}

// The usable columns; an optional parameter whose dtype there is not representable is left out
// (a case that uses the column must leave it out too).
std::string combos_text(const OpDefInfo& op) {
    std::string s;
    for (size_t i = 0; i < op.combinations(); ++i) {
        if (!column_usable(op, i)) continue;
        std::string combo;
        for (const auto* list : {&op.inputs, &op.outputs})
            for (const auto& p : *list)
                if (i < p.dtypes.size() && !p.unsupported_columns.count(i))
                    combo += (combo.empty() ? "" : ",") + p.name + ":" + dtype_name(p.dtypes[i]);
        s += "\n  " + combo;
    }
    return s;
}

// True when the case's dtypes equal one column of the OpDef's dtype lists, and every tensor it
// gives has a representable dtype in that column.
bool combination_declared(const Case& c, const OpDefInfo& op) {
    if (op.combinations() == 0) return true;
    for (size_t i = 0; i < op.combinations(); ++i) {
        if (!column_usable(op, i)) continue;
        bool all = true;
        for (const auto* list : {&c.inputs, &c.outputs})
            for (const auto& t : *list) {
                const ParamInfo* p = op.find_param(t.name);
                if (p && p->unsupported_columns.count(i)) all = false;
                if (p && !p->dtypes.empty() && (i >= p->dtypes.size() || p->dtypes[i] != t.dtype)) all = false;
            }
        if (all) return true;
    }
    return false;
}

Result<std::vector<TensorSpec>> order_explicit(const CaseDraft& d, const std::vector<TensorSpec>& given,
                                               const std::vector<ParamInfo>& params, const char* what) {
    std::vector<TensorSpec> out;
    for (const auto& t : given) {
        bool known = false;
        for (const auto& p : params) known = known || p.name == t.name;
        if (!known) {
            std::string names;
            for (const auto& p : params) names += (names.empty() ? "" : ", ") + p.name;
            return make_error(where(d) + ": " + what + " '" + t.name + "' is not in the OpDef (its " + what + "s: " + names + ")");
        }
    }
    for (const auto& p : params) {
        std::vector<TensorSpec> found;
        for (const auto& t : given)
            if (t.name == p.name) found.push_back(t);
        if (found.empty() && !p.optional) return make_error(where(d) + ": no " + what + " named '" + p.name + "'", "msopst names must match the OpDef");
        if (found.size() > 1 && !p.dynamic)
            return make_error(where(d) + ": " + std::to_string(found.size()) + " tensors are named '" + p.name + "', which is not a dynamic (list) " +
                              what + " of the OpDef");
        for (size_t i = 0; i < found.size(); ++i) {
            if (p.dynamic) found[i].list_index = int(i);
            out.push_back(std::move(found[i]));
        }
    }
    return out;
}

// The shapes of parameter `p`: one for a plain parameter, one per tensor of a dynamic one.
Result<std::vector<std::vector<int64_t>>> shapes_of(const CaseDraft& d, const ParamInfo& p, const TensorOverride* o) {
    if (!p.dynamic) {
        if (o && o->list_shapes)
            return make_error(where(d) + ": tensors." + p.name + ".shapes gives a list of shapes, but '" + p.name +
                                  "' is not a dynamic (list) parameter", "give it one shape = [...]");
        const auto shape = o && o->shape ? o->shape : d.shape;
        if (!shape) return make_error(where(d) + ": no shape for '" + p.name + "'", "set shape = [...] in the case or in [case.tensors." + p.name + "]");
        return std::vector<std::vector<int64_t>>{*shape};
    }
    if (o && o->list_shapes) return *o->list_shapes;
    if (o && o->shape) return std::vector<std::vector<int64_t>>{*o->shape};
    if (d.list_shapes) return *d.list_shapes;
    if (d.shape) return std::vector<std::vector<int64_t>>{*d.shape};
    return make_error(where(d) + ": no shapes for the list '" + p.name + "'",
                      "set shapes = [[...], [...]] (one per tensor of the list) in the case or in [case.tensors." + p.name + "]");
}

Result<TensorSpec> expand_tensor(const CaseDraft& d, const ParamInfo& p, std::optional<DType> dtype, const std::vector<int64_t>& shape) {
    TensorSpec t;
    t.name = p.name;
    t.distribution = d.distribution;
    t.low = d.range.first;
    t.high = d.range.second;
    const auto it = d.overrides.find(p.name);
    const TensorOverride* o = it == d.overrides.end() ? nullptr : &it->second;
    t.shape = shape;
    const auto dt = o && o->dtype ? o->dtype : dtype;
    if (!dt) return make_error(where(d) + ": no dtype for '" + p.name + "'", "set dtype or dtypes in the case, in [defaults], or per tensor");
    t.dtype = *dt;
    if (o && o->distribution) t.distribution = *o->distribution;
    if (o && o->range) std::tie(t.low, t.high) = *o->range;
    if (o && o->values) t.values = *o->values;
    if (o && o->int_values) t.int_values = *o->int_values;
    if (o && o->format) t.format = *o->format;
    if (o) t.tolerance = o->tolerance;
    return t;
}

// Every tensor of a case must be materialised in memory: dimensions are non-negative and the
// element count stays below a bound that no product of them may overflow past.
constexpr int64_t k_most_elements = int64_t(1) << 32;

Status check_shape(const CaseDraft& d, const TensorSpec& t) {
    int64_t n = 1;
    for (int64_t dim : t.shape) {
        if (dim < 0) return make_error(where(d) + ": negative dimension in the shape of '" + t.label() + "'");
        if (dim != 0 && n > k_most_elements / dim)
            return make_error(where(d) + ": the shape of '" + t.label() + "' has more than 2^32 elements",
                              "cases must fit in memory: inputs, outputs and goldens are materialised");
        n *= dim;
    }
    const auto scalars = uint64_t(n) * dtype_lanes(t.dtype);
    if (!t.values.empty() && t.values.size() != 1 && t.values.size() != scalars)
        return make_error(where(d) + ": tensors." + t.name + ".values lists " + std::to_string(t.values.size()) + " numbers but '" +
                              t.label() + "' holds " + std::to_string(scalars) + (t.dtype == DType::c64 ? " scalars (real, imaginary)" : " elements"),
                          "give one value (it fills the tensor) or one per element, in row-major order");
    return ok_status();
}

// Lower case without '_' or '-': dstType, dst_type and DST-TYPE are one name.
std::string loose(const std::string& name) {
    std::string out;
    for (char ch : name)
        if (ch != '_' && ch != '-') out += char(std::tolower(static_cast<unsigned char>(ch)));
    return out;
}

// A case's attribute must be one the OpDef declares; the error names the one it most likely
// means, or says that the name is an input (msopst files of Muls give its `value` input as an attr).
Status check_attribute_name(const CaseDraft& d, const std::string& name, const OpDefInfo& op) {
    std::string declared;
    for (const auto& a : op.attrs) {
        if (a.name == name) return ok_status();
        declared += (declared.empty() ? "" : ", ") + a.name;
    }
    const std::string prefix = where(d) + ": attribute '" + name + "' is not declared by the OpDef of " + op.type;
    for (const auto& a : op.attrs)
        if (loose(a.name) == loose(name)) return make_error(prefix + "; did you mean '" + a.name + "'?", "rename it to the OpDef's spelling");
    for (const auto& p : op.inputs)
        if (loose(p.name) == loose(name))
            return make_error(prefix + ": '" + p.name + "' is an input of " + op.type + ", not an attribute",
                              "give it as a tensor: an input_desc entry in msopst, or [case.tensors." + p.name + "] with values = [...] in ascendopt.toml");
    return make_error(prefix, declared.empty() ? op.type + " declares no attributes" : "its attributes: " + declared);
}

Result<std::vector<Case>> expand_shorthand(const CaseDraft& d, const OpDefInfo& op) {
    for (const auto& [name, o] : d.overrides) {
        if (!op.find_param(name)) return make_error(where(d) + ": tensors." + name + " is not an input or output of " + op.type);
        const bool output_only = std::any_of(op.outputs.begin(), op.outputs.end(), [&](const auto& p) { return p.name == name; }) &&
                                 std::none_of(op.inputs.begin(), op.inputs.end(), [&](const auto& p) { return p.name == name; });
        if (output_only && o.values)
            return make_error(where(d) + ": tensors." + name + " is an output, so `values` has no effect",
                              "an output starts unwritten (every byte 0xFF) unless the OpDef gives it an InitValue; to hand the kernel "
                              "a buffer with given contents, declare it as an input updated in place (`inplace`)");
    }
    std::vector<std::optional<DType>> dtypes;
    for (DType t : d.dtypes) dtypes.emplace_back(t);
    if (dtypes.empty()) dtypes.emplace_back(std::nullopt);
    std::vector<Case> out;
    for (const auto& dt : dtypes) {
        Case c;
        c.name = d.dtypes.size() > 1 ? d.name + "[" + dtype_name(*dt) + "]" : d.name;
        for (const auto* list : {&op.inputs, &op.outputs})
            for (const auto& p : *list) {
                if (p.optional && !d.overrides.count(p.name)) continue;  // an optional input left out
                const auto it = d.overrides.find(p.name);
                auto shapes = shapes_of(d, p, it == d.overrides.end() ? nullptr : &it->second);
                if (!shapes) return shapes.error();
                for (size_t i = 0; i < shapes->size(); ++i) {
                    auto t = expand_tensor(d, p, dt, (*shapes)[i]);
                    if (!t) return t.error();
                    if (p.dynamic) t->list_index = int(i);
                    (list == &op.inputs ? c.inputs : c.outputs).push_back(std::move(*t));
                }
            }
        out.push_back(std::move(c));
    }
    return out;
}

// The inputs the manifest names `inplace`, as outputs of their own (TensorSpec::inplace).
Status add_inplace_outputs(const CaseDraft& d, const OpDefInfo& op, Case& c) {
    for (const auto& name : d.inplace) {
        bool found = false;
        for (const auto& p : op.outputs)
            if (p.name == name)
                return make_error(where(d) + ": inplace names '" + name + "', which the OpDef declares as an output already",
                                  "an output named like an input is updated in place anyway; leave it out of inplace");
        for (const auto& t : c.inputs)
            if (t.name == name) {
                TensorSpec out = t;
                out.inplace = true;
                out.values.clear();
                out.int_values.clear();
                c.outputs.push_back(out);
                found = true;
            }
        if (!found) return make_error(where(d) + ": inplace names '" + name + "', which is not an input of this case");
    }
    return ok_status();
}

}  // namespace

Result<Distribution> parse_distribution(const std::string& s) {
    if (s == "uniform") return Distribution::uniform;
    if (s == "normal") return Distribution::normal;
    return make_error("unsupported data distribution '" + s + "'", "use uniform or normal");
}

Result<std::vector<Case>> resolve_cases(const std::vector<CaseDraft>& drafts, const OpDefInfo& op) {
    std::vector<Case> out;
    std::set<std::string> names;
    for (const auto& d : drafts) {
        // Attribute names first: a misplaced input (given as an attribute) also leaves its tensor missing.
        for (const auto& [name, value] : d.attrs.items())
            if (auto s = check_attribute_name(d, name, op); !s) return s.error();
        std::vector<Case> expanded;
        if (d.explicit_tensors) {
            auto ins = order_explicit(d, d.inputs, op.inputs, "input");
            if (!ins) return ins.error();
            auto outs = order_explicit(d, d.outputs, op.outputs, "output");
            if (!outs) return outs.error();
            Case c;
            c.name = d.name;
            c.inputs = std::move(*ins);
            c.outputs = std::move(*outs);
            expanded.push_back(std::move(c));
        } else {
            auto e = expand_shorthand(d, op);
            if (!e) return e.error();
            expanded = std::move(*e);
        }
        for (auto& c : expanded) {
            for (const auto* list : {&c.inputs, &c.outputs})
                for (const auto& t : *list)
                    if (auto st = check_shape(d, t); !st) return st.error();
            c.role = d.role;
            c.attrs = d.attrs;
            c.tolerance = d.tolerance;
            c.golden = d.golden;
            c.origin = d.origin;
            c.known_defect = d.known_defect;
            for (const auto& a : op.attrs) {
                if (a.required && !c.attrs.contains(a.name))
                    return make_error(where(d) + ": required attribute '" + a.name + "' (" + a.kind + ") has no value");
                if (!c.attrs.contains(a.name)) c.attrs[a.name] = a.default_value;  // goldens see every attribute
            }
            for (auto& t : c.outputs)
                if (const ParamInfo* p = op.find_param(t.name); p && p->shape_from_kernel) t.shape_from_kernel = true;
            if (auto st = add_inplace_outputs(d, op, c); !st) return st.error();
            if (c.golden.kind == GoldenSpec::Kind::none)
                return make_error(where(d) + " has no golden", "set golden = \"file.py:function\" in ascendopt.toml or calc_expect_func_file in the msopst case");
            if (!combination_declared(c, op))
                return make_error(where(d) + ": dtypes " + c.dtype_signature() + " are not a combination the OpDef declares:" + combos_text(op) +
                                  (op.unsupported_names.empty() ? "" : "\n  (combinations with " + op.unsupported_names + ", which ascendopt does not support, are left out)"));
            if (!names.insert(c.name).second) return make_error(where(d) + ": a case named '" + c.name + "' already exists");
            out.push_back(std::move(c));
        }
    }
    if (out.empty()) return make_error("operator " + op.type + " has no cases", "add [[case]] entries to ascendopt.toml or tests/st/*.json");
    return out;
}

}  // namespace ascendopt
