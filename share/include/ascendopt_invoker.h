// The fixed part of ascendopt's invoker: the program that runs an operator's cases through the
// ACL runtime and its two-phase aclnn API, on an NPU with CANN or on the twin's ACL (docs/npu.md
// "The invoker"). ascendopt generates, per operator, a small main() that includes this header
// and the operator's aclnn header and passes the two calls (src/npu/invoker_source.cpp); this
// file holds everything else: reading the job, device memory and tensors, the checked run,
// warm-up and timed repeats with device events, and the results.
//
// Portable on purpose: C++17, the standard library and the public ACL headers only, so that it
// builds with a CANN toolkit's compiler environment as it is.
//
// Usage: invoker JOB RESULTS. The job (written by ascendopt, src/npu/invoker_job.cpp) is lines
// of whitespace-separated tokens:
//   ascendopt-invoker-job 1
//   device D | warmup W | repeats R
//   case NAME
//   param I absent
//   param I tensor DTYPE RANK DIMS... IN_FILE
//   param I ref DTYPE RANK DIMS... IN_FILE OUT_FILE        (an input the operator updates)
//   param I output DTYPE RANK DIMS... POISON_HEX OUT_FILE   (POISON_HEX: 8 bytes, repeated)
//   param I tensor_list N   followed by N lines: element DTYPE RANK DIMS... IN_FILE
//   param I int V | float V | bool 0/1 | str HEX
//   param I int_array N V... | float_array N V... | bool_array N V...
//   end
// DTYPE is the aclDataType code. RESULTS gets one line per case:
//   case NAME ok WORKSPACE_BYTES MS_1 ... MS_R
//   case NAME failed STAGE CODE HEX_MESSAGE
// The first run of a case is the checked one: outputs start as the poison, and what it leaves
// is written to OUT_FILE; warm-up and timed runs follow, each timed by events around the
// launch alone. Exit status: 0 when every case ran, 1 when one failed, 2 on a bad job.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

// The twin's announcement of the case and run the next aclnn calls belong to (docs/npu.md "The
// twin behind aclnn"). Weak: on CANN no library defines it, the address is null and the call
// is skipped.
extern "C" void ascendopt_twin_acl_case(const char* name, int run) __attribute__((weak));

namespace ascendopt_invoker {

// One parameter of the aclnn call in one case.
struct Param {
    std::string kind = "absent";
    int dtype = 0;
    std::vector<int64_t> dims;
    std::string in_file, out_file;
    std::vector<uint8_t> poison;  // 8 bytes
    std::vector<Param> elements;  // tensor_list
    int64_t i = 0;
    double f = 0;
    std::string s;
    std::vector<int64_t> ints;
    std::vector<float> floats;
    std::unique_ptr<bool[]> bools;
    uint64_t count = 0;

    // Device state of one run.
    void* device = nullptr;
    aclTensor* tensor = nullptr;
    aclTensorList* list = nullptr;
    aclIntArray* int_array = nullptr;
    aclFloatArray* float_array = nullptr;
    aclBoolArray* bool_array = nullptr;
};

struct Case {
    std::string name;
    std::vector<Param> params;
};

struct Job {
    int device = 0;
    int warmup = 1;
    int repeats = 3;
    std::vector<Case> cases;
};

// The arguments the generated call reads, by parameter index.
class Args {
public:
    explicit Args(Case& c) : m_case(c) {}
    const aclTensor* tensor(size_t i) { return at(i).tensor; }
    const aclTensorList* tensor_list(size_t i) { return at(i).list; }
    int64_t i64(size_t i) { return at(i).i; }
    double f64(size_t i) { return at(i).f; }
    bool boolean(size_t i) { return at(i).i != 0; }
    char* str(size_t i) { return at(i).kind == "absent" ? nullptr : &at(i).s[0]; }
    const aclIntArray* int_array(size_t i) { return at(i).int_array; }
    const aclFloatArray* float_array(size_t i) { return at(i).float_array; }
    const aclBoolArray* bool_array(size_t i) { return at(i).bool_array; }

private:
    Param& at(size_t i) {
        static Param absent;
        return i < m_case.params.size() ? m_case.params[i] : absent;
    }
    Case& m_case;
};

struct Calls {
    const char* op_type;
    size_t param_count;
    aclnnStatus (*get_workspace)(Args& args, uint64_t* workspace_size, aclOpExecutor** executor);
    aclnnStatus (*launch)(void* workspace, uint64_t workspace_size, aclOpExecutor* executor, aclrtStream stream);
};

namespace detail {

inline std::string hex_of(const std::string& text) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : text) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out.empty() ? "-" : out;
}

inline bool unhex(const std::string& hex, std::string& out) {
    if (hex == "-") return out.clear(), true;
    if (hex.size() % 2) return false;
    out.clear();
    for (size_t k = 0; k < hex.size(); k += 2) {
        unsigned v = 0;
        if (std::sscanf(hex.substr(k, 2).c_str(), "%2x", &v) != 1) return false;
        out += char(v);
    }
    return true;
}

inline size_t dtype_size(int dtype) { return aclDataTypeSize(static_cast<aclDataType>(dtype)); }

inline uint64_t elements(const Param& p) {
    uint64_t n = 1;
    for (int64_t d : p.dims) n *= uint64_t(d);
    return n;
}

inline uint64_t bytes_of(const Param& p) { return elements(p) * dtype_size(p.dtype); }

// Reads "DTYPE RANK DIMS..." into p; false when malformed.
inline bool read_shape(std::istringstream& in, Param& p) {
    size_t rank = 0;
    if (!(in >> p.dtype >> rank) || rank > 8 || dtype_size(p.dtype) == 0) return false;
    p.dims.resize(rank);
    for (auto& d : p.dims)
        if (!(in >> d) || d < 0) return false;
    return true;
}

template <class T>
bool read_values(std::istringstream& in, std::vector<T>& out) {
    size_t n = 0;
    if (!(in >> n) || n > (1u << 20)) return false;
    out.resize(n);
    for (auto& v : out)
        if (!(in >> v)) return false;
    return true;
}

// One "param" line (and, for a tensor list, its element lines); false when malformed.
inline bool read_param(std::istringstream& in, std::istream& lines, Param& p) {
    if (!(in >> p.kind)) return false;
    if (p.kind == "absent") return true;
    if (p.kind == "tensor") return read_shape(in, p) && bool(in >> p.in_file);
    if (p.kind == "ref") return read_shape(in, p) && bool(in >> p.in_file >> p.out_file);
    if (p.kind == "output") {
        std::string poison;
        if (!read_shape(in, p) || !(in >> poison >> p.out_file) || poison.size() != 16) return false;
        std::string bytes;
        if (!unhex(poison, bytes)) return false;
        p.poison.assign(bytes.begin(), bytes.end());
        return true;
    }
    if (p.kind == "tensor_list") {
        size_t n = 0;
        if (!(in >> n) || n > 4096) return false;
        p.elements.resize(n);
        for (auto& e : p.elements) {
            std::string line, word;
            if (!std::getline(lines, line)) return false;
            std::istringstream el(line);
            e.kind = "tensor";
            if (!(el >> word) || word != "element" || !read_shape(el, e) || !(el >> e.in_file)) return false;
        }
        return true;
    }
    if (p.kind == "int") return bool(in >> p.i);
    if (p.kind == "float") return bool(in >> p.f);
    if (p.kind == "bool") return bool(in >> p.i) && (p.i == 0 || p.i == 1);
    if (p.kind == "str") {
        std::string hex;
        return bool(in >> hex) && unhex(hex, p.s);
    }
    if (p.kind == "int_array") return read_values(in, p.ints);
    if (p.kind == "float_array") return read_values(in, p.floats);
    if (p.kind == "bool_array") {
        std::vector<int> v;
        if (!read_values(in, v)) return false;
        p.count = v.size();
        p.bools = std::make_unique<bool[]>(v.size());
        for (size_t k = 0; k < v.size(); ++k) p.bools[k] = v[k] != 0;
        return true;
    }
    return false;
}

// The job at `path`; an empty string, or the line that is malformed.
inline std::string read_job(const char* path, size_t param_count, Job& job) {
    std::ifstream file(path);
    std::string line;
    if (!std::getline(file, line) || line != "ascendopt-invoker-job 1") return "not an invoker job (first line)";
    Case* current = nullptr;
    while (std::getline(file, line)) {
        std::istringstream in(line);
        std::string word;
        if (!(in >> word)) continue;
        bool ok = true;
        if (word == "device") ok = bool(in >> job.device);
        else if (word == "warmup") ok = bool(in >> job.warmup) && job.warmup >= 0;
        else if (word == "repeats") ok = bool(in >> job.repeats) && job.repeats >= 1;
        else if (word == "case") {
            job.cases.emplace_back();
            current = &job.cases.back();
            current->params.resize(param_count);
            ok = bool(in >> current->name);
        } else if (word == "param") {
            size_t index = 0;
            ok = current && bool(in >> index) && index < param_count && read_param(in, file, current->params[index]);
        } else if (word == "end") {
            current = nullptr;
        } else {
            ok = false;
        }
        if (!ok) return line;
    }
    return "";
}

inline bool read_file(const std::string& path, void* data, uint64_t bytes) {
    std::ifstream in(path, std::ios::binary);
    in.read(static_cast<char*>(data), std::streamsize(bytes));
    return uint64_t(in.gcount()) == bytes;
}

inline bool write_file(const std::string& path, const void* data, uint64_t bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char*>(data), std::streamsize(bytes));
    return bool(out);
}

// A failure of one case: its stage, the ACL code and the runtime's message.
struct Failure {
    std::string stage;
    int code = 0;
    std::string message;
};

inline Failure acl_failure(const std::string& stage, int code) {
    const char* m = aclGetRecentErrMsg();
    return Failure{stage, code, m ? m : ""};
}

inline std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& dims) {
    std::vector<int64_t> strides(dims.size(), 1);
    for (size_t k = dims.size(); k-- > 1;) strides[k - 1] = strides[k] * dims[k];
    return strides;
}

// Device memory and the aclTensor of a tensor, ref or output parameter, filled from its input
// file or with its poison. Every allocation holds at least one byte.
inline bool make_tensor(Param& p, Failure& f) {
    const uint64_t bytes = bytes_of(p);
    if (int rc = aclrtMalloc(&p.device, bytes ? bytes : 1, ACL_MEM_MALLOC_HUGE_FIRST)) return f = acl_failure("malloc", rc), false;
    std::vector<uint8_t> host(bytes);
    if (p.kind == "output") {
        for (uint64_t k = 0; k < bytes; ++k) host[k] = p.poison[k % 8];
    } else if (!read_file(p.in_file, host.data(), bytes)) {
        return f = Failure{"input", 0, "cannot read " + std::to_string(bytes) + " bytes from " + p.in_file}, false;
    }
    if (bytes)
        if (int rc = aclrtMemcpy(p.device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE)) return f = acl_failure("copy in", rc), false;
    const auto strides = contiguous_strides(p.dims);
    p.tensor = aclCreateTensor(p.dims.data(), p.dims.size(), static_cast<aclDataType>(p.dtype), strides.data(), 0, ACL_FORMAT_ND,
                               p.dims.data(), p.dims.size(), p.device);
    if (!p.tensor) return f = acl_failure("tensor", 0), false;
    return true;
}

// The ACL objects of every parameter of a case, for one run.
inline bool prepare(Case& c, Failure& f) {
    for (auto& p : c.params) {
        if (p.kind == "tensor" || p.kind == "ref" || p.kind == "output") {
            if (!make_tensor(p, f)) return false;
        } else if (p.kind == "tensor_list") {
            std::vector<const aclTensor*> tensors;
            for (auto& e : p.elements) {
                if (!make_tensor(e, f)) return false;
                tensors.push_back(e.tensor);
            }
            if (!(p.list = aclCreateTensorList(tensors.data(), tensors.size()))) return f = acl_failure("tensor list", 0), false;
        } else if (p.kind == "int_array") {
            if (!(p.int_array = aclCreateIntArray(p.ints.data(), p.ints.size()))) return f = acl_failure("int array", 0), false;
        } else if (p.kind == "float_array") {
            if (!(p.float_array = aclCreateFloatArray(p.floats.data(), p.floats.size()))) return f = acl_failure("float array", 0), false;
        } else if (p.kind == "bool_array") {
            if (!(p.bool_array = aclCreateBoolArray(p.bools.get(), p.count))) return f = acl_failure("bool array", 0), false;
        }
    }
    return true;
}

inline void release_tensor(Param& p) {
    if (p.tensor) aclDestroyTensor(p.tensor);
    if (p.device) aclrtFree(p.device);
    p.tensor = nullptr;
    p.device = nullptr;
}

inline void release(Case& c) {
    for (auto& p : c.params) {
        release_tensor(p);
        for (auto& e : p.elements) release_tensor(e);
        if (p.list) aclDestroyTensorList(p.list);
        if (p.int_array) aclDestroyIntArray(p.int_array);
        if (p.float_array) aclDestroyFloatArray(p.float_array);
        if (p.bool_array) aclDestroyBoolArray(p.bool_array);
        p.list = nullptr;
        p.int_array = nullptr;
        p.float_array = nullptr;
        p.bool_array = nullptr;
    }
}

// What the checked run left in every output and updated input, written to their files.
inline bool save_outputs(Case& c, Failure& f) {
    for (auto& p : c.params) {
        if (p.kind != "output" && p.kind != "ref") continue;
        const uint64_t bytes = bytes_of(p);
        std::vector<uint8_t> host(bytes);
        if (bytes)
            if (int rc = aclrtMemcpy(host.data(), bytes, p.device, bytes, ACL_MEMCPY_DEVICE_TO_HOST)) return f = acl_failure("copy out", rc), false;
        if (!write_file(p.out_file, host.data(), bytes)) return f = Failure{"output", 0, "cannot write " + p.out_file}, false;
    }
    return true;
}

// One run: fresh tensors, the two-phase call with events around the launch, and the launch's
// device time in `ms`. The workspace is freed before returning; tensors stay for save_outputs.
inline bool run_once(const Calls& calls, Case& c, int run, aclrtStream stream, aclrtEvent start, aclrtEvent end, uint64_t& workspace_size,
                     float& ms, Failure& f) {
    release(c);
    if (!prepare(c, f)) return false;
    if (ascendopt_twin_acl_case) ascendopt_twin_acl_case(c.name.c_str(), run);
    Args args(c);
    aclOpExecutor* executor = nullptr;
    if (int rc = calls.get_workspace(args, &workspace_size, &executor)) return f = acl_failure("get_workspace", rc), false;
    void* workspace = nullptr;
    if (workspace_size)
        if (int rc = aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST)) return f = acl_failure("workspace", rc), false;
    int rc = aclrtRecordEvent(start, stream);
    if (!rc) rc = calls.launch(workspace, workspace_size, executor, stream);
    const std::string stage = rc ? "launch" : "synchronize";
    if (!rc) rc = aclrtRecordEvent(end, stream);
    if (!rc) rc = aclrtSynchronizeStream(stream);
    if (!rc) rc = aclrtEventElapsedTime(&ms, start, end);
    Failure failed = rc ? acl_failure(stage, rc) : Failure{};
    if (workspace) aclrtFree(workspace);
    if (rc) return f = failed, false;
    return true;
}

// The case's result line; `ok` says whether it ran.
inline std::string run_case(const Calls& calls, const Job& job, Case& c, aclrtStream stream, aclrtEvent start, aclrtEvent end, bool& ok) {
    Failure f;
    uint64_t workspace = 0;
    float ms = 0;
    std::vector<float> times;
    ok = run_once(calls, c, 0, stream, start, end, workspace, ms, f) && save_outputs(c, f);
    for (int k = 0; ok && k < job.warmup + job.repeats; ++k) {
        ok = run_once(calls, c, k + 1, stream, start, end, workspace, ms, f);
        if (ok && k >= job.warmup) times.push_back(ms);
    }
    release(c);
    if (!ok) return "case " + c.name + " failed " + f.stage + " " + std::to_string(f.code) + " " + hex_of(f.message);
    std::string line = "case " + c.name + " ok " + std::to_string(workspace);
    char buf[32];
    for (float t : times) {
        std::snprintf(buf, sizeof buf, " %.9g", double(t));
        line += buf;
    }
    return line;
}

}  // namespace detail

inline int run(int argc, char** argv, const Calls& calls) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s JOB RESULTS\n", argv[0]);
        return 2;
    }
    Job job;
    if (const std::string bad = detail::read_job(argv[1], calls.param_count, job); !bad.empty()) {
        std::fprintf(stderr, "invoker: %s: malformed job line: %s\n", argv[1], bad.c_str());
        return 2;
    }
    std::ofstream results(argv[2], std::ios::trunc);
    int rc = aclInit(nullptr);
    aclrtStream stream = nullptr;
    aclrtEvent start = nullptr, end = nullptr;
    if (!rc) rc = aclrtSetDevice(job.device);
    if (!rc) rc = aclrtCreateStream(&stream);
    if (!rc) rc = aclrtCreateEvent(&start);
    if (!rc) rc = aclrtCreateEvent(&end);
    if (rc) {
        const char* m = aclGetRecentErrMsg();
        std::fprintf(stderr, "invoker: setting up NPU %d failed with ACL error %d: %s\n", job.device, rc, m ? m : "");
        return 1;
    }
    bool all_ok = true;
    for (auto& c : job.cases) {
        bool ok = false;
        const std::string line = detail::run_case(calls, job, c, stream, start, end, ok);
        all_ok = all_ok && ok;
        results << line << "\n" << std::flush;
    }
    aclrtDestroyEvent(start);
    aclrtDestroyEvent(end);
    aclrtDestroyStream(stream);
    aclrtResetDevice(job.device);
    aclFinalize();
    return all_ok ? 0 : 1;
}

}  // namespace ascendopt_invoker
