// The aclnn tensor descriptor (aclnn/acl_meta.h in CANN, implemented by libnnopbase): the view
// an aclnn<Op> call receives of each device tensor. Names and signatures follow the public
// reference; the twin's implementation is src/twin/acl/nnopbase.cpp.
#ifndef ASCENDOPT_TWIN_ACLNN_ACL_META_H
#define ASCENDOPT_TWIN_ACLNN_ACL_META_H

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclTensor aclTensor;
typedef struct aclOpExecutor aclOpExecutor;

// A tensor over device memory `tensorData`: its view (dims, strides in elements, offset in
// elements) of a storage of `storageDims`. Returns null on invalid arguments, with the reason
// in aclGetRecentErrMsg.
aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData);
aclError aclDestroyTensor(const aclTensor* tensor);

#ifdef __cplusplus
}
#endif

#endif
