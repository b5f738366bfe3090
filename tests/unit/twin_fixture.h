// Test fixture that gives the test thread one twin core (910B2 UB) and a GM space, so that
// kernel APIs can be called directly. Errors throw TwinError (the default handler).
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "kernel_operator.h"
#include "test_soc.h"
#include "twin_rt.h"

namespace ascendopt_twin::testing {

class TwinCoreTest : public ::testing::Test {
protected:
    void SetUp() override {
        m_soc = &test_soc();
        m_gm = std::make_unique<GmSpace>(64u << 20);
        m_core = std::make_unique<CoreScope>(*m_soc, 0, 1, 0, m_gm.get());
    }
    // Replaces the core by one that fails UB accesses past their tensor's buffer (--strict-ub).
    void strict_ub() {
        m_core.reset();
        LaunchOptions options;
        options.strict_ub = true;
        m_core = std::make_unique<CoreScope>(*m_soc, 0, 1, 0, m_gm.get(), nullptr, options);
    }
    void TearDown() override {
        m_core.reset();
        m_gm.reset();
    }
    // A UB tensor of `n` elements at byte offset `offset` of the UB.
    template <class T>
    AscendC::LocalTensor<T> ub(uint32_t n, uint32_t offset = 0) {
        return AscendC::LocalTensor<T>(reinterpret_cast<T*>(ub_base() + offset), n);
    }
    // A GM buffer of `n` elements, its device address as a GlobalTensor, and its host memory.
    template <class T>
    AscendC::GlobalTensor<T> gm(uint64_t n, T** host = nullptr) {
        uint8_t* dev = m_gm->add("buf" + std::to_string(m_next++), n * sizeof(T));
        if (host) *host = reinterpret_cast<T*>(m_gm->host(dev));
        AscendC::GlobalTensor<T> g;
        g.SetGlobalBuffer(reinterpret_cast<T*>(dev), n);
        return g;
    }

    const SocSpec* m_soc = nullptr;
    std::unique_ptr<GmSpace> m_gm;
    std::unique_ptr<CoreScope> m_core;
    int m_next = 0;
};

// Expects `stmt` to fail with `kind` and a message containing `needle`.
#define EXPECT_TWIN_ERROR(stmt, kind_, needle)                                                      \
    do {                                                                                            \
        try {                                                                                       \
            stmt;                                                                                   \
            ADD_FAILURE() << "expected a twin error from " #stmt;                                   \
        } catch (const ::ascendopt_twin::TwinError& e) {                                            \
            EXPECT_EQ(e.kind, kind_) << e.what();                                                   \
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();           \
        }                                                                                           \
    } while (0)

}  // namespace ascendopt_twin::testing
