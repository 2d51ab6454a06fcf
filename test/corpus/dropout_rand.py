# Seeded dropout with tl.rand (Philox), as in Triton's low-memory dropout tutorial: every
# element is either dropped or scaled by 1/(1-p), and the keep rate is close to 1-p.
import triton
import triton.language as tl


@triton.jit
def _seeded_dropout(x_ptr, output_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)

# RUN: -k _seeded_dropout -D BLOCK_SIZE=1024 --grid 8
# ARGS: x_ptr=randn:f32:8000 output_ptr=empty:f32:8000 n_elements=8000 p=0.25 seed=1234
# REF: o = got["output_ptr"].astype(np.float64); kept = o != 0
# REF: assert np.allclose(o[kept], x_ptr[kept] / 0.75, rtol=1e-6), "kept values are not x/(1-p)"
# REF: rate = kept.mean(); assert abs(rate - 0.75) < 0.03, f"keep rate {rate}"
