// fe::PlatFormInfos and platform_ascendc::PlatformAscendC: what tiling code asks about the SoC.
#pragma once

#include <cstdint>

#include "ascendopt_twin/soc.h"

namespace fe {

class PlatFormInfos {
public:
    explicit PlatFormInfos(const ascendopt_twin::SocSpec* soc = nullptr) : m_soc(soc) {}
    const ascendopt_twin::SocSpec& soc() const { return *m_soc; }

private:
    const ascendopt_twin::SocSpec* m_soc;
};

}  // namespace fe

namespace platform_ascendc {

enum class SocVersion : int32_t { ASCEND910 = 0, ASCEND910B, ASCEND310P, ASCEND310B, ASCEND910_93, ASCEND910_95, RESERVED_VERSION = 99999 };
enum class CoreMemType : int32_t { L0_A = 0, L0_B, L0_C, L1, L2, UB, HBM, RESERVED };

class PlatformAscendC {
public:
    explicit PlatformAscendC(const fe::PlatFormInfos* info) : m_info(info) {}
    uint32_t GetCoreNum() const { return soc().vector_cores; }
    uint32_t GetCoreNumAiv() const { return soc().vector_cores; }
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
    SocVersion GetSocVersion() const { return static_cast<SocVersion>(soc().family); }
    uint32_t GetLibApiWorkSpaceSize() const { return 16u * 1024 * 1024; }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        (void)aicCoreNum;
        return aivCoreNum == 0 ? sliceNum : (sliceNum < aivCoreNum ? sliceNum : aivCoreNum);
    }

private:
    const ascendopt_twin::SocSpec& soc() const { return m_info->soc(); }
    const fe::PlatFormInfos* m_info;
};

}  // namespace platform_ascendc
