// What the twin's aclnn entries (a kernel launch behind aclnn<Op>) ask of the twin ACL runtime
// beyond the public API: charging a launch's modeled device time to its stream, so that events
// around it measure the model's latency, and the device allocation a pointer lies in, so that
// a launch knows the bytes the runtime gave each tensor. Implemented in src/twin/acl/.
#ifndef ASCENDOPT_TWIN_ACL_DEVICE_H
#define ASCENDOPT_TWIN_ACL_DEVICE_H

#include <stdbool.h>

#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

struct aclTensor;

// What an aclTensor describes (src/twin/acl/nnopbase.cpp): the view's dims, strides (in
// elements) and offset (in elements) into a storage of `storage_dims`, its element type and
// the device address of the storage. The arrays live as long as the tensor.
typedef struct {
    const int64_t* view_dims;
    uint64_t view_rank;
    const int64_t* strides;
    int64_t offset;
    const int64_t* storage_dims;
    uint64_t storage_rank;
    aclDataType data_type;
    aclFormat format;
    void* data;
} AscendoptTwinTensorView;

// The view of `tensor`, or null when it is not a live tensor of this process.
const AscendoptTwinTensorView* ascendopt_twin_tensor_view(const struct aclTensor* tensor);

struct aclIntArray;
struct aclFloatArray;
struct aclBoolArray;
struct aclTensorList;

// The values of a live list, never null for a live one (an empty list gives a valid pointer
// and size 0); null, with `size` untouched, for anything else.
const int64_t* ascendopt_twin_int_array(const struct aclIntArray* array, uint64_t* size);
const float* ascendopt_twin_float_array(const struct aclFloatArray* array, uint64_t* size);
const bool* ascendopt_twin_bool_array(const struct aclBoolArray* array, uint64_t* size);
const struct aclTensor* const* ascendopt_twin_tensor_list(const struct aclTensorList* list, uint64_t* size);

// Advances `stream`'s device clock (null: the current device's default stream) by `ns`.
aclError ascendopt_twin_acl_charge(aclrtStream stream, uint64_t ns);

// The live device allocation holding all of [ptr, ptr + bytes): its start and usable size
// (ALIGN_UP(size, 32) + 32). ACL_ERROR_INVALID_PARAM when no allocation holds the range.
aclError ascendopt_twin_acl_allocation(const void* ptr, size_t bytes, void** start, size_t* usable);

// The invoker announces, before each run, the case and the run (0: the checked run) the next
// aclnn calls belong to. The invoker calls it through a weak declaration, so on CANN, where no
// library defines it, the call is skipped: it is the twin's only channel besides the ACL API,
// and carries no data. ascendopt_twin_acl_current_case gives the last announcement ("" and -1
// before any).
void ascendopt_twin_acl_case(const char* name, int run);
const char* ascendopt_twin_acl_current_case(int* run);

// Records `message` as the calling thread's recent error (aclGetRecentErrMsg) and returns
// `code`: for the other twin libraries (nnopbase, the aclnn entries).
aclError ascendopt_twin_acl_fail(aclError code, const char* message);

#ifdef __cplusplus
}
#endif

#endif
