#include "eval/opdef.h"

namespace ascendopt {
namespace {

// A dtype ascendopt cannot represent marks its column unsupported (OpDefInfo::unsupported_columns).
Result<std::vector<ParamInfo>> parse_params(const nlohmann::json& list, OpDefInfo& op) {
    std::vector<ParamInfo> out;
    for (const auto& p : list) {
        ParamInfo info{p.value("name", ""), p.value("optional", false), {}, p.value("dynamic", false), p.value("shape_from_kernel", false)};
        for (const auto& d : p.value("dtypes", nlohmann::json::array())) {
            if (!d.is_string()) return make_error("OpDef of " + op.type + " declares a dtype for '" + info.name + "' that is not a name: " + d.dump());
            const auto t = parse_dtype(d.get<std::string>());
            if (!t) {
                op.unsupported_columns.insert(info.dtypes.size());
                info.unsupported_columns.insert(info.dtypes.size());
                if (op.unsupported_names.find(d.get<std::string>()) == std::string::npos)
                    op.unsupported_names += (op.unsupported_names.empty() ? "" : ", ") + d.get<std::string>();
            }
            info.dtypes.push_back(t.value_or(DType::u8));
        }
        out.push_back(std::move(info));
    }
    return out;
}

}  // namespace

const ParamInfo* OpDefInfo::find_param(const std::string& name) const {
    for (const auto* list : {&inputs, &outputs})
        for (const auto& p : *list)
            if (p.name == name) return &p;
    return nullptr;
}

size_t OpDefInfo::first_supported() const {
    for (size_t i = 0; i < combinations(); ++i)
        if (supported(i)) return i;
    return combinations();
}

size_t OpDefInfo::combinations() const {
    size_t n = 0;
    for (const auto* list : {&inputs, &outputs})
        for (const auto& p : *list) n = std::max(n, p.dtypes.size());
    return n;
}

Result<OpDefInfo> parse_opdef(const nlohmann::json& describe, const std::string& type, const std::string& soc) {
    const auto& ops = describe.value("ops", nlohmann::json::array());
    if (ops.empty()) return make_error("op_host registers no operator", "the host code needs a class deriving from OpDef and OP_ADD(ClassName)");
    const nlohmann::json* chosen = nullptr;
    std::string names;
    for (const auto& op : ops) {
        names += (names.empty() ? "" : ", ") + op.value("type", "");
        if (op.value("type", "") == type || (type.empty() && ops.size() == 1)) chosen = &op;
    }
    if (!chosen)
        return make_error(type.empty() ? "op_host registers several operators (" + names + ")"
                                       : "op_host registers no operator named " + type + " (it registers " + names + ")",
                          "name the operator in ascendopt.toml: [operator] name = \"...\"");
    OpDefInfo info;
    info.type = chosen->value("type", "");
    info.has_tiling = chosen->value("has_tiling", false);
    const nlohmann::json& soc_params = chosen->value("soc_params", nlohmann::json::object());
    const nlohmann::json& params = !soc.empty() && soc_params.is_object() && soc_params.contains(soc) ? soc_params[soc] : *chosen;
    auto ins = parse_params(params["inputs"], info);
    if (!ins) return ins.error();
    auto outs = parse_params(params["outputs"], info);
    if (!outs) return outs.error();
    info.inputs = std::move(*ins);
    info.outputs = std::move(*outs);
    for (const auto& a : (*chosen)["attrs"]) info.attrs.push_back({a.value("name", ""), a.value("kind", ""), a.value("required", false), a.value("default", nlohmann::json())});
    for (const auto& c : describe.value("tiling_classes", nlohmann::json::array()))
        if (c.value("op", "") == info.type || info.tiling_class.empty()) info.tiling_class = c.value("class", "");
    return info;
}

}  // namespace ascendopt
