# RUN: %tilevm compile %s -k pick --signature 'x: *fp32, o: *fp32' --emit tile --no-locations | FileCheck %s --check-prefix=PTR
# RUN: %tilevm compile %s -k pick --signature 'x: tensordesc<*fp32:16x8>, o: *fp32' --emit tile --no-locations | FileCheck %s --check-prefix=DESC
# RUN: %tilevm compile %s -k kinds --signature 'o: *i32' --emit tile --no-locations | FileCheck %s --check-prefix=KINDS
# RUN: not %tilevm compile %s -k bad_class --signature 'o: *i32' 2>&1 | FileCheck %s --check-prefix=BAD
# RUN: not %tilevm compile %s -k call_class --signature 'o: *i32' 2>&1 | FileCheck %s --check-prefix=CALL
# isinstance() is answered at compile time, as Triton answers it: a host-made descriptor
# parameter is a tl.tensor_descriptor, a pointer is a tl.tensor; a helper's tl.constexpr
# annotation does not turn a tile passed to it into a constant (Triton's attention tutorial).
import triton
import triton.language as tl


@triton.jit
def _as_desc(d, offs: tl.constexpr):
    if isinstance(d, tl.tensor_descriptor):
        return d, offs, 111
    else:
        return tl.make_tensor_descriptor(d, shape=[32, 8], strides=[8, 1], block_shape=[16, 8]), offs, 222


@triton.jit
def pick(x, o):
    d, offs, tag = _as_desc(x, tl.arange(0, 16))
    tl.store(o + offs, tl.sum(d.load([0, 0]), axis=1) + tag)

# PTR-LABEL: kernel @pick(%x: ptr<f32>, %o: ptr<f32>)
# PTR: constant {value = 222} : i32
# DESC-LABEL: kernel @pick(%x.base: ptr<f32>, %x.shape0: i64, %x.shape1: i64, %x.stride0: i64, %x.stride1: i64, %o: ptr<f32>)
# DESC: constant {value = 111} : i32


@triton.jit
def kinds(o):
    t = tl.arange(0, 4)
    tl.store(o + 0, isinstance(t, tl.tensor) * 1 + isinstance(3, int) * 10 + isinstance(True, int) * 100 +
             isinstance(2.5, (int, float)) * 1000 + isinstance(tl.float16, tl.dtype) * 10000 +
             isinstance(3, tl.constexpr) * 100000 + isinstance(t, tl.tensor_descriptor) * 1000000 +
             isinstance(2.5, bool) * 10000000)

# KINDS-LABEL: kernel @kinds
# KINDS: constant {value = 111111} : i32


@triton.jit
def bad_class(o):
    tl.store(o, isinstance(1, tl.program_id))

# BAD: isinstance.py:[[@LINE-2]]:31: error: isinstance() can test tl.tensor, tl.tensor_descriptor, tl.dtype, tl.pointer_type, tl.constexpr, int, float and bool (or a tuple of them), got


@triton.jit
def call_class(o):
    tl.store(o, tl.tensor_descriptor(o))

# CALL: isinstance.py:[[@LINE-2]]:17: error: tl.tensor_descriptor is a class a kernel can test with isinstance()


# RUN: %tilevm compile %s -k fp8_names -D FP8=False --signature 'o: *fp16, x: *fp32' --emit tile --no-locations | FileCheck %s --check-prefix=FP8NAME
# RUN: %tilevm compile %s -k fp8_names -D FP8=True --signature 'o: *fp16, x: *fp32' --emit tile --no-locations | FileCheck %s --check-prefix=FP8USE
# Triton's fp8 dtypes are dtypes a dtype can be compared with and a value converted to (storing
# the fp8 value to an fp16 pointer widens it).
@triton.jit
def fp8_names(o, x, FP8: tl.constexpr):
    dtype = tl.float8e5 if FP8 else tl.float16
    if dtype == tl.float8e5:
        v = tl.load(x).to(dtype)
    else:
        v = tl.load(x).to(dtype) * 2
    tl.store(o, v)

# FP8NAME-LABEL: kernel @fp8_names
# FP8NAME: mulf
# FP8USE-LABEL: kernel @fp8_names
# FP8USE: truncf {{.*}} : f8e5
# FP8USE: extf {{.*}} : f16
# FP8USE-NOT: mulf
