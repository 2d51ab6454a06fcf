# RUN: %tilevm compile %s -k shapes --signature 'x: *fp32, stride: i32' -D BM=16 -D BN=32 --emit tile --no-locations | FileCheck %s
# Subscripts with None and ':', numpy-style broadcasting, reshape/permute/trans/join/split.
import triton
import triton.language as tl


@triton.jit
def shapes(x, stride, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    ptrs = x + rm[:, None] * stride + rn[None, :]
    t = tl.load(ptrs)
    r = tl.reshape(t, (BN, BM))
    p = tl.trans(t)
    q = tl.permute(t, 1, 0)
    j = tl.join(p, q)
    a, b = tl.split(j)
    e = tl.expand_dims(rm, 0)
    f = tl.broadcast_to(e, (4, BM))
    tl.store(ptrs, tl.trans(a + b + r))

# CHECK: [[RM:%[0-9]+]] = arange {end = 16, start = 0} : tile<16xi32>
# CHECK: [[RN:%[0-9]+]] = arange {end = 32, start = 0} : tile<32xi32>
# CHECK: [[COL:%[0-9]+]] = expand_dims [[RM]] {axis = 1} : tile<16x1xi32>
# CHECK: [[ROW:%[0-9]+]] = expand_dims [[RN]] {axis = 0} : tile<1x32xi32>
# CHECK: broadcast {{%[0-9]+}} : tile<16x32xptr<f32>>
# CHECK: broadcast [[ROW]] : tile<16x32xi32>
# CHECK: [[T:%[0-9]+]] = load {{%[0-9]+}} : tile<16x32xf32>
# CHECK: reshape [[T]] : tile<32x16xf32>
# CHECK: permute [[T]] {order = [1, 0]} : tile<32x16xf32>
# CHECK: permute [[T]] {order = [1, 0]} : tile<32x16xf32>
# CHECK: [[J:%[0-9]+]] = join {{%[0-9]+}}, {{%[0-9]+}} : tile<32x16x2xf32>
# CHECK: split [[J]] : tile<32x16xf32>, tile<32x16xf32>
# CHECK: expand_dims [[RM]] {axis = 0} : tile<1x16xi32>
# CHECK: broadcast {{%[0-9]+}} : tile<4x16xi32>
