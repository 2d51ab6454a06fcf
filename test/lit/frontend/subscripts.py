# RUN: %tilevm compile %s -k keep --signature 'z: *fp32' --emit tile --no-locations | FileCheck %s
# RUN: %tilevm run %s -k keep --arg z=zeros:f32:1 2>&1 | FileCheck %s --check-prefix=RAN
# RUN: %tilevm compile %s -k none_bounds --signature 'z: *i32' --emit tile --no-locations | FileCheck %s --check-prefix=NONE
# RUN: not %tilevm compile %s -k bounded --signature 'z: *i32' 2>&1 | FileCheck %s --check-prefix=BOUNDED
# A `:` in a subscript keeps a dimension; past the last one it keeps nothing, as in Triton, so a
# scalar pointer indexed [None, None, None, :] is a 1x1x1 tile (Triton's test_reduce stores a
# keep_dims reduction through one). A slice whose bounds and step are None keeps a whole
# dimension too; a bounded slice is an error.
import triton
import triton.language as tl


@triton.jit
def keep(z):
    x = tl.full((2, 4, 8), 1.0, tl.float32)
    tl.store(z[None, None, None, :], tl.sum(x, axis=None, keep_dims=True))
# CHECK: expand_dims {{.*}} : tile<1x1x1xptr<f32>>
# CHECK: store %{{[0-9]+}}, %{{[0-9]+}}
# RAN: tilevm run: @keep, 1 programs, 0 findings


@triton.jit
def none_bounds(z):
    data = tl.arange(0, 8)
    tl.static_assert(data[None, None:].shape == [1, 8] and data[None, :None].shape == [1, 8])
    t = data[None, None:None:None, None]
    tl.static_assert(t.shape == [1, 8, 1])
    tl.store(z + t, t)
# NONE-LABEL: kernel @none_bounds
# NONE: expand_dims {{.*}} : tile<1x8x1xi32>


@triton.jit
def bounded(z):
    data = tl.arange(0, 8)
    tl.store(z + data[None, 2:], 1)
# BOUNDED: subscripts.py:[[#@LINE-1]]:{{[0-9]+}}: error: unsupported tensor index: tensors can only be indexed with None and ':'
