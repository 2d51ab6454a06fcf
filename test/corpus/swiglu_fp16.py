# SwiGLU forward and backward in fp16 (unsloth style): loads widened to fp32 for the sigmoid,
# results narrowed back, outputs written over the inputs in the backward pass.
import triton
import triton.language as tl


@triton.jit
def _fg_kernel(e, g, h, n_elements, BLOCK_SIZE: tl.constexpr):
    block_idx = tl.program_id(0)
    offsets = block_idx * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    e_row = tl.load(e + offsets, mask=mask, other=0).to(tl.float32)
    g_row = tl.load(g + offsets, mask=mask, other=0)
    f_row = e_row * tl.sigmoid(e_row)
    f_row = f_row.to(g_row.dtype)
    tl.store(h + offsets, f_row * g_row, mask=mask)


@triton.jit
def _bwd_kernel(DW, e, g, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    DW_row = tl.load(DW + offsets, mask=mask, other=0)
    e_row = tl.load(e + offsets, mask=mask, other=0).to(tl.float32)
    g_row = tl.load(g + offsets, mask=mask, other=0)
    se_row = tl.sigmoid(e_row)
    f_row = (se_row * e_row).to(DW_row.dtype)
    h_row = f_row * g_row
    dg_row = DW_row * g_row
    de_row = (dg_row.to(tl.float32) * se_row * (1.0 + e_row * (1.0 - se_row))).to(DW_row.dtype)
    tl.store(DW + offsets, h_row, mask=mask)
    tl.store(e + offsets, DW_row * f_row, mask=mask)
    tl.store(g + offsets, de_row, mask=mask)

# RUN: -k _fg_kernel -D BLOCK_SIZE=256 --grid 4
# ARGS: e=randn:f16:1000 g=randn:f16:1000 h=empty:f16:1000 n_elements=1000
# REF: f = (e / (1 + np.exp(-e))).astype(np.float16).astype(np.float64); h = f * g
# EXPECT: h
# TOL: 2e-3 2e-3
# RUN: -k _bwd_kernel -D BLOCK_SIZE=256 --grid 4
# ARGS: DW=randn:f16:1000 e=randn:f16:1000 g=randn:f16:1000 n_elements=1000
# REF: se = 1 / (1 + np.exp(-e)); f = (se * e).astype(np.float16).astype(np.float64)
# REF: h = f * g; df = DW * f; de = (DW * g) * se * (1 + e * (1 - se))
# REF: DW, e, g = h, df, de
# EXPECT: DW e g
# TOL: 1e-2 1e-2
