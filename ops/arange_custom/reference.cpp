// C++ golden for ArangeCustom. The kernel works in the output dtype: index, times step,
// plus start, each rounded to that dtype, so the reference does the same.
#include <cmath>

#include "ascendopt_golden.h"

void ascendopt_golden(ascendopt_ref::Case& c)
{
    auto& y = c.output("y");
    const bool integral = y.dtype == "int32";
    const double start = integral ? std::trunc(c.attr_float("start")) : float(c.attr_float("start"));
    const double step = integral ? std::trunc(c.attr_float("step")) : float(c.attr_float("step"));
    for (size_t i = 0; i < y.data.size(); ++i) {
        if (integral) {
            y.data[i] = start + double(i) * step;
        } else {
            y.data[i] = double(float(float(float(i) * float(step)) + float(start)));
        }
    }
}
