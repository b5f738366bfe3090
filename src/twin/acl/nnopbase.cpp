// aclCreateTensor and aclDestroyTensor on the twin (libnnopbase.so of the twin toolkit): the
// descriptor an aclnn call receives of each device tensor. Arguments are checked as the
// reference describes them, and more strictly where a mistake would otherwise reach the kernel
// as a wrong address: the view must lie inside its storage, and the storage inside one device
// allocation (docs/npu.md "The twin behind ACL").
#include <memory>
#include <algorithm>
#include <mutex>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "ascendopt_twin/acl_device.h"

struct aclTensor {
    std::vector<int64_t> view_dims, strides, storage_dims;
    AscendoptTwinTensorView view{};
};

// The list types hold a copy of their values.
struct aclIntArray {
    std::vector<int64_t> values;
};
struct aclFloatArray {
    std::vector<float> values;
};
struct aclBoolArray {
    std::unique_ptr<bool[]> values;  // not std::vector<bool>, which packs bits
    uint64_t size = 0;
};
struct aclTensorList {
    std::vector<const aclTensor*> values;
};

namespace {

std::mutex g_mutex;
std::set<const aclTensor*> g_live;
// The live objects of each list type, apart, so that one type is never read as another.
template <class List>
std::set<const List*>& live_of() {
    static std::set<const List*> live;
    return live;
}

// Registers a new list object; null (with the reason recorded) when `value` is null but
// `size` is not 0.
template <class List>
List* register_list(std::unique_ptr<List> list, bool null_values, uint64_t size, const char* api) {
    if (null_values && size != 0) {
        ascendopt_twin_acl_fail(ACL_ERROR_INVALID_PARAM, (std::string(api) + ": value is null but size is " + std::to_string(size)).c_str());
        return nullptr;
    }
    std::lock_guard<std::mutex> lock(g_mutex);
    live_of<List>().insert(list.get());
    return list.release();
}

template <class List>
aclError destroy_list(const List* list, const char* api) {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!list || !live_of<List>().erase(list))
        return ascendopt_twin_acl_fail(ACL_ERROR_INVALID_PARAM, (std::string(api) + ": not a live object of this process").c_str());
    delete list;
    return ACL_SUCCESS;
}

template <class List>
bool live_list(const List* list) {
    std::lock_guard<std::mutex> lock(g_mutex);
    return list && live_of<List>().count(list);
}

aclTensor* refuse(const std::string& why) {
    ascendopt_twin_acl_fail(ACL_ERROR_INVALID_PARAM, ("aclCreateTensor: " + why).c_str());
    return nullptr;
}

std::vector<int64_t> dims_of(const int64_t* dims, uint64_t n) { return n ? std::vector<int64_t>(dims, dims + n) : std::vector<int64_t>{}; }

int64_t element_count(const std::vector<int64_t>& dims) {
    return std::accumulate(dims.begin(), dims.end(), int64_t(1), [](int64_t a, int64_t b) { return a * b; });
}

// The number of storage elements the view reaches: 1 + the offset of its last element; 0 for
// an empty view.
int64_t view_extent(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides, int64_t offset) {
    int64_t last = offset;
    for (size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] == 0) return 0;
        last += (dims[i] - 1) * strides[i];
    }
    return last + 1;
}

// The reason the arguments do not describe a tensor, or "".
std::string invalid(const aclTensor& t, aclDataType type, int64_t offset) {
    constexpr uint64_t k_max_rank = 8;
    if (t.view_dims.size() > k_max_rank || t.storage_dims.size() > k_max_rank) return "a tensor has at most 8 dimensions";
    if (aclDataTypeSize(type) == 0) return "data type " + std::to_string(int(type)) + " has no fixed element size";
    for (int64_t d : t.view_dims) if (d < 0) return "a view dimension is negative";
    for (int64_t d : t.storage_dims) if (d < 0) return "a storage dimension is negative";
    for (int64_t s : t.strides) if (s < 0) return "a stride is negative";
    if (offset < 0) return "the offset is negative";
    const int64_t reach = view_extent(t.view_dims, t.strides, offset);
    const int64_t storage = element_count(t.storage_dims);
    if (reach > storage)
        return "the view reaches storage element " + std::to_string(reach - 1) + ", but the storage holds " + std::to_string(storage);
    return "";
}

}  // namespace

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride, int64_t offset,
                           aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum, void* tensorData) {
    if ((viewDimsNum && !viewDims) || (viewDimsNum && !stride) || (storageDimsNum && !storageDims))
        return refuse("a dimension or stride array is null but its length is not 0");
    if (viewDimsNum > 8 || storageDimsNum > 8) return refuse("a tensor has at most 8 dimensions");
    auto t = std::make_unique<aclTensor>();
    t->view_dims = dims_of(viewDims, viewDimsNum);
    t->strides = dims_of(stride, viewDimsNum);
    t->storage_dims = dims_of(storageDims, storageDimsNum);
    if (const std::string why = invalid(*t, dataType, offset); !why.empty()) return refuse(why);
    const uint64_t storage_bytes = uint64_t(element_count(t->storage_dims)) * aclDataTypeSize(dataType);
    if (storage_bytes > 0) {
        if (!tensorData) return refuse("tensorData is null for a storage of " + std::to_string(storage_bytes) + " bytes");
        if (ascendopt_twin_acl_allocation(tensorData, storage_bytes, nullptr, nullptr) != ACL_SUCCESS)
            return refuse("the storage of " + std::to_string(storage_bytes) + " bytes at tensorData is not inside one device allocation");
    }
    t->view = AscendoptTwinTensorView{t->view_dims.data(), viewDimsNum, t->strides.data(), offset, t->storage_dims.data(),
                                      storageDimsNum, dataType, format, tensorData};
    std::lock_guard<std::mutex> lock(g_mutex);
    g_live.insert(t.get());
    return t.release();
}

aclError aclDestroyTensor(const aclTensor* tensor) {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (!tensor || !g_live.erase(tensor))
        return ascendopt_twin_acl_fail(ACL_ERROR_INVALID_PARAM, "aclDestroyTensor: not a live tensor of this process");
    delete tensor;
    return ACL_SUCCESS;
}

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
    auto a = std::make_unique<aclIntArray>();
    if (value) a->values.assign(value, value + size);
    return register_list(std::move(a), !value, size, "aclCreateIntArray");
}

aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
    auto a = std::make_unique<aclFloatArray>();
    if (value) a->values.assign(value, value + size);
    return register_list(std::move(a), !value, size, "aclCreateFloatArray");
}

aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
    auto a = std::make_unique<aclBoolArray>();
    a->values = std::make_unique<bool[]>(value ? size : 0);
    if (value) std::copy(value, value + size, a->values.get());
    a->size = value ? size : 0;
    return register_list(std::move(a), !value, size, "aclCreateBoolArray");
}

aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
    auto l = std::make_unique<aclTensorList>();
    if (value) {
        l->values.assign(value, value + size);
        for (const aclTensor* t : l->values)
            if (!ascendopt_twin_tensor_view(t)) {
                ascendopt_twin_acl_fail(ACL_ERROR_INVALID_PARAM, "aclCreateTensorList: an element is not a live tensor");
                return nullptr;
            }
    }
    return register_list(std::move(l), !value, size, "aclCreateTensorList");
}

aclError aclDestroyIntArray(const aclIntArray* a) { return destroy_list(a, "aclDestroyIntArray"); }
aclError aclDestroyFloatArray(const aclFloatArray* a) { return destroy_list(a, "aclDestroyFloatArray"); }
aclError aclDestroyBoolArray(const aclBoolArray* a) { return destroy_list(a, "aclDestroyBoolArray"); }
aclError aclDestroyTensorList(const aclTensorList* l) { return destroy_list(l, "aclDestroyTensorList"); }

const int64_t* ascendopt_twin_int_array(const aclIntArray* a, uint64_t* size) {
    if (!live_list(a)) return nullptr;
    if (size) *size = a->values.size();
    static const int64_t none = 0;  // a live empty array is not null
    return a->values.empty() ? &none : a->values.data();
}

const float* ascendopt_twin_float_array(const aclFloatArray* a, uint64_t* size) {
    if (!live_list(a)) return nullptr;
    if (size) *size = a->values.size();
    static const float none = 0;
    return a->values.empty() ? &none : a->values.data();
}

const bool* ascendopt_twin_bool_array(const aclBoolArray* a, uint64_t* size) {
    if (!live_list(a)) return nullptr;
    if (size) *size = a->size;
    static const bool none = false;
    return a->size == 0 ? &none : a->values.get();
}

const aclTensor* const* ascendopt_twin_tensor_list(const aclTensorList* l, uint64_t* size) {
    if (!live_list(l)) return nullptr;
    if (size) *size = l->values.size();
    static const aclTensor* const none = nullptr;
    return l->values.empty() ? &none : l->values.data();
}

const AscendoptTwinTensorView* ascendopt_twin_tensor_view(const aclTensor* tensor) {
    std::lock_guard<std::mutex> lock(g_mutex);
    return tensor && g_live.count(tensor) ? &tensor->view : nullptr;
}

}  // extern "C"
