#include "soc_json.h"

namespace ascendopt_twin {
namespace {

// Reads doc[section][key] as a number.
struct Reader {
    const nlohmann::json& doc;
    std::string& error;
    double num(const char* section, const char* key) {
        const nlohmann::json* v = &doc;
        if (section) v = doc.contains(section) ? &doc[section] : nullptr;
        if (!v || !v->is_object() || !v->contains(key) || !(*v)[key].is_number()) {
            if (error.empty()) error = std::string("SoC description has no number ") + (section ? section + std::string(".") : "") + key;
            return 0;
        }
        return (*v)[key].get<double>();
    }
};

}  // namespace

bool soc_from_json(const nlohmann::json& doc, SocSpec& s, std::string& error) {
    Reader r{doc, error};
    s.name = doc.value("name", "");
    s.short_name = doc.value("short_name", "");
    s.family = int(r.num(nullptr, "family"));
    s.vector_cores = uint32_t(r.num("cores", "vector"));
    s.cube_cores = uint32_t(r.num("cores", "cube"));
    s.ub_bytes = uint64_t(r.num("memory", "ub"));
    s.ub_reported_bytes = doc.contains("memory") && doc["memory"].contains("ub_reported") ? uint64_t(r.num("memory", "ub_reported")) : s.ub_bytes;
    s.l1_bytes = uint64_t(r.num("memory", "l1"));
    s.l0a_bytes = uint64_t(r.num("memory", "l0a"));
    s.l0b_bytes = uint64_t(r.num("memory", "l0b"));
    s.l0c_bytes = uint64_t(r.num("memory", "l0c"));
    s.bt_bytes = uint64_t(r.num("memory", "bt"));
    s.fb_bytes = uint64_t(r.num("memory", "fb"));
    s.l2_bytes = uint64_t(r.num("memory", "l2"));
    s.hbm_bytes = uint64_t(r.num("memory", "hbm"));
    TimingParams& t = s.timing;
    t.clock_ghz = r.num("clock", "ghz");
    t.launch_overhead_us = r.num("launch", "overhead_us");
    t.gm_bytes_per_cycle = t.clock_ghz > 0 ? r.num("gm", "bandwidth_gbps") / t.clock_ghz : 0;
    t.mte_bytes_per_cycle = r.num("mte", "bytes_per_cycle");
    t.mte_reported_bytes_per_cycle = doc.contains("mte") && doc["mte"].contains("reported_bytes_per_cycle")
                                         ? r.num("mte", "reported_bytes_per_cycle")
                                         : t.mte_bytes_per_cycle;
    t.mte_latency_cycles = r.num("mte", "latency_cycles");
    if (doc.contains("l2")) {  // optional: without it no L2 is modeled
        t.l2_read_bytes_per_cycle = r.num("l2", "read_bytes_per_cycle");
        t.l2_write_bytes_per_cycle = r.num("l2", "write_bytes_per_cycle");
        t.l2_bytes_per_cycle = t.clock_ghz > 0 ? r.num("l2", "bandwidth_gbps") / t.clock_ghz : 0;
        t.l2_resident_fraction = r.num("l2", "resident_fraction");
        if (error.empty() && (t.l2_resident_fraction < 0 || t.l2_resident_fraction > 1))
            error = "SoC description " + s.name + ": l2.resident_fraction is a share, from 0 to 1";
    }
    t.mte_setup_cycles = r.num("mte", "setup_cycles");
    t.mte_burst_cycles = r.num("mte", "burst_cycles");
    t.vector_issue_cycles = r.num("vector", "issue_cycles");
    t.vector_default_cycles_per_repeat = r.num("vector", "default_cycles_per_repeat");
    if (doc.contains("vector") && doc["vector"].contains("cycles_per_repeat"))
        for (const auto& [k, v] : doc["vector"]["cycles_per_repeat"].items())
            if (v.is_number()) t.vector_cycles_per_repeat[k] = v.get<double>();
    t.scalar_cycles_per_basic_block = r.num("scalar", "cycles_per_basic_block");
    t.scalar_issue_cycles = r.num("scalar", "issue_cycles");
    t.ub_access_cycles = r.num("scalar", "ub_access_cycles");
    t.gm_access_cycles = r.num("scalar", "gm_access_cycles");
    t.flag_cycles = r.num("sync", "flag_cycles");
    t.barrier_cycles = r.num("sync", "barrier_cycles");
    t.sync_all_cycles = r.num("sync", "sync_all_cycles");
    t.cross_core_flag_cycles = r.num("sync", "cross_core_flag_cycles");
    CubeTiming& c = t.cube;
    c.mte1_l0a_bytes_per_cycle = r.num("mte1", "l0a_bytes_per_cycle");
    c.mte1_l0b_bytes_per_cycle = r.num("mte1", "l0b_bytes_per_cycle");
    c.mte1_bt_bytes_per_cycle = r.num("mte1", "bt_bytes_per_cycle");
    c.mte1_setup_cycles = r.num("mte1", "setup_cycles");
    c.m_issue_cycles = r.num("cube", "issue_cycles");
    c.m_cycles_per_fractal = r.num("cube", "cycles_per_fractal");
    c.fix_bytes_per_cycle = r.num("fixpipe", "bytes_per_cycle");
    c.fix_setup_cycles = r.num("fixpipe", "setup_cycles");
    if (error.empty() && (s.vector_cores == 0 || s.ub_bytes == 0 || t.clock_ghz <= 0 || t.mte_bytes_per_cycle <= 0 ||
                          t.gm_bytes_per_cycle <= 0 || c.mte1_l0a_bytes_per_cycle <= 0 || c.mte1_l0b_bytes_per_cycle <= 0 ||
                          c.mte1_bt_bytes_per_cycle <= 0 || c.fix_bytes_per_cycle <= 0))
        error = "SoC description " + s.name +
                " needs positive cores.vector, memory.ub, clock.ghz, mte.bytes_per_cycle, gm.bandwidth_gbps, mte1.*_bytes_per_cycle and "
                "fixpipe.bytes_per_cycle";
    return error.empty();
}

}  // namespace ascendopt_twin
