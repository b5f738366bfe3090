// The operator parameters of a job as the harness reads them: which tensors each OpDef input
// and output has (none for an optional input left out, several for a dynamic list), the gert
// view of them for tiling, and the tensor lists dynamic parameters hand the kernel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ascendopt_twin/host/op_def.h"
#include "core/dtype.h"

namespace ascendopt_twin::harness {

struct Tensor {
    std::string name;   // the parameter's
    int index = -1;     // position in a dynamic list, -1 for a plain parameter
    ascendopt::DType dtype = ascendopt::DType::f32;
    std::vector<int64_t> shape;
    std::string file;
    int format = 2;  // ge::Format (ND)
    uint64_t bytes() const;
    std::string label() const;  // "x" or "x[2]"
};

// One OpDef parameter of the job: absent (an optional input left out), one tensor, or the
// tensors of a dynamic list.
struct Param {
    std::string name;
    bool dynamic = false;
    std::vector<Tensor> tensors;  // empty: absent
    bool present() const { return !tensors.empty(); }
};

// The job's tensors for `defs`, in OpDef order. A missing required parameter, an unknown dtype
// or several tensors for a plain parameter end the case with a verdict.
std::vector<Param> params_for(const std::vector<ops::OpParamDef>& defs, const nlohmann::json& list, const char* what);
// The same from the parameters a tiling plan lists ({"name", "dynamic"} each, in OpDef order):
// the launch half of the harness has no OpDef (harness.h).
std::vector<Param> params_from_plan(const nlohmann::json& plan_params, const nlohmann::json& list, const char* what);

// Fills shapes, descriptions and IR instance info; `host_data` keeps the contents of
// ValueDepend inputs, which the tiling may read.
void fill_io(gert::IoDesc& io, const ops::OpDef& op, const std::vector<Param>& ins, const std::vector<Param>& outs,
             std::vector<std::vector<char>>& host_data);
void fill_attrs(gert::IoDesc& io, const ops::OpDef& op, const nlohmann::json& attrs);

// Whether the host code reads input `ir`'s contents: OpDef ValueDepend, or the
// (Tiling)InputsDataDependency of its IMPL_OP registration.
bool reads_data(const ops::OpDef& op, size_t ir);

// Reads an input file, which must hold exactly the tensor, into `dest` (its pre-opened
// descriptor: harness_files.h).
void read_input_into(const Tensor& t, char* dest);

const char* attr_kind_name(gert::AttrValue::Kind k);

}  // namespace ascendopt_twin::harness
