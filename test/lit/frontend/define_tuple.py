# RUN: %tilevm compile %s -k reshape_to -D SHAPE='(4, 8)' --signature 'x: *i32, z: *i32' --emit tile --no-locations | FileCheck %s
# RUN: %tilevm compile %s -k reshape_to -D SHAPE='[2, 2, 8]' --signature 'x: *i32, z: *i32' --emit tile --no-locations | FileCheck %s --check-prefix=LIST
# RUN: %tilevm compile %s -k reshape_to -D SHAPE='(32,)' --signature 'x: *i32, z: *i32' --emit tile --no-locations | FileCheck %s --check-prefix=ONE
# RUN: not %tilevm compile %s -k reshape_to -D SHAPE='(4,,8)' --signature 'x: *i32, z: *i32' 2>&1 | FileCheck %s --check-prefix=BAD
# RUN: not %tilevm compile %s -k reshape_to -D SHAPE='(4, 8' --signature 'x: *i32, z: *i32' 2>&1 | FileCheck %s --check-prefix=OPEN
# A -D value may be a tuple (or list) of -D values, as the Python door passes a tuple given to a
# tl.constexpr parameter (Triton's test_reshape).
import triton
import triton.language as tl


@triton.jit
def reshape_to(x, z, SHAPE: tl.constexpr):
    v = tl.reshape(tl.load(x + tl.arange(0, 32)), SHAPE)
    tl.store(z + tl.arange(0, 32), tl.ravel(v))
# CHECK: reshape {{.*}} : tile<4x8xi32>
# LIST: reshape {{.*}} : tile<2x2x8xi32>
# ONE: reshape {{.*}} : tile<32xi32>
# BAD: <command line>: error: -D SHAPE=(4,,8): expected an integer, a float, True/False, a dtype such as fp16, a string or a tuple of them
# OPEN: <command line>: error: -D SHAPE=(4, 8: expected an integer, a float, True/False, a dtype such as fp16, a string or a tuple of them
