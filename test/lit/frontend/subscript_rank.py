# RUN: %tilevm compile %s -k keep --signature 'z: *fp32' --emit tile --no-locations | FileCheck %s
# RUN: %tilevm run %s -k keep --arg z=zeros:f32:1 2>&1 | FileCheck %s --check-prefix=RAN
# A `:` in a subscript keeps a dimension; past the last one it keeps nothing, as in Triton, so a
# scalar pointer indexed [None, None, None, :] is a 1x1x1 tile (Triton's test_reduce stores a
# keep_dims reduction through one).
import triton
import triton.language as tl


@triton.jit
def keep(z):
    x = tl.full((2, 4, 8), 1.0, tl.float32)
    tl.store(z[None, None, None, :], tl.sum(x, axis=None, keep_dims=True))
# CHECK: expand_dims {{.*}} : tile<1x1x1xptr<f32>>
# CHECK: store %{{[0-9]+}}, %{{[0-9]+}}
# RAN: tilevm run: @keep, 1 programs, 0 findings
