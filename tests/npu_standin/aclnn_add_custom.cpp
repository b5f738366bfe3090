// The stand-in package's AddCustom: z = x + y computed on the twin's device memory, for float
// and float16, charging the stream a device time that varies from run to run (20.0, 20.2 or
// 20.4 us: above what any case of AddCustom can take at the SoC's peak, which the judge checks)
// so that the timed repeats are samples with a spread, as on a device.
#include <cstdlib>

#include "aclnn_add_custom.h"
#include "ascendopt_twin/acl_device.h"

struct aclOpExecutor {
    const AscendoptTwinTensorView *x, *y, *z;
};

namespace {

uint64_t elements(const AscendoptTwinTensorView* v) {
    uint64_t n = 1;
    for (uint64_t k = 0; k < v->view_rank; ++k) n *= uint64_t(v->view_dims[k]);
    return n;
}

template <typename T>
void add(const aclOpExecutor& e, uint64_t n) {
    const T* x = static_cast<const T*>(e.x->data);
    const T* y = static_cast<const T*>(e.y->data);
    T* z = static_cast<T*>(e.z->data);
    for (uint64_t i = 0; i < n; ++i) z[i] = T(float(x[i]) + float(y[i]));
}

}  // namespace

extern "C" aclnnStatus aclnnAddCustomGetWorkspaceSize(const aclTensor* x, const aclTensor* y, const aclTensor* z, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    const AscendoptTwinTensorView *vx = ascendopt_twin_tensor_view(x), *vy = ascendopt_twin_tensor_view(y), *vz = ascendopt_twin_tensor_view(z);
    if (!vx || !vy || !vz) return ascendopt_twin_acl_fail(161001, "AddCustom: a tensor is not live");
    if (elements(vx) != elements(vy) || elements(vx) != elements(vz) || vx->data_type != vz->data_type)
        return ascendopt_twin_acl_fail(161002, "AddCustom: x, y and z differ");
    if (vx->data_type != ACL_FLOAT && vx->data_type != ACL_FLOAT16) return ascendopt_twin_acl_fail(161002, "AddCustom: unsupported dtype");
    *workspaceSize = 0;
    *executor = new aclOpExecutor{vx, vy, vz};
    return 0;
}

extern "C" aclnnStatus aclnnAddCustom(void*, uint64_t, aclOpExecutor* e, aclrtStream stream) {
    static uint64_t launches = 0;
    uint64_t n = elements(e->x);
    if (std::getenv("ASCENDOPT_STANDIN_SKIP_LAST") && n > 0) --n;
    if (e->x->data_type == ACL_FLOAT) add<float>(*e, n);
    else add<_Float16>(*e, n);
    delete e;
    return ascendopt_twin_acl_charge(stream, 20000 + 200 * (launches++ % 3));
}
