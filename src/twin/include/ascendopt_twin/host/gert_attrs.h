// gert:: operator attributes as tiling and shape inference read them (RuntimeAttrs), by index
// in OpDef order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <type_traits>
#include <vector>

namespace gert {

// One attribute value; the stored kind decides which getter answers.
struct AttrValue {
    enum class Kind { none, i64, f32, boolean, str, list_i64, list_f32, list_bool, list_list_i64 } kind = Kind::none;
    int64_t i = 0;
    float f = 0;
    bool b = false;
    std::string s;
    std::vector<int64_t> li;
    std::vector<float> lf;
    std::vector<bool> lb;
    std::vector<std::vector<int64_t>> lli;
    // What a raw pointer to the attribute's storage sees, as CANN's untyped GetAttrPointer<T>
    // does: scalars in the low bytes of 8, a list's header (its element count) for lists.
    int64_t raw = 0;
    void refresh_raw() {
        raw = 0;
        switch (kind) {
            case Kind::i64: raw = i; break;
            case Kind::f32: std::memcpy(&raw, &f, sizeof f); break;
            case Kind::boolean: raw = b ? 1 : 0; break;
            case Kind::list_i64: raw = int64_t(li.size()); break;
            case Kind::list_f32: raw = int64_t(lf.size()); break;
            case Kind::list_bool: raw = int64_t(lb.size()); break;
            case Kind::list_list_i64: raw = int64_t(lli.size()); break;
            default: break;
        }
    }
};

// A list attribute's elements, contiguous (CANN's ContinuousVector): untyped, then typed.
class ContinuousVector {
public:
    ContinuousVector() = default;
    ContinuousVector(const void* data, size_t size) : m_data(data), m_size(size) {}
    size_t GetSize() const { return m_size; }
    size_t GetCapacity() const { return m_size; }
    const void* GetData() const { return m_data; }

private:
    const void* m_data = nullptr;
    size_t m_size = 0;
};

template <class T>
class TypedContinuousVector : public ContinuousVector {
public:
    TypedContinuousVector() = default;
    TypedContinuousVector(const T* data, size_t size) : ContinuousVector(data, size) {}
    const T* GetData() const { return static_cast<const T*>(ContinuousVector::GetData()); }
};

// A list of lists of integers (ListListInt attributes).
class ContinuousVectorVector {
public:
    explicit ContinuousVectorVector(const std::vector<std::vector<int64_t>>* v) : m_v(v) {
        for (const auto& inner : *v) m_views.emplace_back(inner.data(), inner.size());
    }
    size_t GetSize() const { return m_views.size(); }
    const ContinuousVector* Get(size_t i) const { return i < m_views.size() ? &m_views[i] : nullptr; }

private:
    const std::vector<std::vector<int64_t>>* m_v;
    std::vector<ContinuousVector> m_views;
};

// Attribute getters by index in OpDef order. A getter of the attribute's own kind returns a
// typed pointer; GetAttrPointer<T> of another type reinterprets the storage, as CANN does (the
// value means nothing then, but the pointer is not null); an index out of range gives null.
class RuntimeAttrs {
public:
    template <class T>
    const T* GetAttrPointer(size_t i) const {
        if (i >= m_values.size()) return nullptr;
        const AttrValue& v = m_values[i];
        if constexpr (std::is_same_v<T, char>) {
            return v.kind == AttrValue::Kind::str ? v.s.c_str() : reinterpret_cast<const char*>(&v.raw);
        } else if constexpr (std::is_same_v<T, float>) {
            return v.kind == AttrValue::Kind::f32 ? &v.f : reinterpret_cast<const float*>(&v.raw);
        } else if constexpr (std::is_same_v<T, bool>) {
            return v.kind == AttrValue::Kind::boolean ? &v.b : reinterpret_cast<const bool*>(&v.raw);
        } else if constexpr (std::is_same_v<T, int64_t>) {
            return v.kind == AttrValue::Kind::i64 ? &v.i : &v.raw;
        } else if constexpr (std::is_same_v<T, ContinuousVector>) {
            // Untyped: the list as it is stored, whatever its element type (tilings read a
            // list-of-float attribute this way and reinterpret GetData()).
            if (v.kind == AttrValue::Kind::list_f32) return GetListFloat(i);
            if (v.kind == AttrValue::Kind::list_bool) return GetListBool(i);
            return list(i);
        } else if constexpr (std::is_same_v<T, TypedContinuousVector<int64_t>>) {
            return list(i);
        } else if constexpr (std::is_same_v<T, TypedContinuousVector<float>>) {
            return GetListFloat(i);
        } else if constexpr (std::is_same_v<T, ContinuousVectorVector>) {
            return GetListListInt(i);
        } else {
            // Any other type (uint32_t, int, double, ...): the low bytes of the stored value.
            static_assert(sizeof(T) <= sizeof(int64_t), "GetAttrPointer<T>: T is wider than an attribute's storage");
            return reinterpret_cast<const T*>(v.kind == AttrValue::Kind::i64 ? &v.i : &v.raw);
        }
    }
    template <class T>
    const T* GetAttrPointer(size_t i) {
        return static_cast<const RuntimeAttrs*>(this)->GetAttrPointer<T>(i);
    }
    const int64_t* GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
    const float* GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
    const bool* GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
    const char* GetStr(size_t i) const { return at(i, AttrValue::Kind::str) ? m_values[i].s.c_str() : nullptr; }
    const TypedContinuousVector<int64_t>* GetListInt(size_t i) const { return list(i); }
    const TypedContinuousVector<float>* GetListFloat(size_t i) const {
        if (!at(i, AttrValue::Kind::list_f32)) return nullptr;
        return &m_float_lists.emplace_back(m_values[i].lf.data(), m_values[i].lf.size());
    }
    const TypedContinuousVector<bool>* GetListBool(size_t i) const {
        if (!at(i, AttrValue::Kind::list_bool)) return nullptr;
        auto& bytes = m_bool_storage.emplace_back(m_values[i].lb.begin(), m_values[i].lb.end());
        return &m_bool_lists.emplace_back(reinterpret_cast<const bool*>(bytes.data()), bytes.size());
    }
    const ContinuousVectorVector* GetListListInt(size_t i) const {
        if (!at(i, AttrValue::Kind::list_list_i64)) return nullptr;
        return &m_list_lists.emplace_back(&m_values[i].lli);
    }
    size_t GetAttrNum() const { return m_values.size(); }
    // For the harness: adds a value (its raw view is filled in here).
    void push(AttrValue v) {
        v.refresh_raw();
        m_values.push_back(std::move(v));
    }

private:
    bool at(size_t i, AttrValue::Kind k) const { return i < m_values.size() && m_values[i].kind == k; }
    const TypedContinuousVector<int64_t>* list(size_t i) const {
        if (!at(i, AttrValue::Kind::list_i64)) return nullptr;
        return &m_lists.emplace_back(m_values[i].li.data(), m_values[i].li.size());
    }
    std::vector<AttrValue> m_values;
    // Handed-out list views; deques keep earlier pointers valid as more are handed out.
    mutable std::deque<TypedContinuousVector<int64_t>> m_lists;
    mutable std::deque<TypedContinuousVector<float>> m_float_lists;
    mutable std::deque<std::vector<uint8_t>> m_bool_storage;
    mutable std::deque<TypedContinuousVector<bool>> m_bool_lists;
    mutable std::deque<ContinuousVectorVector> m_list_lists;
};

}  // namespace gert
