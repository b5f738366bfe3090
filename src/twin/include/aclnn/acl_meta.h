// The aclnn tensor descriptor (aclnn/acl_meta.h in CANN, implemented by libnnopbase): the view
// an aclnn<Op> call receives of each device tensor. Names and signatures follow the public
// reference; the twin's implementation is src/twin/acl/nnopbase.cpp.
#ifndef ASCENDOPT_TWIN_ACLNN_ACL_META_H
#define ASCENDOPT_TWIN_ACLNN_ACL_META_H

#include <stdbool.h>

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t aclnnStatus;  // 0: success

typedef struct aclTensor aclTensor;
typedef struct aclTensorList aclTensorList;
typedef struct aclIntArray aclIntArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclOpExecutor aclOpExecutor;

// A tensor over device memory `tensorData`: its view (dims, strides in elements, offset in
// elements) of a storage of `storageDims`. Returns null on invalid arguments, with the reason
// in aclGetRecentErrMsg.
aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData);
aclError aclDestroyTensor(const aclTensor* tensor);

// The values of list attributes and lists of tensors, copied when created (a list keeps the
// tensors' addresses; they must outlive it). Null on invalid arguments.
aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size);
aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size);
aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size);
aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size);
aclError aclDestroyIntArray(const aclIntArray* array);
aclError aclDestroyFloatArray(const aclFloatArray* array);
aclError aclDestroyBoolArray(const aclBoolArray* array);
aclError aclDestroyTensorList(const aclTensorList* list);

#ifdef __cplusplus
}
#endif

#endif
