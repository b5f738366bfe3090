// The bank-key registry of CANN's AOE tuner (register/tuning_bank_key_registry.h): per op type,
// how an op's tiling context becomes the key of a tuning knowledge-bank entry (a packed struct,
// REGISTER_OP_BANK_KEY_CONVERT_FUN_V2) and how such a key is written to and read from text
// (DECLARE_STRUCT_RELATE_WITH_OP_V2 makes both; REGISTER_OP_BANK_KEY_PARSE_FUN_V2 reuses them).
// The twin has no knowledge bank: registrations are kept and operators may look them up (the
// conv tunings print a key with its parse function), but no tiling is ever looked up by key.
// The text form is ours: {"bytes": "<hex of the packed struct>"}; the field names given to
// DECLARE_STRUCT_RELATE_WITH_OP_V2 are not used (docs/twin.md, "The Matmul API").
#pragma once

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "exe_graph/runtime/tiling_context.h"
#include "register/tuning_tiling_registry.h"

namespace tuningtiling {

// (context) -> the packed key struct and its size.
using OpBankKeyConvertFunV2 = std::function<bool(const gert::TilingContext*, std::shared_ptr<void>&, size_t&)>;
// key struct -> text, and text -> key struct.
using OpBankParseFunV2 = std::function<bool(const std::shared_ptr<void>&, size_t, ge::AscendString&)>;
using OpBankLoadFunV2 = std::function<bool(std::shared_ptr<void>&, size_t&, const ge::AscendString&)>;

class OpBankKeyFuncInfoV2 {
public:
    OpBankKeyFuncInfoV2() = default;
    explicit OpBankKeyFuncInfoV2(const ge::AscendString& op_type) : m_op_type(op_type) {}
    void SetOpConvertFuncV2(const OpBankKeyConvertFunV2& f) { m_convert = f; }
    void SetOpParseFuncV2(const OpBankParseFunV2& f) { m_parse = f; }
    void SetOpLoadFuncV2(const OpBankLoadFunV2& f) { m_load = f; }
    const OpBankKeyConvertFunV2& GetBankKeyConvertFuncV2() const { return m_convert; }
    const OpBankParseFunV2& GetBankKeyParseFuncV2() const { return m_parse; }
    const OpBankLoadFunV2& GetBankKeyLoadFuncV2() const { return m_load; }

private:
    ge::AscendString m_op_type;
    OpBankKeyConvertFunV2 m_convert;
    OpBankParseFunV2 m_parse;
    OpBankLoadFunV2 m_load;
};

class OpBankKeyFuncRegistryV2 {
public:
    OpBankKeyFuncRegistryV2(const ge::AscendString& op_type, const OpBankKeyConvertFunV2& convert) {
        entry(op_type).SetOpConvertFuncV2(convert);
    }
    OpBankKeyFuncRegistryV2(const ge::AscendString& op_type, const OpBankParseFunV2& parse, const OpBankLoadFunV2& load) {
        entry(op_type).SetOpParseFuncV2(parse);
        entry(op_type).SetOpLoadFuncV2(load);
    }
    static std::map<ge::AscendString, OpBankKeyFuncInfoV2>& RegisteredOpFuncInfoV2() {
        static std::map<ge::AscendString, OpBankKeyFuncInfoV2> infos;
        return infos;
    }

private:
    static OpBankKeyFuncInfoV2& entry(const ge::AscendString& op_type) {
        auto& infos = RegisteredOpFuncInfoV2();
        return infos.try_emplace(op_type, op_type).first->second;
    }
};

namespace detail {
// The key struct `Key` as {"bytes": "<hex>"} and back; a text of another size is refused.
template <class Key>
bool key_to_text(const std::shared_ptr<void>& key, size_t size, ge::AscendString& text) {
    if (!key || size != sizeof(Key)) return false;
    static const char* const digits = "0123456789abcdef";
    std::string s = "{\"bytes\": \"";
    const auto* p = static_cast<const unsigned char*>(key.get());
    for (size_t i = 0; i < size; ++i) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    text = ge::AscendString((s + "\"}").c_str());
    return true;
}
template <class Key>
bool text_to_key(std::shared_ptr<void>& key, size_t& size, const ge::AscendString& text) {
    const std::string s(text.GetString(), text.GetLength());
    const auto open = s.find("\"bytes\": \"");
    if (open == std::string::npos) return false;
    const size_t start = open + 10;
    if (s.size() < start + 2 * sizeof(Key)) return false;
    auto k = std::make_shared<Key>();
    auto* p = reinterpret_cast<unsigned char*>(k.get());
    auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    for (size_t i = 0; i < sizeof(Key); ++i) p[i] = static_cast<unsigned char>(nibble(s[start + 2 * i]) * 16 + nibble(s[start + 2 * i + 1]));
    key = k;
    size = sizeof(Key);
    return true;
}
}  // namespace detail

}  // namespace tuningtiling

#define REGISTER_OP_BANK_KEY_CONVERT_FUN_V2(opType, convertFn)                                                       \
    [[maybe_unused]] static const tuningtiling::OpBankKeyFuncRegistryV2 ASCENDOPT_TUNING_CONCAT(                     \
        g_bank_key_convert_##opType, __LINE__)(#opType, tuningtiling::OpBankKeyConvertFunV2(convertFn))

#define REGISTER_OP_BANK_KEY_PARSE_FUN_V2(opType, parseFn, loadFn)                                                   \
    [[maybe_unused]] static const tuningtiling::OpBankKeyFuncRegistryV2 ASCENDOPT_TUNING_CONCAT(                     \
        g_bank_key_parse_##opType, __LINE__)(#opType, tuningtiling::OpBankParseFunV2(parseFn),                      \
                                             tuningtiling::OpBankLoadFunV2(loadFn))

// The key struct of an op type, with its fields (unused by the twin, see above).
#define DECLARE_STRUCT_RELATE_WITH_OP_V2(opType, keyStruct, ...)                                                    \
    REGISTER_OP_BANK_KEY_PARSE_FUN_V2(opType, tuningtiling::detail::key_to_text<keyStruct>,                          \
                                      tuningtiling::detail::text_to_key<keyStruct>)
