"""Golden for MoeInitRoutingV2 (cann-ops src/math/moe_init_routing_v2), dropless mode.

MoE routing (CANN's aclnnMoeInitRoutingV2, which the README names as the base): x [N, H] holds N
tokens, expert_idx [N, K] the K experts each token is routed to. The N*K (token, slot) pairs,
numbered i = n*K + k, are ordered by expert id, pairs of one expert in increasing i (a stable
sort). With p(i) the place of pair i in that order and src(j) the pair at place j:
    expert_tokens_count_or_cumsum[e]  flag 1: pairs with expert id <= e; flag 2: with id == e
    expanded_row_idx[i] = p(i) - start_row
    expanded_x[j]       = x[src(j + start_row) // K]  for the rows kept
This variant adds an expert-parallel slice (README: expanded_x and expanded_row_idx cut by EP
rules; attributes start_expertId, end_expertId, device_id): the kept places run from start_row =
cumsum[start_expertId] (0 on device 0) to end_row = cumsum[end_expertId], and at most active_num
of them (active_num > 0). The README gives no formula for the slice; these bounds are read from the
kernel (op_kernel/moe_v2_gather_out.h, Compute and CopyOut; moe_v2_init_routing_fullload.h).
"""
import numpy as np


def moe_init_routing_v2_golden(x, expert_idx, expanded_x, expanded_row_idx,
                               expert_tokens_count_or_cumsum=None, active_num=0, expert_num=0,
                               expert_tokens_count_or_cumsum_flag=0, start_expertId=0,
                               end_expertId=0, device_id=0, **_attrs):
    xv = np.asarray(x["value"], dtype=np.float64)
    e = np.asarray(expert_idx["value"]).astype(np.int64)
    k = e.shape[1]
    flat = e.reshape(-1)
    order = np.argsort(flat, kind="stable")        # src(j)
    place = np.empty_like(order)
    place[order] = np.arange(flat.size)            # p(i)
    counts = np.bincount(flat, minlength=expert_num)[:expert_num]
    cumsum = np.cumsum(counts)
    start_row = int(cumsum[start_expertId]) if device_id != 0 else 0
    end_row = int(cumsum[end_expertId])
    rows = expanded_x["shape"][0]
    out_x = np.stack([xv[order[j + start_row] // k] for j in range(rows)])
    outs = [out_x, place - start_row]
    if expert_tokens_count_or_cumsum is not None:
        outs.append(cumsum if expert_tokens_count_or_cumsum_flag == 1 else counts)
    assert rows <= end_row - start_row, "expanded_x has rows the slice does not fill"
    return outs
