// The text forms CANN's operator libraries give host code for its log messages: ops::ToString
// of shapes, declared by the host sources that use them (mat_mul_v3_proto.cpp) and defined in a
// CANN library they link. Ours: "[d0, d1, ...]", and "nullptr" for a missing shape. And the log
// library's CheckLogLevel, weak: a host source may define its own; and mmpa's thread id.
#include <sys/syscall.h>
#include <unistd.h>

#include <string>

#include "base/alog_pub.h"
#include "exe_graph/runtime/shape.h"
#include "mmpa_api.h"

int mmGetTid() { return static_cast<int>(syscall(SYS_gettid)); }

__attribute__((weak)) int CheckLogLevel(int module_id, int level) { return AlogCheckDebugLevel(module_id, level); }

namespace ops {

std::string ToString(const gert::Shape& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.GetDimNum(); ++i) s += (i ? ", " : "") + std::to_string(shape.GetDim(i));
    return s + "]";
}

std::string ToString(const gert::Shape* shape) { return shape ? ToString(*shape) : std::string("nullptr"); }

}  // namespace ops
