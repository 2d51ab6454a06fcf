# Mixture-of-experts routing in the style of MoE serving kernels: a softmax over each token's
# expert logits, the top-k experts per token by packing (probability bits, reversed expert id)
# into one int64 key so that tl.topk keeps the ids (ties go to the lower id), renormalized
# weights, the chosen experts sorted per token with tl.sort, and the tokens-per-expert counts
# with tl.histogram. Logits are fp16, so distinct ones differ by far more than fp32 rounding and
# the order of the float64 reference is the kernel's.
import triton
import triton.language as tl


@triton.jit
def moe_topk_route(logits_ptr, weights_ptr, ids_ptr, sorted_ids_ptr, counts_ptr, n_tokens,
                   E: tl.constexpr, TOPK: tl.constexpr, BLOCK_T: tl.constexpr, RENORMALIZE: tl.constexpr):
    pid = tl.program_id(0)
    tok = pid * BLOCK_T + tl.arange(0, BLOCK_T)
    tok_mask = tok < n_tokens
    experts = tl.arange(0, E)
    logits = tl.load(logits_ptr + tok[:, None] * E + experts[None, :], mask=tok_mask[:, None], other=0.0)
    logits = logits.to(tl.float32)
    row_max = tl.max(logits, axis=1)
    p = tl.exp(logits - row_max[:, None])
    p = p / tl.sum(p, axis=1)[:, None]
    # Probabilities are >= 0, so their bits order as integers; the low word breaks ties toward
    # the lower expert id.
    key = (p.to(tl.int32, bitcast=True).to(tl.int64) << 32) | (E - 1 - experts[None, :]).to(tl.int64)
    top = tl.topk(key, TOPK, dim=1)
    top_ids = (E - 1 - (top & 0xFFFFFFFF)).to(tl.int32)
    top_p = (top >> 32).to(tl.int32).to(tl.float32, bitcast=True)
    if RENORMALIZE:
        top_p = top_p / tl.sum(top_p, axis=1)[:, None]
    k = tl.arange(0, TOPK)
    out = tok[:, None] * TOPK + k[None, :]
    tl.store(weights_ptr + out, top_p, mask=tok_mask[:, None])
    tl.store(ids_ptr + out, top_ids, mask=tok_mask[:, None])
    tl.store(sorted_ids_ptr + out, tl.sort(top_ids, dim=1), mask=tok_mask[:, None])
    flat_ids = tl.reshape(top_ids, (BLOCK_T * TOPK,))
    flat_mask = tl.reshape(tl.broadcast_to(tok_mask[:, None], (BLOCK_T, TOPK)), (BLOCK_T * TOPK,))
    counts = tl.histogram(flat_ids, E, mask=flat_mask)
    tl.atomic_add(counts_ptr + experts, counts)

# RUN: -k moe_topk_route -D E=16 -D TOPK=2 -D BLOCK_T=16 -D RENORMALIZE=True --grid 4
# ARGS: logits_ptr=randn:f16:50x16 weights_ptr=empty:f32:50x2 ids_ptr=empty:i32:50x2 sorted_ids_ptr=empty:i32:50x2
# ARGS: counts_ptr=zeros:i32:16 n_tokens=50
# REF: x = logits_ptr.astype(np.float64); z = np.exp(x - x.max(axis=1, keepdims=True)); prob = z / z.sum(axis=1, keepdims=True)
# REF: ids_ptr = np.argsort(-prob, axis=1, kind="stable")[:, :2]
# REF: w = np.take_along_axis(prob, ids_ptr, axis=1); weights_ptr = w / w.sum(axis=1, keepdims=True)
# REF: sorted_ids_ptr = np.sort(ids_ptr, axis=1); counts_ptr = np.bincount(ids_ptr.ravel(), minlength=16)
# EXPECT: ids_ptr sorted_ids_ptr counts_ptr weights_ptr
# TOL: 1e-5 1e-6
# RUN: -k moe_topk_route -D E=64 -D TOPK=8 -D BLOCK_T=8 -D RENORMALIZE=False --grid 3
# ARGS: logits_ptr=randn:f16:20x64 weights_ptr=empty:f32:20x8 ids_ptr=empty:i32:20x8 sorted_ids_ptr=empty:i32:20x8
# ARGS: counts_ptr=zeros:i32:64 n_tokens=20
# REF: x = logits_ptr.astype(np.float64); z = np.exp(x - x.max(axis=1, keepdims=True)); prob = z / z.sum(axis=1, keepdims=True)
# REF: ids_ptr = np.argsort(-prob, axis=1, kind="stable")[:, :8]
# REF: weights_ptr = np.take_along_axis(prob, ids_ptr, axis=1)
# REF: sorted_ids_ptr = np.sort(ids_ptr, axis=1); counts_ptr = np.bincount(ids_ptr.ravel(), minlength=64)
# EXPECT: ids_ptr sorted_ids_ptr counts_ptr weights_ptr
# TOL: 1e-5 1e-6
