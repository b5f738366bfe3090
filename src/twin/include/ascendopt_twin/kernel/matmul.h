// The high-level Matmul API (lib/matmul_intf.h): MatmulImpl / Matmul and REGIST_MATMUL_OBJ.
// C (singleCoreM x singleCoreN) = A (M x K) x B (K x N) (+ a bias row), computed block by block
// (baseM x baseN) on the cube: half / bfloat16_t -> float, float -> float (HF32 only after
// SetHF32), int8_t -> int32_t; the result is converted to C's type on the way out.
//
// Execution (docs/twin.md "The Matmul API"): a Matmul object in vector code is a client of the
// AIC of its AI Core, as on the 910B. REGIST_MATMUL_OBJ registers the kernel's objects on every
// core; on an AIC whose block has AIVs it then serves their requests (cube_service_serve) and
// returns from the kernel when they have all returned. Each client call that needs the cube
// (Iterate, GetTensorC, IterateAll) runs on that AIC's thread with the AIC's counterpart object
// (same registration index), whose L1 / L0A / L0B / L0C / BT buffers come from the AIC's TPipe,
// so MTE2 / MTE1 / M / FIX time lands on the AIC's pipes; the AIV waits for it (its timeline
// joins the AIC's completion). A Matmul object used on an AIC (cube-only kernels, ASCEND_IS_AIC
// code) computes in place on that AIC.
#pragma once

#include "ascendopt_twin/attrs.h"

#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "ascendopt_twin/kernel/matmul_compute.h"
#include "ascendopt_twin/kernel/twin_vector.h"
#include "ascendopt_twin/kernel/pipe.h"

namespace ascendopt_twin::mm {

// The L0A, L0B, L0C and bias-table buffers the Matmul objects of one AIC compute in. The AIC runs
// one request at a time, so the objects one REGIST_MATMUL_OBJ registers take turns in one set
// (as on the device, where the Matmul API works in the AIC's L0 however many objects there
// are), sized at the first request for the largest base tiles among them. `buf` holds the
// pointers and capacities (its l1 is unused: each object keeps its own L1 tiles).
struct L0Area {
    AscendC::TBuf<AscendC::TPosition::A2> l0a;
    AscendC::TBuf<AscendC::TPosition::B2> l0b;
    AscendC::TBuf<AscendC::TPosition::CO1> l0c;
    AscendC::TBuf<AscendC::TPosition::C2> bt;
    bool ready = false;
    CubeBuffers buf;
};

// Bytes of L0A, L0B, L0C and bias table an object's base tiles need.
struct L0Needs {
    uint64_t a = 0, b = 0, c = 0, bt = 0;
};

// The registered objects of one REGIST_MATMUL_OBJ on an AIC: a client's request runs on the one
// with the client's index; `needs` sizes the shared L0 area, `attach` hands it to the objects
// while the AIC serves (the table lives as long as the serving does).
struct ServerTable {
    static constexpr uint32_t k_max = 16;
    void* objs[k_max] = {};
    L0Needs (*needs[k_max])(const void*) = {};
    void (*attach[k_max])(void*, ServerTable*) = {};
    uint32_t count = 0;
    L0Area area;
};

template <class T>
using acc_of = std::conditional_t<std::is_same_v<T, int8_t>, int32_t, float>;

template <class CFG>
ASCENDOPT_TWIN_FN constexpr const AscendC::MatmulConfig& config_of(const CFG& cfg) {
    if constexpr (std::is_same_v<CFG, AscendC::MatmulApiStaticTiling>) return cfg.cfg;
    else return cfg;
}

ASCENDOPT_TWIN_FN constexpr bool is_vector_position(AscendC::TPosition p) {
    return p == AscendC::TPosition::VECIN || p == AscendC::TPosition::VECOUT || p == AscendC::TPosition::VECCALC;
}

}  // namespace ascendopt_twin::mm

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, class... MATMUL_POLICY>
class MatmulImpl {
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    using Acc = ascendopt_twin::mm::acc_of<SrcAT>;
    using CfgType = std::decay_t<decltype(MM_CFG)>;
    static constexpr bool k_static = std::is_same_v<CfgType, MatmulApiStaticTiling>;
    static_assert(std::is_same_v<SrcAT, SrcBT> || (std::is_same_v<SrcAT, int8_t> && std::is_same_v<SrcBT, int8_t>),
                  "Matmul: A and B must have the same type (half, bfloat16_t, float or int8_t) in the twin");
    static constexpr bool k_copy_a1 = !std::is_same_v<std::decay_t<decltype(MM_CB::copy_a1)>, std::nullptr_t>;
    static constexpr bool k_copy_b1 = !std::is_same_v<std::decay_t<decltype(MM_CB::copy_b1)>, std::nullptr_t>;
    static_assert(std::is_same_v<std::decay_t<decltype(MM_CB::data_copy_out)>, std::nullptr_t>,
                  "Matmul: the DataCopyOut callback is not implemented in the twin (CopyA1 and CopyB1 are)");

public:
    MatmulImpl() = default;
    // A copy is a fresh object with the same settings (the block buffer is not shared).
    ASCENDOPT_TWIN_FN MatmulImpl(const MatmulImpl& o) { copy_settings(o); }
    ASCENDOPT_TWIN_FN MatmulImpl& operator=(const MatmulImpl& o) {
        if (this != &o) copy_settings(o);
        return *this;
    }
    ASCENDOPT_TWIN_FN ~MatmulImpl() { delete[] m_block; }

    // Takes the tiling (copied: later changes to the caller's struct do not reach the object)
    // and the TPipe the AIC-side buffers come from (null: the core's current TPipe).
    ASCENDOPT_TWIN_FN void Init(const TCubeTiling* tiling, TPipe* tpipe = nullptr) {
        if (tiling) m_tiling = *tiling;
        apply_static_tiling();
        m_pipe = tpipe;
        m_init = true;
        m_orgM = m_tiling.M;
        m_orgN = m_tiling.N;
        m_orgKa = m_tiling.Ka;
        m_orgKb = m_tiling.Kb;
        m_orgKc = 0;
        m_singleM = m_tiling.singleCoreM;
        m_singleN = m_tiling.singleCoreN;
        m_singleK = m_tiling.singleCoreK;
        const IterateOrder o = ascendopt_twin::mm::config_of(MM_CFG).iterateOrder;
        m_order = o == IterateOrder::UNDEF ? m_tiling.iterateOrder : int32_t(o);
        m_bias = {};
        m_bias_on = false;
        reset_iteration();
    }
    ASCENDOPT_TWIN_FN void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK, orgN); }
    // orgKc: the row length of C in GM when it differs from N (C is a slice of wider rows); 0
    // keeps N.
    ASCENDOPT_TWIN_FN void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
        m_orgKc = orgKc;
        m_orgM = orgM;
        m_orgN = orgN;
        m_orgKa = orgKa;
        m_orgKb = orgKb;
    }
    ASCENDOPT_TWIN_FN void SetSingleShape(int singleM, int singleN, int singleK) {
        m_singleM = singleM;
        m_singleN = singleN;
        m_singleK = singleK;
        reset_iteration();
    }
    // -1 keeps a dimension's single-core size.
    ASCENDOPT_TWIN_FN void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
        if (tailM > 0) m_singleM = tailM;
        if (tailN > 0) m_singleN = tailN;
        if (tailK > 0) m_singleK = tailK;
        reset_iteration();
    }
    ASCENDOPT_TWIN_FN void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false) {
        set_source(m_a, gm.address(), true, isTransposeA || A_TYPE::isTrans, A_TYPE::format);
    }
    ASCENDOPT_TWIN_FN void SetTensorA(const LocalTensor<SrcAT>& local, bool isTransposeA = false) {
        set_source(m_a, reinterpret_cast<uint64_t>(local.data()), false, isTransposeA || A_TYPE::isTrans, A_TYPE::format);
    }
    ASCENDOPT_TWIN_FN void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false) {
        set_source(m_b, gm.address(), true, isTransposeB || B_TYPE::isTrans, B_TYPE::format);
    }
    ASCENDOPT_TWIN_FN void SetTensorB(const LocalTensor<SrcBT>& local, bool isTransposeB = false) {
        set_source(m_b, reinterpret_cast<uint64_t>(local.data()), false, isTransposeB || B_TYPE::isTrans, B_TYPE::format);
    }
    ASCENDOPT_TWIN_FN void SetBias(const GlobalTensor<BiasT>& gm) {
        set_source(m_bias, gm.address(), true, false, CubeFormat::ND);
        m_bias_on = true;
    }
    ASCENDOPT_TWIN_FN void SetBias(const LocalTensor<BiasT>& local) {
        set_source(m_bias, reinterpret_cast<uint64_t>(local.data()), false, false, CubeFormat::ND);
        m_bias_on = true;
    }
    // The Fixpipe quantization of C (an int32 or float L0C into a half or int8 C): one word for
    // every column (SetQuantScalar), or a word per column of C from GM (SetQuantVector, the
    // single-core's first column at the tensor's start), decoded as Fixpipe's deqScalar.
    ASCENDOPT_TWIN_FN void SetQuantScalar(const uint64_t quantScalar) {
        m_quant = Quant::scalar;
        m_quant_scalar = quantScalar;
    }
    ASCENDOPT_TWIN_FN void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor) {
        m_quant = Quant::vector;
        m_quant_vector = quantTensor.address();
    }
    ASCENDOPT_TWIN_FN void DisableBias() { m_bias_on = false; }
    ASCENDOPT_TWIN_FN void ClearBias() { m_bias_on = false; }
    // UB / GM scratch the library may use (310P layouts): the twin needs none.
    ASCENDOPT_TWIN_FN void SetLocalWorkspace(const LocalTensor<uint8_t>& tmp) { (void)tmp; }
    // The GM the asynchronous Iterate<false>() writes every block of C to (GetTensorC() hands
    // them out). `size` counts elements of T; a GlobalTensor without a size has no limit the
    // twin can check (the GM accesses themselves still are).
    template <class T>
    ASCENDOPT_TWIN_FN void SetWorkspace(const GlobalTensor<T>& ws) {
        m_ws = ws.address();
        m_ws_bytes = ws.GetSize() * sizeof(T);
    }
    template <class T>
    ASCENDOPT_TWIN_FN void SetWorkspace(__gm__ const T* ws, int size) {
        m_ws = reinterpret_cast<uint64_t>(ws);
        m_ws_bytes = size > 0 ? uint64_t(size) * sizeof(T) : 0;
    }
    ASCENDOPT_TWIN_FN void SetSubBlockIdx(uint8_t idx) { m_sub_block = idx; }
    ASCENDOPT_TWIN_FN uint8_t GetSubBlockIdx() const { return m_sub_block; }
    // The two values handed to the CopyA1 / CopyB1 callbacks (tilingPtr and dataPtr).
    ASCENDOPT_TWIN_FN void SetUserDefInfo(uint64_t info) { m_user_info = info; }
    ASCENDOPT_TWIN_FN void SetSelfDefineData(uint64_t data) { m_self_data = data; }
    // HF32 for float inputs (transMode 1: round toward zero; documented as ignored on some SoCs).
    ASCENDOPT_TWIN_FN void SetHF32(bool enableHF32 = false, int32_t transMode = 0) {
        m_hf32 = enableHF32;
        (void)transMode;
    }

    // Computes the next baseM x baseN block of C in the order of iterateOrder (ORDER_M: along
    // M first); false when every block has been computed (the next call starts over).
    // Iterate<false>() (asynchronous, documented with SetWorkspace and GetTensorC()): one call
    // has the cube compute every block of the single-core C into the workspace while the core
    // goes on; each GetTensorC() then waits for the next block and returns where it lies.
    template <bool sync = true>
    ASCENDOPT_TWIN_FN bool Iterate(bool enPartialSum = false) {
        require_init("Matmul::Iterate");
        if (enPartialSum) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "Matmul::Iterate", "enPartialSum is not implemented in the twin");
        if constexpr (!sync) {
            start_async_iteration();
            return true;
        }
        if (!next_block()) {
            reset_iteration();
            return false;
        }
        run_on_cube(Op::compute, "Matmul::Iterate", sync);
        return true;
    }

    // The block of the last Iterate into a UB tensor: enSequentialWrite places it at the
    // tensor's start as baseM rows of baseN elements, otherwise at its place in a singleCoreM x
    // singleCoreN matrix whose rows are singleCoreN elements rounded up to 32 bytes.
    template <bool sync = true>
    ASCENDOPT_TWIN_FN void GetTensorC(const LocalTensor<DstT>& c, uint8_t enAtomic = 0, bool enSequentialWrite = false) {
        const char* api = "Matmul::GetTensorC";
        require_block(api);
        if (enAtomic != 0) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "enAtomic applies to GM destinations only");
        write_local(c, enSequentialWrite, api);
    }
    // The block of the last Iterate into GM: at its place in C (rows of the original N, or N
    // rounded up to 32 bytes for ND_ALIGN), or with enSequentialWrite at the tensor's start as
    // baseM rows of baseN elements; enAtomic: 0 none, 1 add, 2 max, 3 min.
    template <bool sync = true>
    ASCENDOPT_TWIN_FN void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false) {
        const char* api = "Matmul::GetTensorC";
        require_block(api);
        set_gm_target(gm, enAtomic, enSequentialWrite);
        run_on_cube(Op::write_gm, api, true);
    }
    // The next block of an asynchronous Iterate<false>() in the workspace, once the cube has
    // written it: bm x bn elements, rows of the block's own width (bn), in iterateOrder.
    template <bool sync = true>
    ASCENDOPT_TWIN_FN GlobalTensor<DstT> GetTensorC(uint8_t enAtomic = 0, bool enSequentialWrite = false) {
        const char* api = "Matmul::GetTensorC";
        if (enAtomic != 0 || enSequentialWrite)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "enAtomic and enSequentialWrite do not apply to the workspace form");
        if (m_async_ready.empty())
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api,
                                 "GetTensorC() without a destination returns a block of the asynchronous Iterate<false>(): call SetWorkspace and Iterate<false>() first");
        if (!next_block())
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api,
                                 "more GetTensorC() calls than blocks: the single-core C has " + std::to_string(m_async_ready.size()) + " blocks");
        ascendopt_twin::cube_wait_until(m_async_ready[size_t(m_cursor)], "matmul_wait");
        const ascendopt_twin::mm::BlockJob j = job();
        GlobalTensor<DstT> out;
        out.SetGlobalBuffer(reinterpret_cast<DstT*>(m_ws + async_block_offset(j) * sizeof(DstT)), j.bm * j.bn);
        return out;
    }
    template <bool sync = true>
    ASCENDOPT_TWIN_FN void GetTensorC(const GlobalTensor<DstT>& gm, const LocalTensor<DstT>& c, uint8_t enAtomic = 0,
                                      bool enSequentialWrite = false) {
        GetTensorC<sync>(gm, enAtomic, enSequentialWrite);
        GetTensorC<sync>(c, 0, enSequentialWrite);
    }

    // The whole singleCoreM x singleCoreN C into GM at its place (rows of the original N):
    // one request to the AIC, which computes and writes every block. With sync = false the
    // core goes on and WaitIterateAll (or the next Matmul call that needs the result) waits.
    template <bool sync = true>
    ASCENDOPT_TWIN_FN void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                                      bool waitIterateAll = false, bool fakeMsg = false) {
        (void)fakeMsg;
        require_init("Matmul::IterateAll");
        if (enSequentialWrite)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "Matmul::IterateAll", "enSequentialWrite is not implemented for IterateAll in the twin");
        m_target = gm.address();
        m_target_atomic = enAtomic;
        reset_iteration();
        run_on_cube(Op::iterate_all_gm, "Matmul::IterateAll", sync || waitIterateAll);
        reset_iteration();
    }
    // Batched matmul (LayoutMode NORMAL: each batch's matrices stored one after another):
    // max(batchA, batchB) products, A_i at A + (i mod batchA) * matrixStrideA elements, B_i at B +
    // (i mod batchB) * matrixStrideB, C_i written whole at C + i * matrixStrideC, as IterateAll
    // writes one. A stride of 0 is one stored matrix (A: its rows x row length, NZ padded to
    // fractals; C: singleCoreM rows of C). Partial sums and sequential writes are not modelled.
    ASCENDOPT_TWIN_FN void SetBatchNum(int32_t batchA, int32_t batchB) {
        m_batchA = batchA;
        m_batchB = batchB;
    }
    template <bool sync = true, bool waitIterateBatch = false>
    ASCENDOPT_TWIN_FN void IterateBatch(const GlobalTensor<DstT>& gm, bool enPartialSum, uint8_t enAtomic, bool enSequentialWrite,
                                        const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0) {
        const char* api = "Matmul::IterateBatch";
        require_init(api);
        if (enPartialSum || enSequentialWrite)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "enPartialSum and enSequentialWrite are not implemented in the twin");
        const int32_t batches = std::max(m_batchA, m_batchB);
        if (m_batchA <= 0 || m_batchB <= 0 || batches % m_batchA != 0 || batches % m_batchB != 0)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api,
                                 "batch counts " + std::to_string(m_batchA) + " and " + std::to_string(m_batchB) +
                                     " (SetBatchNum): each must be positive and divide the larger");
        const ascendopt_twin::mm::BlockJob j = job();
        const uint64_t strideA = matrixStrideA ? matrixStrideA : stored_elems<SrcAT>(j.a);
        const uint64_t strideB = matrixStrideB ? matrixStrideB : stored_elems<SrcBT>(j.b);
        const uint64_t strideC = matrixStrideC ? matrixStrideC : c_row_elems() * uint64_t(m_singleM);
        const ascendopt_twin::mm::Source a0 = m_a, b0 = m_b;
        for (int32_t i = 0; i < batches; ++i) {
            m_a.addr = a0.addr + uint64_t(i % m_batchA) * strideA * sizeof(SrcAT);
            m_b.addr = b0.addr + uint64_t(i % m_batchB) * strideB * sizeof(SrcBT);
            m_target = gm.address() + uint64_t(i) * strideC * sizeof(DstT);
            m_target_atomic = enAtomic;
            reset_iteration();
            run_on_cube(Op::iterate_all_gm, api, sync || waitIterateBatch);
        }
        m_a = a0;
        m_b = b0;
        reset_iteration();
    }
    ASCENDOPT_TWIN_FN void WaitIterateBatch() { WaitIterateAll(); }
    // The whole C into a UB tensor, rows singleCoreN elements rounded up to 32 bytes.
    template <bool sync = true>
    ASCENDOPT_TWIN_FN void IterateAll(const LocalTensor<DstT>& ub, uint8_t enAtomic = 0) {
        reset_iteration();
        while (Iterate<true>()) GetTensorC<true>(ub, enAtomic, false);
    }
    ASCENDOPT_TWIN_FN void WaitIterateAll() { ascendopt_twin::cube_wait_until(m_pending_done, "matmul_wait"); }
    ASCENDOPT_TWIN_FN void WaitGetTensorC() { WaitIterateAll(); }
    // Ends the object's use; later pending work is waited for.
    ASCENDOPT_TWIN_FN void End() {
        WaitIterateAll();
        reset_iteration();
        m_async_ready.clear();
    }

    // --- twin internals (REGIST_MATMUL_OBJ and the AIC side) ---------------------------------
    ASCENDOPT_TWIN_FN void ascendopt_register(uint32_t index, TPipe* pipe) {
        m_index = int32_t(index);
        if (!m_pipe) m_pipe = pipe;
    }
    // The L0 bytes this object's base tiles need (zero before it has a tiling).
    ASCENDOPT_TWIN_FN static ascendopt_twin::mm::L0Needs ascendopt_needs(const void* obj) {
        const auto& o = *static_cast<const MatmulImpl*>(obj);
        const TCubeTiling& t = o.m_tiling;
        return o.m_init && t.baseM > 0 && t.baseN > 0 && t.baseK > 0 ? l0_needs(t) : ascendopt_twin::mm::L0Needs{};
    }
    ASCENDOPT_TWIN_FN static void ascendopt_attach(void* obj, ascendopt_twin::mm::ServerTable* table) {
        static_cast<MatmulImpl*>(obj)->m_table = table;
    }
    ASCENDOPT_TWIN_FN static void ascendopt_serve(void* ctx, void* server) {
        auto& client = *static_cast<MatmulImpl*>(ctx);
        auto& table = *static_cast<ascendopt_twin::mm::ServerTable*>(server);
        if (client.m_index < 0 || uint32_t(client.m_index) >= table.count)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, client.m_api,
                                 "the object was not registered with REGIST_MATMUL_OBJ on this AI Core, so its AIC has no counterpart to run it");
        static_cast<MatmulImpl*>(table.objs[client.m_index])->execute(client);
    }

private:
    enum class Op : uint8_t { compute, write_gm, stage_ub, iterate_all_gm, iterate_all_workspace };
    enum class Quant : uint8_t { none, scalar, vector };

    // The Fixpipe conversion of one block under SetQuantScalar / SetQuantVector: its words for the
    // block's columns (read from GM for the vector form).
    struct OutputQuant {
        bool on = false;
        ascendopt_twin::cube::FixJob fix;
        ascendopt_twin::TwinVector<uint64_t> words;
        ASCENDOPT_TWIN_FN const ascendopt_twin::cube::FixJob* job() const { return on ? &fix : nullptr; }
    };
    ASCENDOPT_TWIN_FN OutputQuant output_quant(const ascendopt_twin::mm::BlockJob& j) const {
        OutputQuant q;
        if (m_quant == Quant::none) return q;
        const bool per_column = m_quant == Quant::vector;
        q.fix.quant = ascendopt_twin::mm::output_quant_mode<DstT, Acc>(per_column);
        if (q.fix.quant == AscendC::QuantMode_t::NoQuant)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, per_column ? "Matmul::SetQuantVector" : "Matmul::SetQuantScalar",
                                 "this Matmul's L0C type and C type have no quantizing conversion (int32 -> half, int32 -> int8/uint8, float -> "
                                 "int8/uint8)");
        q.on = true;
        if (per_column) {
            q.words.resize(j.bn);
            const uint64_t at = m_quant_vector + j.n0 * sizeof(uint64_t);
            ascendopt_twin::raw_copy(q.words.data(), ascendopt_twin::gm_translate(at, j.bn * sizeof(uint64_t), false, "Matmul::SetQuantVector"),
                        j.bn * sizeof(uint64_t));
            q.fix.table = q.words.data();
        } else {
            q.fix.scalar = m_quant_scalar;
        }
        return q;
    }

    // Iterate<false>(): the whole single-core C into the workspace, one request to the AIC.
    ASCENDOPT_TWIN_FN void start_async_iteration() {
        const char* api = "Matmul::Iterate<false>";
        if (m_ws == 0)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api,
                                 "the asynchronous Iterate needs SetWorkspace first: the cube writes every block of C there");
        const uint64_t need = uint64_t(m_singleM) * uint64_t(m_singleN) * sizeof(DstT);
        if (m_ws_bytes != 0 && need > m_ws_bytes)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api,
                                 "the single-core C (" + std::to_string(m_singleM) + " x " + std::to_string(m_singleN) + ", " +
                                     std::to_string(need) + " bytes) does not fit the " + std::to_string(m_ws_bytes) + "-byte workspace SetWorkspace gave");
        WaitIterateAll();
        reset_iteration();
        m_async_ready.assign(size_t(m_iters() * n_iters()), 0.0);
        run_on_cube(Op::iterate_all_workspace, api, false);
        reset_iteration();
    }
    // Where a block lies in the workspace: the blocks tile the singleM x singleN area, each
    // stored whole (bm rows of bn), block rows one after another.
    ASCENDOPT_TWIN_FN uint64_t async_block_offset(const ascendopt_twin::mm::BlockJob& j) const {
        return j.m0 * uint64_t(m_singleN) + j.n0 * j.bm;
    }

    ASCENDOPT_TWIN_FN void copy_settings(const MatmulImpl& o) {
        m_tiling = o.m_tiling;
        m_pipe = o.m_pipe;
        m_init = o.m_init;
        m_orgM = o.m_orgM, m_orgN = o.m_orgN, m_orgKa = o.m_orgKa, m_orgKb = o.m_orgKb, m_orgKc = o.m_orgKc;
        m_singleM = o.m_singleM, m_singleN = o.m_singleN, m_singleK = o.m_singleK;
        m_order = o.m_order;
        m_a = o.m_a, m_b = o.m_b, m_bias = o.m_bias;
        m_bias_on = o.m_bias_on;
        m_hf32 = o.m_hf32;
        m_index = o.m_index;
        m_user_info = o.m_user_info;
        m_self_data = o.m_self_data;
        m_ws = o.m_ws, m_ws_bytes = o.m_ws_bytes;
        m_quant = o.m_quant, m_quant_scalar = o.m_quant_scalar, m_quant_vector = o.m_quant_vector;
    }
    // The block buffer for the client's base block (host memory: L0C's copy on the device).
    ASCENDOPT_TWIN_FN Acc* block_buffer() {
        const uint64_t n = uint64_t(m_tiling.baseM) * uint64_t(m_tiling.baseN);
        if (n > m_block_cap) {
            delete[] m_block;
            m_block = new Acc[n];
            m_block_cap = n;
        }
        return m_block;
    }

    ASCENDOPT_TWIN_FN void apply_static_tiling() {
        if constexpr (k_static) {
            const MatmulApiStaticTiling& s = MM_CFG;
            auto take = [](int32_t& field, int32_t v) {
                if (v > 0) field = v;
            };
            take(m_tiling.singleCoreM, s.singleCoreM);
            take(m_tiling.singleCoreN, s.singleCoreN);
            take(m_tiling.singleCoreK, s.singleCoreK);
            take(m_tiling.baseM, s.baseM);
            take(m_tiling.baseN, s.baseN);
            take(m_tiling.baseK, s.baseK);
            take(m_tiling.M, s.M);
            take(m_tiling.N, s.N);
            take(m_tiling.Ka, s.Ka);
            take(m_tiling.Kb, s.Kb);
        }
    }
    ASCENDOPT_TWIN_FN void require_init(const char* api) const {
        if (!m_init) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "the Matmul object has no tiling (REGIST_MATMUL_OBJ with a tiling, or Init)");
        if (m_tiling.baseM <= 0 || m_tiling.baseN <= 0 || m_tiling.baseK <= 0)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api,
                                 "the tiling's baseM, baseN, baseK are " + std::to_string(m_tiling.baseM) + ", " + std::to_string(m_tiling.baseN) +
                                     ", " + std::to_string(m_tiling.baseK) + "; each must be positive");
        if (!m_a.set || !m_b.set) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "SetTensorA and SetTensorB must come first");
        if (m_singleM <= 0 || m_singleN <= 0 || m_singleK < 0)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api,
                                 "single-core shape " + std::to_string(m_singleM) + " x " + std::to_string(m_singleN) + " x " +
                                     std::to_string(m_singleK) + " is empty");
    }
    ASCENDOPT_TWIN_FN void require_block(const char* api) const {
        if (!m_have_block) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "no block: call Iterate first (and only while it returns true)");
    }
    ASCENDOPT_TWIN_FN void set_source(ascendopt_twin::mm::Source& s, uint64_t addr, bool gm, bool trans, CubeFormat f) {
        if (f != CubeFormat::ND && f != CubeFormat::NZ)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "Matmul::SetTensor", "input formats are ND or NZ in the twin");
        s.set = true;
        s.gm = gm;
        s.addr = addr;
        s.trans = trans;
        s.nz = f == CubeFormat::NZ;
        reset_iteration();
    }
    ASCENDOPT_TWIN_FN void reset_iteration() {
        m_cursor = -1;
        m_have_block = false;
    }
    ASCENDOPT_TWIN_FN int64_t m_iters() const { return (m_singleM + m_tiling.baseM - 1) / m_tiling.baseM; }
    ASCENDOPT_TWIN_FN int64_t n_iters() const { return (m_singleN + m_tiling.baseN - 1) / m_tiling.baseN; }
    // Advances to the next block; false past the last.
    ASCENDOPT_TWIN_FN bool next_block() {
        const int64_t mi = m_iters(), ni = n_iters();
        if (++m_cursor >= mi * ni) return false;
        select_block(m_cursor);
        return true;
    }
    ASCENDOPT_TWIN_FN void select_block(int64_t cursor) {
        const int64_t mi = m_iters(), ni = n_iters();
        m_mIdx = m_order == 1 ? cursor / ni : cursor % mi;
        m_nIdx = m_order == 1 ? cursor % ni : cursor / mi;
        m_have_block = true;
    }
    // The block computation of the current block, with the operands' stored shapes.
    ASCENDOPT_TWIN_FN ascendopt_twin::mm::BlockJob job() const {
        ascendopt_twin::mm::BlockJob j;
        j.a = m_a;
        j.a.rows = uint64_t(m_a.trans ? m_orgKa : m_orgM);
        j.a.ld = uint64_t(m_a.trans ? m_orgM : m_orgKa);
        j.b = m_b;
        j.b.rows = uint64_t(m_b.trans ? m_orgN : m_orgKb);
        j.b.ld = uint64_t(m_b.trans ? m_orgKb : m_orgN);
        j.bias = m_bias;
        j.bias.rows = 1;
        j.bias.ld = uint64_t(m_orgN);
        j.bias_on = m_bias_on;
        j.hf32 = m_hf32;
        j.m0 = uint64_t(m_mIdx) * m_tiling.baseM;
        j.n0 = uint64_t(m_nIdx) * m_tiling.baseN;
        j.bm = uint64_t(std::min<int64_t>(m_tiling.baseM, m_singleM - int64_t(j.m0)));
        j.bn = uint64_t(std::min<int64_t>(m_tiling.baseN, m_singleN - int64_t(j.n0)));
        j.k = uint64_t(m_singleK);
        j.base_k = uint64_t(m_tiling.baseK);
        return j;
    }
    // Elements of one stored operand matrix: rows x row length (ND), or whole fractals (NZ).
    template <class T>
    ASCENDOPT_TWIN_FN static uint64_t stored_elems(const ascendopt_twin::mm::Source& s) {
        if (!s.nz) return s.rows * s.ld;
        constexpr uint64_t c0 = ascendopt_twin::cube::c0<T>();
        return ascendopt_twin::mm::align_up(s.rows, 16) * ascendopt_twin::mm::align_up(s.ld, c0);
    }
    ASCENDOPT_TWIN_FN uint64_t c_row_elems() const {
        const uint64_t n = uint64_t(m_orgKc > 0 ? m_orgKc : m_orgN);
        if constexpr (C_TYPE::format == CubeFormat::ND_ALIGN) return ascendopt_twin::mm::align_up(n, 32 / sizeof(DstT));
        else return n;
    }
    ASCENDOPT_TWIN_FN void set_gm_target(const GlobalTensor<DstT>& gm, uint8_t enAtomic, bool sequential) {
        if constexpr (C_TYPE::format != CubeFormat::ND && C_TYPE::format != CubeFormat::ND_ALIGN)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, "Matmul::GetTensorC", "C in NZ format is not implemented in the twin");
        const ascendopt_twin::mm::BlockJob j = job();
        m_target_atomic = enAtomic;
        if (sequential) {
            m_target = gm.address();
            m_target_ld = uint64_t(m_tiling.baseN);
        } else {
            m_target_ld = c_row_elems();
            m_target = gm.address() + (j.m0 * m_target_ld + j.n0) * sizeof(DstT);
        }
    }
    // Runs `op` on the cube: in place on an AIC, else on the block's AIC through the service.
    ASCENDOPT_TWIN_FN void run_on_cube(Op op, const char* api, bool join) {
        m_op = op;
        m_api = api;
        if (ascendopt_twin::core_kind() == ascendopt_twin::CoreKind::aic) {
            execute(*this);
            return;
        }
        const double done = ascendopt_twin::cube_service_call(&MatmulImpl::ascendopt_serve, this, api);
        m_pending_done = std::max(m_pending_done, done);
        if (join) ascendopt_twin::cube_wait_until(done, "matmul_wait");
    }
    // On the AIC: this object's buffers, the client's state.
    ASCENDOPT_TWIN_FN void execute(MatmulImpl& client) {
        namespace mm = ascendopt_twin::mm;
        ensure_buffers(client);
        switch (client.m_op) {
            case Op::compute:
                mm::compute_block<SrcAT, SrcBT, Acc, BiasT>(with_callbacks(client, client.job()), m_buf, client.block_buffer(), client.m_api);
                break;
            case Op::write_gm: {
                const mm::BlockJob j = client.job();
                const OutputQuant q = client.output_quant(j);
                mm::write_block_gm<DstT>(client.m_block, j.bm, j.bn, client.m_target, client.m_target_ld, client.m_target_atomic, m_buf, client.m_api,
                                         q.job());
                break;
            }
            case Op::stage_ub: {
                // The block leaves L0C for the GM workspace the AIV reads it from.
                const mm::BlockJob j = client.job();
                const uint64_t bytes = j.bm * j.bn * sizeof(DstT);
                ascendopt_twin::order_internal_steps();  // the library orders its own steps
                ascendopt_twin::account_cube(ascendopt_twin::PipeId::FIX, "Matmul:Fixpipe(workspace)",
                                             double(j.bm * j.bn * sizeof(Acc)) / ascendopt_twin::cube_timing().fix_bytes_per_cycle, bytes,
                                             {nullptr, m_buf.l0c}, bytes);
                break;
            }
            case Op::iterate_all_workspace:
                while (client.next_block()) {
                    const mm::BlockJob j = with_callbacks(client, client.job());
                    mm::compute_block<SrcAT, SrcBT, Acc, BiasT>(j, m_buf, client.block_buffer(), client.m_api);
                    const OutputQuant q = client.output_quant(j);
                    mm::write_block_gm<DstT>(client.m_block, j.bm, j.bn, client.m_ws + client.async_block_offset(j) * sizeof(DstT), j.bn, 0, m_buf,
                                             client.m_api, q.job());
                    client.m_async_ready[size_t(client.m_cursor)] = ascendopt_twin::pipe_visible_time(ascendopt_twin::PipeId::FIX);
                }
                break;
            case Op::iterate_all_gm: {
                const uint64_t ld = client.c_row_elems();
                const uint64_t base = client.m_target;
                while (client.next_block()) {
                    const mm::BlockJob j = with_callbacks(client, client.job());
                    mm::compute_block<SrcAT, SrcBT, Acc, BiasT>(j, m_buf, client.block_buffer(), client.m_api);
                    const OutputQuant q = client.output_quant(j);
                    mm::write_block_gm<DstT>(client.m_block, j.bm, j.bn, base + (j.m0 * ld + j.n0) * sizeof(DstT), ld, client.m_target_atomic, m_buf,
                                             client.m_api, q.job());
                }
                break;
            }
        }
    }
    // With a CopyA1 / CopyB1 callback the operand reaches the cube from the L1 tile the user's
    // callback fills, not from its source: the stored (transposed or not) single-core operand in
    // NZ, rows padded to 16, C0 columns per fractal (the layout Nd2Nz DataCopy writes). The twin
    // models one L1 tile per operand: the callback runs before every block with row = col = 0
    // and the whole single-core shape (useM/useK or useK/useN), and may leave the tile as it was
    // (a kernel that loads once and keeps it, as "full load" kernels do). An operand larger than
    // the tiling's L1 step (stepM * baseM x stepKa * baseK, stepKb * baseK x stepN * baseN) would
    // need several tiles, which the twin refuses.
    ASCENDOPT_TWIN_FN ascendopt_twin::mm::BlockJob with_callbacks(const MatmulImpl& client, ascendopt_twin::mm::BlockJob j) {
        if constexpr (k_copy_a1) {
            j.a = l1_tile<SrcAT>(client, client.m_a, uint64_t(client.m_singleM), uint64_t(client.m_singleK),
                                 uint64_t(client.m_tiling.stepM) * client.m_tiling.baseM, uint64_t(client.m_tiling.stepKa) * client.m_tiling.baseK,
                                 m_l1_a, m_l1_a_bytes, "CopyA1", [&](const LocalTensor<int8_t>& l1, const void* gm) {
                                     MM_CB::copy_a1(l1, gm, 0, 0, int(client.m_singleM), int(client.m_singleK), client.m_user_info, client.m_self_data);
                                 });
            j.a_row0 = 0;
        }
        if constexpr (k_copy_b1) {
            j.b = l1_tile<SrcBT>(client, client.m_b, uint64_t(client.m_singleK), uint64_t(client.m_singleN),
                                 uint64_t(client.m_tiling.stepKb) * client.m_tiling.baseK, uint64_t(client.m_tiling.stepN) * client.m_tiling.baseN,
                                 m_l1_b, m_l1_b_bytes, "CopyB1", [&](const LocalTensor<int8_t>& l1, const void* gm) {
                                     MM_CB::copy_b1(l1, gm, 0, 0, int(client.m_singleK), int(client.m_singleN), client.m_user_info, client.m_self_data);
                                 });
            j.b_col0 = 0;
        }
        return j;
    }
    // The L1 tile of an operand whose logical shape is rows x cols (A: M x K, B: K x N), filled
    // by `call`; `buf` / `bytes` are this object's L1 tile buffer for the operand.
    template <class T, class Buf, class Call>
    ASCENDOPT_TWIN_FN ascendopt_twin::mm::Source l1_tile(const MatmulImpl& client, const ascendopt_twin::mm::Source& src, uint64_t rows,
                                                         uint64_t cols, uint64_t step_rows, uint64_t step_cols, Buf& buf, uint64_t& bytes,
                                                         const char* hook, Call call) {
        namespace mm = ascendopt_twin::mm;
        if (rows > step_rows || cols > step_cols)
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, client.m_api,
                                 std::string("a ") + hook + " callback on a " + std::to_string(rows) + " x " + std::to_string(cols) +
                                     " operand that the tiling's L1 step (" + std::to_string(step_rows) + " x " + std::to_string(step_cols) +
                                     ") splits into several L1 tiles: the twin models callbacks with one L1 tile per operand");
        const uint64_t stored_rows = src.trans ? cols : rows, stored_cols = src.trans ? rows : cols;
        constexpr uint64_t c0 = ascendopt_twin::cube::c0<T>();
        const uint64_t need = mm::align_up(stored_rows, 16) * mm::align_up(stored_cols, c0) * sizeof(T);
        if (bytes == 0) {
            aic_pipe(client.m_api)->InitBuffer(buf, uint32_t(need));
            bytes = need;
        } else if (need > bytes) {
            ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, client.m_api,
                                 std::string(hook) + ": the operand's L1 tile grew from " + std::to_string(bytes) + " to " + std::to_string(need) +
                                     " bytes between calls; the twin sets the tile aside once, at its first size");
        }
        LocalTensor<int8_t> l1 = buf.template Get<int8_t>();
        call(l1, reinterpret_cast<const void*>(src.addr));
        mm::Source tile;
        tile.set = true;
        tile.gm = false;
        tile.addr = reinterpret_cast<uint64_t>(l1.data());
        tile.trans = src.trans;
        tile.nz = true;
        tile.rows = stored_rows;
        tile.in_l1 = true;
        return tile;
    }
    // The TPipe the AIC-side buffers come from: the object's, else the core's current one.
    ASCENDOPT_TWIN_FN TPipe* aic_pipe(const char* api) const {
        TPipe* pipe = m_pipe ? m_pipe : static_cast<TPipe*>(ascendopt_twin::current_pipe());
        if (!pipe) ascendopt_twin::fail(ascendopt_twin::ErrorKind::run_failed, api, "no TPipe on the AIC to take the Matmul buffers from");
        return pipe;
    }
    // L0A, L0B, L0C and bias-table bytes of `t`'s base tiles.
    ASCENDOPT_TWIN_FN static ascendopt_twin::mm::L0Needs l0_needs(const TCubeTiling& t) {
        ascendopt_twin::mm::L0Needs n;
        ascendopt_twin::mm::buffer_bytes<SrcAT, SrcBT, Acc>(uint64_t(t.baseM), uint64_t(t.baseN), uint64_t(t.baseK), n.a, n.b, n.c, n.bt);
        return n;
    }
    // This object's L1 tiles (its own, sized at its first request) and the L0 area it computes
    // in: the one the AIC's registered objects share while it serves, else the object's own.
    ASCENDOPT_TWIN_FN void ensure_buffers(const MatmulImpl& client) {
        namespace mm = ascendopt_twin::mm;
        mm::L0Needs need = l0_needs(client.m_tiling);
        if (!m_buffers_ready) {
            aic_pipe(client.m_api)->InitBuffer(m_l1, uint32_t(need.a + need.b + mm::align_up(need.bt, 32)));
            m_buffers_ready = true;
        }
        mm::L0Area& area = m_table ? m_table->area : m_own_l0;
        if (!area.ready) {
            if (m_table)
                for (uint32_t i = 0; i < m_table->count; ++i) {
                    const mm::L0Needs n = m_table->needs[i](m_table->objs[i]);
                    need = {std::max(need.a, n.a), std::max(need.b, n.b), std::max(need.c, n.c), std::max(need.bt, n.bt)};
                }
            set_aside_l0(client.m_api, area, need);
        }
        m_buf = area.buf;
        m_buf.l1 = m_l1.template Get<uint8_t>().data();
    }
    ASCENDOPT_TWIN_FN void set_aside_l0(const char* api, ascendopt_twin::mm::L0Area& area, const ascendopt_twin::mm::L0Needs& need) {
        namespace mm = ascendopt_twin::mm;
        TPipe* pipe = aic_pipe(api);
        const uint64_t bt_size = ascendopt_twin::mem_size(ascendopt_twin::Mem::BT);
        pipe->InitBuffer(area.l0a, uint32_t(need.a + 512));
        pipe->InitBuffer(area.l0b, uint32_t(need.b + 512));
        pipe->InitBuffer(area.l0c, uint32_t(need.c + 1024));
        pipe->InitBuffer(area.bt, uint32_t(std::min<uint64_t>(need.bt + 64, bt_size)));
        auto aligned = [](uint8_t* p, uint64_t align) {
            return reinterpret_cast<uint8_t*>(mm::align_up(reinterpret_cast<uint64_t>(p), align));
        };
        area.buf.l0a = aligned(area.l0a.template Get<uint8_t>().data(), 512);
        area.buf.l0b = aligned(area.l0b.template Get<uint8_t>().data(), 512);
        area.buf.l0c = aligned(area.l0c.template Get<uint8_t>().data(), 1024);
        uint8_t* btp = area.bt.template Get<uint8_t>().data();
        area.buf.bt = aligned(btp, 64);
        area.buf.l0a_bytes = need.a;
        area.buf.l0b_bytes = need.b;
        area.buf.l0c_bytes = need.c;
        area.buf.bt_bytes = std::min<uint64_t>(need.bt, bt_size - std::min<uint64_t>(bt_size, uint64_t(area.buf.bt - btp)));
        area.ready = true;
    }
    // GetTensorC into a local tensor: on an AIV through the AIC's workspace (FIX there, MTE2
    // here); on an AIC straight from L0C (FIX).
    ASCENDOPT_TWIN_FN void write_local(const LocalTensor<DstT>& c, bool sequential, const char* api) {
        namespace mm = ascendopt_twin::mm;
        const mm::BlockJob j = job();
        const uint64_t ld = sequential ? uint64_t(m_tiling.baseN) : mm::align_up(uint64_t(m_singleN), 32 / sizeof(DstT));
        const uint64_t first = sequential ? 0 : j.m0 * ld + j.n0;
        run_on_cube(Op::stage_ub, api, true);
        const uint64_t span = (first + (j.bm - 1) * ld + j.bn) * sizeof(DstT);
        ascendopt_twin::check_ub_access(api, "destination", c.data(), span, uint64_t(c.extent()) * sizeof(DstT));
        DstT* d = c.data() + first;
        const OutputQuant q = output_quant(j);
        for (uint64_t i = 0; i < j.bm; ++i)
            for (uint64_t x = 0; x < j.bn; ++x) d[i * ld + x] = mm::convert_block_out<DstT>(m_block[i * j.bn + x], x, q.job());
        if (ascendopt_twin::core_kind() == ascendopt_twin::CoreKind::aiv) {
            // The library orders its own steps: the copy follows what came before, and what the
            // kernel does with the block after GetTensorC follows the copy.
            ascendopt_twin::order_internal_steps();
            ascendopt_twin::account_copy(ascendopt_twin::PipeId::MTE2, "Matmul:CopyOut(UB)", j.bm * mm::align_up(j.bn * sizeof(DstT), 32),
                                         uint32_t(j.bm), c.data());
            ascendopt_twin::order_internal_steps();
        }
    }

    TCubeTiling m_tiling{};
    TPipe* m_pipe = nullptr;
    bool m_init = false;
    int64_t m_orgM = 0, m_orgN = 0, m_orgKa = 0, m_orgKb = 0, m_orgKc = 0;
    int64_t m_singleM = 0, m_singleN = 0, m_singleK = 0;
    int32_t m_order = 0;
    ascendopt_twin::mm::Source m_a, m_b, m_bias;
    bool m_bias_on = false;
    bool m_hf32 = false;
    uint8_t m_sub_block = 0;
    uint64_t m_user_info = 0;
    uint64_t m_self_data = 0;
    int32_t m_batchA = 0, m_batchB = 0;
    int64_t m_cursor = -1;
    int64_t m_mIdx = 0, m_nIdx = 0;
    bool m_have_block = false;
    Acc* m_block = nullptr;  // the last computed block (bm x bn), as L0C holds it on the device
    uint64_t m_block_cap = 0;
    // The request in flight.
    Op m_op = Op::compute;
    const char* m_api = "Matmul";
    uint64_t m_target = 0, m_target_ld = 0;
    uint8_t m_target_atomic = 0;
    double m_pending_done = 0;
    int32_t m_index = -1;
    uint64_t m_ws = 0, m_ws_bytes = 0;  // SetWorkspace
    Quant m_quant = Quant::none;        // SetQuantScalar / SetQuantVector
    uint64_t m_quant_scalar = 0, m_quant_vector = 0;
    ascendopt_twin::TwinVector<double> m_async_ready;  // per block of an asynchronous Iterate: when it is in GM
    // AIC side.
    bool m_buffers_ready = false;
    TBuf<TPosition::A1> m_l1;
    ascendopt_twin::mm::L0Area m_own_l0;                // in-place use (no serving AIC)
    ascendopt_twin::mm::ServerTable* m_table = nullptr;  // while the AIC serves
    TBuf<TPosition::A1> m_l1_a;  // the CopyA1 / CopyB1 callbacks' L1 tiles
    TBuf<TPosition::B1> m_l1_b;
    uint64_t m_l1_a_bytes = 0, m_l1_b_bytes = 0;
    ascendopt_twin::mm::CubeBuffers m_buf;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>, class... MATMUL_POLICY>
using Matmul = MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY...>;

}  // namespace AscendC

namespace ascendopt_twin::mm {

// REGIST_MATMUL_OBJ's arguments after the workspace: objects, each optionally followed by its
// tiling (a TCubeTiling pointer, or nullptr).
ASCENDOPT_TWIN_FN inline void register_objects(ServerTable&, AscendC::TPipe*) {}

template <class Obj, class... Rest>
ASCENDOPT_TWIN_FN void register_objects(ServerTable& table, AscendC::TPipe* pipe, Obj& obj, Rest&&... rest);

// Whether the first of `Rest` is a tiling (a pointer or nullptr) rather than the next object.
template <class... Rest>
constexpr bool next_is_tiling() {
    if constexpr (sizeof...(Rest) == 0) return false;
    else {
        using Next = std::decay_t<std::tuple_element_t<0, std::tuple<Rest...>>>;
        // Convertible to a pointer rather than is_pointer: kernels pass `const TCubeTiling*
        // __restrict__` locals, which is_pointer does not recognise.
        return std::is_convertible_v<Next, const volatile void*> || std::is_same_v<Next, std::nullptr_t>;
    }
}

template <class Obj, class Tiling, class... Rest>
ASCENDOPT_TWIN_FN void register_with_tiling(ServerTable& table, AscendC::TPipe* pipe, Obj& obj, Tiling tiling, Rest&&... rest) {
    if (table.count == ServerTable::k_max) fail(ErrorKind::run_failed, "REGIST_MATMUL_OBJ", "more than 16 Matmul objects");
    obj.ascendopt_register(table.count, pipe);
    table.needs[table.count] = &std::decay_t<Obj>::ascendopt_needs;
    table.attach[table.count] = &std::decay_t<Obj>::ascendopt_attach;
    table.objs[table.count++] = &obj;
    if constexpr (!std::is_same_v<Tiling, std::nullptr_t>) {
        if (tiling) obj.Init(tiling, pipe);
    }
    register_objects(table, pipe, std::forward<Rest>(rest)...);
}

template <class Obj, class... Rest>
ASCENDOPT_TWIN_FN void register_objects(ServerTable& table, AscendC::TPipe* pipe, Obj& obj, Rest&&... rest) {
    if constexpr (next_is_tiling<Rest...>()) register_with_tiling(table, pipe, obj, std::forward<Rest>(rest)...);
    else register_with_tiling(table, pipe, obj, nullptr, std::forward<Rest>(rest)...);
}

// Registers the objects on every core; on an AIC whose block has AIVs, serves them and returns
// true (the kernel returns: the AIC runs nothing else of it, as on the device).
template <class... Args>
ASCENDOPT_TWIN_FN bool regist_matmul_objs(AscendC::TPipe* pipe, Args&&... args) {
    ServerTable table;
    register_objects(table, pipe, std::forward<Args>(args)...);
    if (core_kind() != CoreKind::aic || block_aiv_count() == 0) return false;
    for (uint32_t i = 0; i < table.count; ++i) table.attach[i](table.objs[i], &table);
    cube_service_serve(&table);
    return true;
}

}  // namespace ascendopt_twin::mm

// REGIST_MATMUL_OBJ(pipe, workspace, obj, tiling, ...): see regist_matmul_objs. The system
// workspace is not needed by the twin's Matmul.
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                                           \
    if ((void)(workspace), ::ascendopt_twin::mm::regist_matmul_objs((tpipe), __VA_ARGS__)) \
    return
