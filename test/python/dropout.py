# Seeded dropout with tl.rand, in the style of Triton's tutorial 04: the same seed gives the
# same mask, kept values are scaled by 1/(1-p), the keep rate is about 1-p.
import numpy as np

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
    tl.store(output_ptr + offsets, tl.where(x_keep, x / (1 - p), 0.0), mask=mask)


def seeded_dropout(x, p, seed):
    output = np.empty_like(x)
    n_elements = x.size
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    _seeded_dropout[grid](x, output, n_elements, p, seed, BLOCK_SIZE=1024)
    return output


x = np.random.default_rng().standard_normal(100000).astype(np.float32)
o1, o2, o3 = seeded_dropout(x, 0.5, 123), seeded_dropout(x, 0.5, 123), seeded_dropout(x, 0.5, 512)
assert np.array_equal(o1, o2), "the same seed must give the same mask"
assert not np.array_equal(o1, o3), "another seed must give another mask"
kept = o1 != 0
triton.testing.assert_close(o1[kept], x[kept] / 0.5, atol=1e-6, rtol=1e-6)
assert abs(kept.mean() - 0.5) < 0.01, kept.mean()
print("dropout: ok")
