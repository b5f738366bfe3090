// fe::PlatFormInfos and platform_ascendc::PlatformAscendC: what tiling code asks about the SoC.
// PlatFormInfos also answers the resource queries of CANN's platform configuration (the ini of
// each SoC: GetPlatformRes(section, key)) from the twin's SoC description: the sections and keys
// host code reads are listed in platform_resources() below.
#pragma once

#include <cstdint>
#include <string>

#include "ascendopt_twin/soc.h"
#include "ascendopt_twin/sys_workspace.h"

namespace fe {

enum class LocalMemType : int32_t { L0_A = 0, L0_B, L0_C, L1, L2, UB, HBM, RESERVED };

class PlatFormInfos {
public:
    explicit PlatFormInfos(const ascendopt_twin::SocSpec* soc = nullptr) : m_soc(soc) {}
    const ascendopt_twin::SocSpec& soc() const { return *m_soc; }

    // Cores of the current core type: AI cores (cube) unless set to "VectorCore".
    uint32_t GetCoreNum() const { return m_vector ? m_soc->vector_cores : m_soc->cube_cores; }
    uint32_t GetCoreNumByType(const std::string& type) const { return type == "VectorCore" ? m_soc->vector_cores : m_soc->cube_cores; }
    void SetCoreNumByCoreType(const std::string& type) { m_vector = type == "VectorCore"; }
    void GetLocalMemSize(const LocalMemType& type, uint64_t& size) const {
        switch (type) {
            case LocalMemType::L0_A: size = m_soc->l0a_bytes; break;
            case LocalMemType::L0_B: size = m_soc->l0b_bytes; break;
            case LocalMemType::L0_C: size = m_soc->l0c_bytes; break;
            case LocalMemType::L1: size = m_soc->l1_bytes; break;
            case LocalMemType::L2: size = m_soc->l2_bytes; break;
            case LocalMemType::UB: size = m_soc->ub_reported_bytes; break;
            case LocalMemType::HBM: size = m_soc->hbm_bytes; break;
            default: size = 0;
        }
    }
    // The value of `key` in section `label` of the platform configuration; false (and `value`
    // unchanged) when the twin's description has none.
    bool GetPlatformRes(const std::string& label, const std::string& key, std::string& value) const;
    bool GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& value) const {
        return GetPlatformRes(label, key, value);
    }
    bool IsValid() const { return m_soc != nullptr; }

private:
    const ascendopt_twin::SocSpec* m_soc;
    bool m_vector = false;
};

inline bool PlatFormInfos::GetPlatformRes(const std::string& label, const std::string& key, std::string& value) const {
    const ascendopt_twin::SocSpec& s = *m_soc;
    auto num = [](uint64_t v) { return std::to_string(v); };
    const bool split_cores = s.cube_cores > 0 && s.vector_cores != s.cube_cores;  // 910B: AIC and AIV apart
    struct Entry {
        const char* label;
        const char* key;
        std::string value;
    };
    const Entry entries[] = {
        {"version", "SoC_version", s.name},
        {"version", "Short_SoC_version", s.short_name},
        {"SoCInfo", "ai_core_cnt", num(s.cube_cores)},
        {"SoCInfo", "vector_core_cnt", num(s.vector_cores)},
        {"SoCInfo", "cube_core_cnt", num(s.cube_cores)},
        {"SoCInfo", "l2_size", num(s.l2_bytes)},
        {"SoCInfo", "memory_size", num(s.hbm_bytes)},
        {"AICoreSpec", "cube_freq", num(uint64_t(s.timing.clock_ghz * 1000 + 0.5))},
        {"AICoreSpec", "l0_a_size", num(s.l0a_bytes)},
        {"AICoreSpec", "l0_b_size", num(s.l0b_bytes)},
        {"AICoreSpec", "l0_c_size", num(s.l0c_bytes)},
        {"AICoreSpec", "l1_size", num(s.l1_bytes)},
        {"AICoreSpec", "ub_size", num(s.ub_bytes)},
        // The bias table and the Fixpipe buffer from the SoC file (the Ascend910B2 platform ini
        // has bt_size=1024, ../shared/SOC-FACTS.md); the cube tilings size their bias tiles by
        // bt_size, and divide by zero without it.
        {"AICoreSpec", "bt_size", s.bt_bytes ? num(s.bt_bytes) : std::string()},
        {"AICoreSpec", "fb_size", s.fb_bytes ? num(s.fb_bytes) : std::string()},
        {"AICoreSpec", "ubblock_size", "32"},
        {"AICoreSpec", "cube_m_size", "16"},
        {"AICoreSpec", "cube_n_size", "16"},
        {"AICoreSpec", "cube_k_size", "16"},
        // The intrinsics the separated-core SoCs (910B) have: Fixpipe out of L0C, moves into the bias table.
        {"AICoreintrinsicDtypeMap", "Intrinsic_fix_pipe_l0c2out", split_cores ? "float16,float32,bfloat16,int8,int32" : ""},
        {"AICoreintrinsicDtypeMap", "Intrinsic_data_move_l12bt", split_cores ? "float16,float32,bfloat16" : ""},
        {"AICoreintrinsicDtypeMap", "Intrinsic_fix_pipe_l0c2ub", ""},
        {"AICoreintrinsicDtypeMap", "Intrinsic_data_move_l0c2ub", split_cores ? "" : "float16,float32"},
    };
    for (const auto& e : entries)
        if (label == e.label && key == e.key) {
            if (e.value.empty()) return false;
            value = e.value;
            return true;
        }
    return false;
}

}  // namespace fe

namespace platform_ascendc {

enum class SocVersion : int32_t { ASCEND910 = 0, ASCEND910B, ASCEND310P, ASCEND310B, ASCEND910_93, ASCEND910_95, RESERVED_VERSION = 99999 };
enum class CoreMemType : int32_t { L0_A = 0, L0_B, L0_C, L1, L2, UB, HBM, RESERVED };

class PlatformAscendC {
public:
    explicit PlatformAscendC(const fe::PlatFormInfos* info) : m_info(info) {}
    uint32_t GetCoreNum() const { return soc().vector_cores; }
    uint32_t GetCoreNumAiv() const { return soc().vector_cores; }
    uint32_t GetCoreNumVector() const { return soc().vector_cores; }
    uint32_t GetCoreNumAic() const { return soc().cube_cores; }
    void GetCoreMemSize(CoreMemType type, uint64_t& size) const {
        switch (type) {
            case CoreMemType::UB: size = soc().ub_reported_bytes; break;  // less than the UB: see share/soc
            case CoreMemType::L1: size = soc().l1_bytes; break;
            case CoreMemType::L0_A: size = soc().l0a_bytes; break;
            case CoreMemType::L0_B: size = soc().l0b_bytes; break;
            case CoreMemType::L0_C: size = soc().l0c_bytes; break;
            case CoreMemType::L2: size = soc().l2_bytes; break;
            case CoreMemType::HBM: size = soc().hbm_bytes; break;
            default: size = 0;
        }
    }
    // Bytes per cycle of a memory's port: the SoC file's DMA rate for GM as it reports it (not
    // a sensitivity variant's), 0 for what the twin does not model.
    void GetCoreMemBw(CoreMemType type, uint64_t& bw) const {
        bw = type == CoreMemType::HBM || type == CoreMemType::L2 ? uint64_t(soc().timing.mte_reported_bytes_per_cycle) : 0;
    }
    SocVersion GetSocVersion() const { return static_cast<SocVersion>(soc().family); }
    uint32_t GetLibApiWorkSpaceSize() const { return ascendopt_twin::k_sys_workspace_bytes; }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        (void)aicCoreNum;
        return aivCoreNum == 0 ? sliceNum : (sliceNum < aivCoreNum ? sliceNum : aivCoreNum);
    }

private:
    const ascendopt_twin::SocSpec& soc() const { return m_info->soc(); }
    const fe::PlatFormInfos* m_info;
};

}  // namespace platform_ascendc
