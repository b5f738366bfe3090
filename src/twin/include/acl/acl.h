// The ACL entry header a CANN program includes; on the twin it declares the runtime subset of
// acl_base.h and acl_rt.h (src/twin/acl/).
#ifndef ASCENDOPT_TWIN_ACL_H
#define ASCENDOPT_TWIN_ACL_H

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#endif
