// The twin's declarations of the ACL runtime API subset (acl/acl_rt.h in CANN): devices,
// streams, events, device memory and copies. Names, values and signatures follow the public
// AscendCL reference; what the twin does for each is in docs/npu.md "The twin behind ACL".
#ifndef ASCENDOPT_TWIN_ACL_RT_H
#define ASCENDOPT_TWIN_ACL_RT_H

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void* aclrtStream;
typedef void* aclrtEvent;
typedef void* aclrtContext;

typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE = 1,
    ACL_MEMCPY_DEVICE_TO_HOST = 2,
    ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY = 1,
    ACL_MEM_MALLOC_NORMAL_ONLY = 2,
} aclrtMemMallocPolicy;

aclError aclInit(const char* configPath);
aclError aclFinalize();

aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtGetDevice(int32_t* deviceId);
aclError aclrtGetDeviceCount(uint32_t* count);
const char* aclrtGetSocName();

aclError aclrtCreateStream(aclrtStream* stream);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);

aclError aclrtCreateEvent(aclrtEvent* event);
aclError aclrtDestroyEvent(aclrtEvent event);
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
aclError aclrtSynchronizeEvent(aclrtEvent event);
aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent);

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtFree(void* devPtr);
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind);
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count);

#ifdef __cplusplus
}
#endif

#endif
