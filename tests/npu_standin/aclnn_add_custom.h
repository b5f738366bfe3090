// The aclnn API a CANN 8.0 package build generates for AddCustom (x, y -> z), as the stand-in
// package installs it.
#ifndef ACLNN_ADD_CUSTOM_H_
#define ACLNN_ADD_CUSTOM_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclnnStatus aclnnAddCustomGetWorkspaceSize(const aclTensor *x, const aclTensor *y, const aclTensor *z, uint64_t *workspaceSize,
                                           aclOpExecutor **executor);
aclnnStatus aclnnAddCustom(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif
