// The host registry: OpDefs from OP_ADD and tiling classes from REGISTER_TILING_DATA_CLASS.
#include <cxxabi.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <deque>

#include "twin_rt.h"

namespace ascendopt_twin {
namespace {

std::vector<std::unique_ptr<ops::OpDef>>& ops_list() {
    static std::vector<std::unique_ptr<ops::OpDef>> v;
    return v;
}

std::deque<host::OpImpl>& impl_list() {
    static std::deque<host::OpImpl> v;  // a deque: references handed out stay valid
    return v;
}

std::vector<TilingClass>& tiling_list() {
    static std::vector<TilingClass> v;
    return v;
}

std::string demangle(const char* mangled) {
    int status = 0;
    char* s = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    std::string out = status == 0 && s ? s : mangled;
    std::free(s);
    return out;
}

}  // namespace

namespace host {

void register_op(std::unique_ptr<ops::OpDef> def) { ops_list().push_back(std::move(def)); }

OpImpl& op_impl(const char* type) {
    for (auto& impl : impl_list())
        if (impl.type() == type) return impl;
    return impl_list().emplace_back(type);
}

ops::TilingFunc impl_tiling(const std::string& type) {
    const OpImpl* impl = find_impl(type);
    return impl ? impl->tiling() : nullptr;
}

const OpImpl* find_impl(const std::string& type) {
    for (const auto& impl : impl_list())
        if (impl.type() == type) return &impl;
    return nullptr;
}

void register_tiling_class(const char* op_type, const std::type_info& cls, size_t size) {
    tiling_list().push_back(TilingClass{op_type, demangle(cls.name()), size});
}

namespace {
struct TilingBinding {
    size_t size;
    void* buffer;
};
std::map<const void*, TilingBinding>& tiling_bindings() {
    thread_local std::map<const void*, TilingBinding> bindings;
    return bindings;
}
}  // namespace

void bind_tiling_data(void* object, size_t size, void* buffer) {
    if (!buffer) fail(ErrorKind::run_failed, "SetDataPtr", "the data pointer is null");
    flush_tiling_data(object);
    std::memcpy(object, buffer, size);
    tiling_bindings()[object] = TilingBinding{size, buffer};
}

void flush_tiling_data(const void* object) {
    const auto& bindings = tiling_bindings();
    if (bindings.empty()) return;
    const auto it = bindings.find(object);
    if (it != bindings.end()) std::memcpy(it->second.buffer, object, it->second.size);
}

void unbind_tiling_data(const void* object) {
    auto& bindings = tiling_bindings();
    if (bindings.empty()) return;
    const auto it = bindings.find(object);
    if (it == bindings.end()) return;
    std::memcpy(it->second.buffer, object, it->second.size);
    bindings.erase(it);
}

void save_tiling(const void* data, size_t size, void* buffer, size_t capacity) {
    if (size > capacity)
        fail(ErrorKind::run_failed, "SaveToBuffer",
             "tiling data of " + std::to_string(size) + " bytes exceeds the buffer capacity of " + std::to_string(capacity));
    std::memcpy(buffer, data, size);
}

}  // namespace host

const std::vector<std::unique_ptr<ops::OpDef>>& registered_ops() { return ops_list(); }
const std::vector<TilingClass>& registered_tiling_classes() { return tiling_list(); }

}  // namespace ascendopt_twin
