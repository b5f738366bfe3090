// The launch half of the harness: runs one case of a job in the operator binary from the tiling
// the host binary computed (GM set-up, launch, outputs). See harness.h.
#include <dlfcn.h>
#include <cstdio>

#include <algorithm>
#include <iterator>
#include <memory>

#include "core/dtype.h"
#include "harness.h"
#include "harness_frozen.h"
#include "harness_files.h"
#include "harness_io.h"
#include "kernel_type_notes.h"
#include "ascendopt_twin/runtime_gm.h"
#include "twin_rt.h"

namespace ascendopt_twin::harness {
namespace {

using nlohmann::json;

json verdict(const char* status, const std::string& api, const std::string& message) {
    return {{"status", status}, {"api", api}, {"message", message}};
}

uint64_t tensor_list_bytes(const Param& p) {
    std::vector<std::vector<int64_t>> shapes;
    for (const auto& t : p.tensors) shapes.push_back(t.shape);
    return tensor_list_words(shapes, std::vector<uint64_t>(p.tensors.size())).size() * sizeof(uint64_t);
}

constexpr size_t k_shape_slot = 9;  // words per output in the output-shapes argument

// What the kernel receives for a parameter: null when it is absent, its tensor's address, or
// for a dynamic list the address of the tensor list describing its tensors.
uint8_t* kernel_argument(GmSpace& gm, const Param& p, const std::vector<uint8_t*>& addrs) {
    if (!p.present()) return nullptr;
    if (!p.dynamic) return addrs.front();
    std::vector<std::vector<int64_t>> shapes;
    for (const auto& t : p.tensors) shapes.push_back(t.shape);
    std::vector<uint64_t> data;
    for (uint8_t* a : addrs) data.push_back(reinterpret_cast<uint64_t>(a));
    const auto words = tensor_list_words(shapes, data);
    uint8_t* list = gm.add(p.name + " (tensor list)", words.size() * sizeof(uint64_t));
    std::memcpy(gm.host(list), words.data(), words.size() * sizeof(uint64_t));
    return list;
}

// The input an output of the same name and size updates in place, or null.
uint8_t* shared_input(const std::vector<Param>& ins, const std::vector<std::vector<uint8_t*>>& addrs, const Tensor& out) {
    for (size_t i = 0; i < ins.size(); ++i)
        for (size_t k = 0; k < ins[i].tensors.size(); ++k)
            if (ins[i].tensors[k].label() == out.label() && ins[i].tensors[k].bytes() == out.bytes()) return addrs[i][k];
    return nullptr;
}

// A site's return addresses as offsets into the operator binary, as crash reports give them
// (harness_main.cpp stack_offsets): ascendopt maps them to source lines with addr2line.
json site_json(PipeId pipe, const Site& site, uintptr_t base) {
    json pcs = json::array();
    for (uintptr_t pc : site.pcs) {
        if (!pc || pc <= base) continue;
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(pc - base - 1));  // the call, not after it
        pcs.push_back(hex);
    }
    return {{"pipe", pipe_name(pipe)}, {"api", site.api}, {"frames", pcs}};
}

// The hazard checker's findings (LaunchOptions::check_races); ascendopt resolves the sites.
json races_json(const LaunchResult& launched) {
    json out = json::array();
    Dl_info self{};
    dladdr(reinterpret_cast<void*>(&races_json), &self);
    const auto base = reinterpret_cast<uintptr_t>(self.dli_fbase);
    for (const auto& [r, first_block, cores] : launched.races)
        out.push_back({{"kind", hazard_kind_name(r.kind)},
                       {"memory", mem_name(r.mem)},
                       {"first_byte", r.first_byte},
                       {"last_byte", r.last_byte},
                       {"buffer", r.buffer},
                       {"earlier", site_json(r.earlier_pipe, r.earlier, base)},
                       {"later", site_json(r.later_pipe, r.later, base)},
                       {"count", r.count},
                       {"first_block", first_block},
                       {"cores", cores}});
    return out;
}

json counts_json(const InstrCounts& c) {
    json pipes = json::object();
    for (size_t i = 0; i < size_t(PipeId::count); ++i) pipes[pipe_name(PipeId(i))] = {{"count", c.count[i]}, {"bytes", c.bytes[i]}};
    return {{"pipes", pipes}, {"by_kind", c.by_kind}};
}

// Bytes from the hex the tiling half wrote; false on a character that is not a hex digit or an
// odd length.
bool bytes_of_hex(const std::string& hex, std::vector<uint8_t>& out) {
    if (hex.size() % 2) return false;
    auto digit = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
    out.resize(hex.size() / 2);
    for (size_t i = 0; i < out.size(); ++i) {
        const int hi = digit(hex[2 * i]), lo = digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return false;
        out[i] = uint8_t(hi * 16 + lo);
    }
    return true;
}

// What the kernel or its tiling could tell apart between two SoC descriptions, "" when nothing:
// a timing variant may differ from the job's SoC only in what the timing model alone reads.
std::string chip_difference(const SocSpec& a, const SocSpec& b) {
    if (a.name != b.name || a.short_name != b.short_name || a.family != b.family) return "the SoC's name";
    if (a.vector_cores != b.vector_cores || a.cube_cores != b.cube_cores) return "the core counts";
    if (a.ub_bytes != b.ub_bytes || a.ub_reported_bytes != b.ub_reported_bytes || a.l1_bytes != b.l1_bytes || a.l0a_bytes != b.l0a_bytes ||
        a.l0b_bytes != b.l0b_bytes || a.l0c_bytes != b.l0c_bytes || a.bt_bytes != b.bt_bytes || a.fb_bytes != b.fb_bytes ||
        a.l2_bytes != b.l2_bytes || a.hbm_bytes != b.hbm_bytes)
        return "the memory sizes";
    if (a.timing.clock_ghz != b.timing.clock_ghz) return "the clock";
    if (a.timing.mte_reported_bytes_per_cycle != b.timing.mte_reported_bytes_per_cycle) return "the bandwidth GetCoreMemBw reports";
    return "";
}

// The job's timing variants (LaunchOptions::timing_variants), each checked to describe the
// job's chip; an error message when one does not.
std::string timing_variants_of(const json& job, const SocSpec& soc, std::vector<TimingVariant>& out) {
    const json variants = job.value("timing_variants", json::array());
    if (!variants.is_array()) return "the job's timing variants are not a list";
    for (size_t i = 0; i < variants.size(); ++i) {
        std::string error;
        const SocSpec* v = frozen_soc(variants[i], error);
        if (!v) return "timing variant " + std::to_string(i) + ": " + error;
        if (const std::string d = chip_difference(soc, *v); !d.empty())
            return "timing variant " + std::to_string(i) + " differs from the job's SoC in " + d + "; a variant may change timing parameters only";
        out.push_back({v, {}});
    }
    return "";
}

}  // namespace

json run_job(const json& job) {
    if (!job.contains("soc")) return verdict("run_failed", "harness", "the job has no SoC description");
    std::string soc_error;
    const SocSpec* soc = frozen_soc(job["soc"], soc_error);
    if (!soc) return verdict("run_failed", "harness", soc_error);
    // The case's tiling, computed by the host binary in a process of its own and checked by the
    // evaluator (eval/tiling_plan.h): this binary holds no host code.
    if (!job.contains("plan") || !job["plan"].is_object()) return verdict("run_failed", "harness", "the job has no tiling plan");
    const json& plan = job["plan"];
    std::vector<uint8_t> tiling_bytes;
    if (!bytes_of_hex(plan.value("tiling_data", ""), tiling_bytes))
        return verdict("run_failed", "harness", "the tiling plan's tiling data is not hex");
    const auto ins = params_from_plan(plan.value("inputs", json::array()), job["inputs"], "input");
    const auto outs = params_from_plan(plan.value("outputs", json::array()), job["outputs"], "output");
    std::vector<bool> shape_from_kernel;
    for (const auto& p : plan.value("outputs", json::array())) shape_from_kernel.push_back(p.value("shape_from_kernel", false));
    const uint32_t block_dim = plan.value("block_dim", 0u);
    const uint64_t tiling_key = plan.value("tiling_key", uint64_t(0));
    if (block_dim == 0 || block_dim > job.value("max_block_dim", 4096u))
        return verdict("run_failed", "harness", "the tiling plan's block dim " + std::to_string(block_dim) + " is out of range");

    // Outputs whose shape the kernel computes get one more GM argument after the outputs: per
    // output, its dimension count and up to 8 dimensions (k_shape_slot words).
    const bool shapes_out = std::find(shape_from_kernel.begin(), shape_from_kernel.end(), true) != shape_from_kernel.end();
    const size_t kernel_args = job.value("kernel_args", size_t(0));
    const size_t expected_args = ins.size() + outs.size() + (shapes_out ? 1 : 0) + 2;
    if (kernel_args != 0 && kernel_args != expected_args)
        return verdict("run_failed", "launch",
                       "the kernel takes " + std::to_string(kernel_args) + " GM arguments, but the OpDef has " +
                           std::to_string(ins.size()) + " inputs + " + std::to_string(outs.size()) + " outputs" +
                           (shapes_out ? " + the output shapes" : "") + " + workspace + tiling = " + std::to_string(expected_args));
    void* entry = dlsym(RTLD_DEFAULT, job.value("kernel", "").c_str());
    if (!entry)
        return verdict("run_failed", "launch",
                       "kernel function '" + job.value("kernel", "") + "' not found; declare it extern \"C\" __global__ __aicore__");

    const uint64_t workspace = plan.value("workspace_bytes", uint64_t(0));
    const GmLayout layout = job.value("strict_gm", false) ? GmLayout::strict : GmLayout::pool;
    const size_t tiling_size = tiling_bytes.size();
    uint64_t total = GmSpace::footprint(workspace, layout) + GmSpace::footprint(tiling_size, layout) +
                     (shapes_out ? GmSpace::footprint(outs.size() * k_shape_slot * sizeof(uint64_t), layout) : 0);
    for (const auto* list : {&ins, &outs})
        for (const auto& p : *list) {
            for (const auto& t : p.tensors) total += GmSpace::footprint(t.bytes(), layout);
            if (p.dynamic) total += GmSpace::footprint(tensor_list_bytes(p), layout);
        }
    GmSpace gm(total, layout);
    set_crash_report_gm(&gm);
    const bool preflight = job.value("preflight", false);  // see LaunchOptions::preflight
    std::vector<uint8_t*> args;
    std::vector<std::vector<uint8_t*>> in_addrs;  // per input parameter, per tensor
    for (const auto& p : ins) {
        auto& addrs = in_addrs.emplace_back();
        for (const auto& t : p.tensors) {
            addrs.push_back(gm.add(t.label(), t.bytes()));
            if (!preflight) read_input_into(t, reinterpret_cast<char*>(gm.host(addrs.back())));  // straight into GM: inputs reach hundreds of megabytes
        }
        args.push_back(kernel_argument(gm, p, addrs));
    }
    std::vector<std::vector<uint8_t*>> out_addrs;
    const json fills = plan.value("output_fills", json::object());
    // What an output starts as unless the OpDef gives it an initial value: the evaluator's
    // poison for this case and run (a kernel that reads its output before writing it cannot
    // count on a fixed value), else 0xFF bytes (NaN, or -1).
    std::vector<uint8_t> poison;
    if (!bytes_of_hex(job.value("poison", std::string("ff")), poison) || poison.empty() || poison.size() > 64)
        return verdict("run_failed", "harness", "the job's output poison is not 1 to 64 hex bytes");
    std::vector<std::vector<bool>> tracked;  // per output tensor: its writes are counted
    for (size_t i = 0; i < outs.size(); ++i) {
        const Param& p = outs[i];
        auto& addrs = out_addrs.emplace_back();
        for (const auto& t : p.tensors) {
            // An output named like an input is that input, updated in place (a "ref" tensor, as
            // Eye's y): it starts with the input's data, as on the device where both are one buffer.
            uint8_t* shared = shared_input(ins, in_addrs, t);
            addrs.push_back(shared ? shared : gm.add(t.label(), t.bytes()));
            // Every byte an output must get is counted as written or not: not for an input
            // updated in place, an output with an initial value, or one whose shape the kernel
            // reports (it writes only what that shape covers).
            const bool counted = !preflight && !shared && !fills.contains(t.label()) && !(i < shape_from_kernel.size() && shape_from_kernel[i]);
            if (counted) gm.track_writes(addrs.back());
            if (tracked.size() <= i) tracked.resize(i + 1);
            tracked[i].push_back(counted);
            if (preflight || shared) continue;
            // The OpDef's initial value, else the poison.
            std::vector<uint8_t> pattern;
            if (fills.contains(t.label()) &&
                (!bytes_of_hex(fills[t.label()].get<std::string>(), pattern) || pattern.empty() || t.bytes() % pattern.size() != 0))
                return verdict("run_failed", "InitValue", "the initial value of output '" + t.label() + "' does not fill its buffer");
            auto* dest = reinterpret_cast<uint8_t*>(gm.host(addrs.back()));
            if (pattern.empty())
                for (uint64_t b = 0; b < t.bytes(); ++b) dest[b] = poison[b % poison.size()];
            else
                for (uint64_t b = 0; b < t.bytes(); b += pattern.size()) std::memcpy(dest + b, pattern.data(), pattern.size());
        }
        args.push_back(kernel_argument(gm, p, addrs));
    }
    uint8_t* shapes = nullptr;
    if (shapes_out) {
        shapes = gm.add("output shapes", outs.size() * k_shape_slot * sizeof(uint64_t));
        std::memset(gm.host(shapes), 0xFF, outs.size() * k_shape_slot * sizeof(uint64_t));  // not written: no shape
        args.push_back(shapes);
    }
    args.push_back(gm.add("workspace", workspace));
    set_launch_sys_workspace(args.back());  // GetSysWorkSpacePtr: the workspace's start (ascendopt_twin/sys_workspace.h)
    uint8_t* tiling = gm.add("tiling", tiling_size);
    if (tiling_size) std::memcpy(gm.host(tiling), tiling_bytes.data(), tiling_size);
    args.push_back(tiling);

    LaunchOptions options;
    options.preflight = preflight;
    options.strict_ub = job.value("strict_ub", false);
    options.check_races = job.value("races", false);
    // The cores to launch: what the compiled kernel declares for this tiling key
    // (kernel_type_notes.h), else what the evaluator infers from the units its code calls
    // (the job's kernel_type, eval/kernel_type.h).
    std::string kernel_type = compiled_kernel_type(tiling_key);
    if (kernel_type.empty()) kernel_type = job.value("kernel_type", std::string("aiv"));
    if (!kernel_type_from_name(kernel_type.empty() ? "aiv" : kernel_type, options.kernel_type))
        return verdict("run_failed", "harness", "unknown kernel_type '" + kernel_type + "' (aiv, aic, mix_aic_1_2, mix_aic_1_1, mix_aic_1_0, mix_aiv_1_0)");
    options.timing = job.value("timing", true) && !preflight;
    if (options.timing)
        if (const std::string e = timing_variants_of(job, *soc, options.timing_variants); !e.empty()) return verdict("run_failed", "harness", e);
    const std::string trace_path = job.value("trace", "");
    options.trace = options.timing && !trace_path.empty();
    const LaunchResult launched = launch(*soc, entry, args, block_dim, tiling_key, gm, options);
    if (options.trace && !overwrite_preopened(trace_path, chrome_trace(launched, *soc)))
        return verdict("run_failed", "harness", "cannot write the trace to " + trace_path);
    // Inputs the kernel updated in place without an OpDef output for them: their final contents.
    for (const auto& t : job["outputs"]) {
        if (preflight || !t.value("inplace", false)) continue;
        const std::string label = t.value("name", "") + (t.contains("index") ? "[" + std::to_string(t.value("index", 0)) + "]" : "");
        bool written = false;
        for (size_t i = 0; i < ins.size() && !written; ++i)
            for (size_t k = 0; k < ins[i].tensors.size() && !written; ++k)
                if (ins[i].tensors[k].label() == label) {
                    if (!overwrite_fd(preopened_fd(t.value("file", "")), reinterpret_cast<const char*>(gm.host(in_addrs[i][k])),
                                      ins[i].tensors[k].bytes()))
                        return verdict("run_failed", "harness", "cannot write the updated input '" + label + "'");
                    written = true;
                }
        if (!written) return verdict("run_failed", "harness", "the case reads back input '" + label + "', which it does not give");
    }
    for (size_t i = 0; i < outs.size() && !preflight; ++i)
        for (size_t k = 0; k < outs[i].tensors.size(); ++k) {
            const Tensor& t = outs[i].tensors[k];
            if (!overwrite_fd(preopened_fd(t.file), reinterpret_cast<const char*>(gm.host(out_addrs[i][k])), t.bytes()))
                return verdict("run_failed", "harness", "cannot write output '" + t.label() + "' to " + t.file);
        }
    json reported = json::object();
    if (shapes && !preflight)
        for (size_t i = 0; i < outs.size(); ++i) {
            if (i >= shape_from_kernel.size() || !shape_from_kernel[i] || !outs[i].present()) continue;
            const auto* slot = reinterpret_cast<const uint64_t*>(gm.host(shapes)) + i * k_shape_slot;
            const Tensor& t = outs[i].tensors[0];
            std::vector<int64_t> dims;
            uint64_t elements = 1;
            if (slot[0] < k_shape_slot)
                for (uint64_t d = 0; d < slot[0]; ++d) {
                    dims.push_back(int64_t(slot[1 + d]));
                    elements *= slot[1 + d];
                }
            if (slot[0] >= k_shape_slot || elements * ascendopt::dtype_size(t.dtype) > t.bytes())
                return verdict("wrong_result", "output shapes",
                               "the kernel reported no valid shape for '" + t.label() + "' (dimension count " + std::to_string(slot[0]) +
                                   "), or one larger than its " + std::to_string(t.bytes()) + "-byte buffer");
            reported[t.label()] = dims;
        }
    json result = {{"status", "ok"},
                   {"block_dim", block_dim},
                   {"tiling_key", tiling_key},
                   {"tiling_bytes", tiling_size},
                   {"workspace_bytes", workspace},
                   {"ub_bytes", launched.ub_bytes},
                   {"ub_capacity", soc->ub_bytes},
                   {"instructions", counts_json(launched.counts)}};
    if (preflight) result["preflight"] = true;
    if (!reported.empty()) result["output_shapes"] = reported;
    for (size_t i = 0; i < outs.size() && !preflight; ++i)
        for (size_t k = 0; k < outs[i].tensors.size(); ++k) {
            if (i >= tracked.size() || k >= tracked[i].size() || !tracked[i][k]) continue;
            const GmSpace::Unwritten u = gm.unwritten(out_addrs[i][k]);
            if (u.bytes) result["unwritten"][outs[i].tensors[k].label()] = {{"bytes", u.bytes}, {"first_byte", u.first_byte}};
        }
    for (const auto& o : launched.ub_overruns)
        result["ub_overruns"].push_back({{"api", o.api}, {"which", o.which}, {"buffer", o.buffer}, {"bytes_past", o.bytes_past}});
    if (!launched.races.empty()) result["races"] = races_json(launched);
    if (launched.races_dropped) result["races_dropped"] = launched.races_dropped;
    for (const auto& n : gm.padding_notes())
        result["gm_padding"].push_back({{"tensor", n.tensor}, {"api", n.api}, {"write", n.write}, {"bytes_past_end", n.bytes_past_end}});
    if (options.timing) result["timing"] = timing_json(launched, *soc);
    return result;
}

}  // namespace ascendopt_twin::harness
