// The tuning-tiling registry of CANN's AOE tuner (register/tuning_tiling_registry.h): operators
// declare the tiling records a tuning knowledge bank stores (BEGIN_TUNING_TILING_DEF ...
// END_TUNING_TILING_DEF, DECLARE_SCHEMA, REGISTER_TUNING_TILING_CLASS) and look tilings up in
// it through RuntimeKb (cann-ops' own aoe/runtime_kb headers). The twin has no knowledge bank:
// the records are plain classes, the schema is the field names, and the registry is kept but
// never consulted, so an operator's tiling always takes its own, untuned path (docs/twin.md,
// "The Matmul API").
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

// Records hold ge::DataType and ge::Format fields.
#include "ascendopt_twin/host/ge_types.h"

namespace tuningtiling {

// The base of every tuning record; operators hold them as TuningTilingDefPtr and cast to their
// record type.
class TuningTilingDef {
public:
    virtual ~TuningTilingDef() = default;
    // The record's field names in schema order (DECLARE_SCHEMA), empty without one.
    virtual std::vector<std::string> FieldNames() const { return {}; }
};
using TuningTilingDefPtr = std::shared_ptr<TuningTilingDef>;

// Op type -> a maker of its record. Filled by REGISTER_TUNING_TILING_CLASS; nothing in the twin
// reads it except CreateTuningTiling, which operators may call to make an empty record.
class TuningTilingClassFactory {
public:
    using Maker = std::function<TuningTilingDefPtr()>;
    static std::map<std::string, Maker>& Registry() {
        static std::map<std::string, Maker> makers;
        return makers;
    }
    static void RegisterTilingData(const std::string& op_type, Maker maker) { Registry()[op_type] = std::move(maker); }
    static TuningTilingDefPtr CreateTilingDataInstance(const std::string& op_type) {
        auto it = Registry().find(op_type);
        return it == Registry().end() ? nullptr : it->second();
    }
};

}  // namespace tuningtiling

// A record class with value-initialised public fields.
#define BEGIN_TUNING_TILING_DEF(className)                   \
    class className : public tuningtiling::TuningTilingDef { \
    public:

#define TUNING_TILING_DATA_FIELD_DEF(type, name) type name = type()

#define END_TUNING_TILING_DEF \
    }                         \
    ;

// DECLARE_SCHEMA(Record, FIELD(Record, a), FIELD(Record, b), ...): the field names, in order.
#define FIELD(className, name) #name
#define DECLARE_SCHEMA(className, ...)                                                \
    [[maybe_unused]] inline std::vector<std::string> className##_schema_field_names() { \
        return {__VA_ARGS__};                                                         \
    }

#define ASCENDOPT_TUNING_CONCAT_(a, b) a##b
#define ASCENDOPT_TUNING_CONCAT(a, b) ASCENDOPT_TUNING_CONCAT_(a, b)

#define REGISTER_TUNING_TILING_CLASS(opType, className)                                                       \
    [[maybe_unused]] static const bool ASCENDOPT_TUNING_CONCAT(g_tuning_tiling_registered_##opType, __LINE__) = \
        (tuningtiling::TuningTilingClassFactory::RegisterTilingData(                                          \
             #opType, [] { return tuningtiling::TuningTilingDefPtr(std::make_shared<className>()); }),        \
         true)
