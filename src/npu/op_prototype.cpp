#include "npu/op_prototype.h"

#include <map>

namespace ascendopt {
namespace {

const char* prototype_type(DType t) {
    switch (t) {
        case DType::f16: return "fp16";
        case DType::bf16: return "bf16";
        case DType::f32: return "float";
        case DType::f64: return "double";
        case DType::i8: return "int8";
        case DType::u8: return "uint8";
        case DType::i16: return "int16";
        case DType::u16: return "uint16";
        case DType::i32: return "int32";
        case DType::u32: return "uint32";
        case DType::i64: return "int64";
        case DType::u64: return "uint64";
        case DType::boolean: return "bool";
        case DType::c64: return "complex64";
    }
    return "";
}

nlohmann::json param_desc(const ParamInfo& p, const std::vector<size_t>& columns) {
    nlohmann::json types = nlohmann::json::array(), formats = nlohmann::json::array();
    for (size_t c : columns) {
        types.push_back(p.dtypes.empty() ? "" : prototype_type(c < p.dtypes.size() ? p.dtypes[c] : p.dtypes.back()));
        formats.push_back("ND");
    }
    return {{"name", p.name}, {"param_type", p.dynamic ? "dynamic" : p.optional ? "optional" : "required"}, {"format", formats}, {"type", types}};
}

}  // namespace

Result<nlohmann::json> op_prototype(const OpDefInfo& op) {
    static const std::map<std::string, std::string> attr_types = {{"int", "int"},           {"float", "float"},           {"bool", "bool"},
                                                                  {"str", "str"},           {"list_int", "listInt"},      {"list_float", "listFloat"},
                                                                  {"list_bool", "listBool"}, {"list_list_int", "listListInt"}};
    std::vector<size_t> columns;
    for (size_t c = 0; c < op.combinations(); ++c)
        if (op.supported(c)) columns.push_back(c);
    if (columns.empty()) return make_error("operator " + op.type + ": no dtype combination of its OpDef is one ascendopt can represent");
    nlohmann::json desc = {{"op", op.type}, {"language", "cpp"}, {"input_desc", nlohmann::json::array()}, {"output_desc", nlohmann::json::array()}};
    for (const auto& p : op.inputs) desc["input_desc"].push_back(param_desc(p, columns));
    for (const auto& p : op.outputs) desc["output_desc"].push_back(param_desc(p, columns));
    for (const auto& a : op.attrs) {
        const auto type = attr_types.find(a.kind);
        if (type == attr_types.end()) return make_error("operator " + op.type + ": attribute '" + a.name + "' is of kind " + a.kind + ", which msopgen has no type for");
        nlohmann::json attr = {{"name", a.name}, {"param_type", a.required ? "required" : "optional"}, {"type", type->second}};
        if (!a.required) attr["default_value"] = a.default_value;
        desc["attr"].push_back(attr);
    }
    return nlohmann::json::array({desc});
}

}  // namespace ascendopt
