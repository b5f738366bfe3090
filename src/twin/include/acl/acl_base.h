// The twin's declarations of the ACL base types: the names, values and signatures of the public
// AscendCL reference (acl/acl_base.h), so that a program written against CANN compiles
// unchanged against the twin's ACL runtime (src/twin/acl/, docs/npu.md "The twin behind ACL").
// Only the subset ascendopt's invoker and the aclnn convention use is declared.
#ifndef ASCENDOPT_TWIN_ACL_BASE_H
#define ASCENDOPT_TWIN_ACL_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int aclError;

static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_NONE = 0;
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_RT_PARAM_INVALID = 107000;
static const int ACL_ERROR_RT_INVALID_DEVICEID = 107001;
static const int ACL_ERROR_RT_CONTEXT_NULL = 107002;
static const int ACL_ERROR_RT_STREAM_CONTEXT = 107003;
static const int ACL_ERROR_RT_MEMORY_ALLOCATION = 207001;
static const int ACL_ERROR_RT_MEMORY_FREE = 207002;

typedef enum {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_STRING = 13,
    ACL_COMPLEX64 = 16,
    ACL_COMPLEX128 = 17,
    ACL_BF16 = 27,
} aclDataType;

typedef enum {
    ACL_FORMAT_UNDEFINED = -1,
    ACL_FORMAT_NCHW = 0,
    ACL_FORMAT_NHWC = 1,
    ACL_FORMAT_ND = 2,
} aclFormat;

// Bytes of one element; 0 for a type without a fixed size (ACL_STRING, ACL_DT_UNDEFINED).
size_t aclDataTypeSize(aclDataType dataType);

// The message of the last failed ACL call on this thread ("" when there is none).
const char* aclGetRecentErrMsg();

#ifdef __cplusplus
}
#endif

#endif
