# RUN: %tilevm compile %s -k forms --signature 'a: *fp32, b: *fp32, c: *fp32, o: *fp32, h: *fp16' --emit tile --no-locations --fp-fusion | FileCheck %s
# RUN: %tilevm compile %s -k forms --signature 'a: *fp32, b: *fp32, c: *fp32, o: *fp32, h: *fp16' --emit tile --no-locations | FileCheck %s --check-prefix=APART
# Triton's enable_fp_fusion (--fp-fusion; the Python door's default, as Triton's): an f32 product
# added or subtracted in its own block becomes one fma; a product from another block, a
# product cast first and f16 arithmetic stay apart.
import triton
import triton.language as tl


@triton.jit
def forms(a, b, c, o, h):
    x, y, z = tl.load(a), tl.load(b), tl.load(c)
    p = x * y
    tl.store(o, p + z)
    tl.store(o + 1, p - z)
    tl.store(o + 2, z - x * y)
    for i in range(4):
        tl.store(o + 3, p + z * i)
    hx = tl.load(h)
    tl.store(h + 1, hx * hx + hx)


# CHECK: [[P:%[0-9]+]] = mulf [[X:%[0-9]+]], [[Y:%[0-9]+]] : f32
# CHECK-NEXT: {{%[0-9]+}} = fma [[X]], [[Y]], [[Z:%[0-9]+]] : f32
# CHECK: [[NZ:%[0-9]+]] = negf [[Z]] : f32
# CHECK-NEXT: {{%[0-9]+}} = fma [[X]], [[Y]], [[NZ]] : f32
# CHECK: [[NX:%[0-9]+]] = negf [[X]] : f32
# CHECK-NEXT: {{%[0-9]+}} = fma [[NX]], [[Y]], [[Z]] : f32
# CHECK: for
# CHECK: [[ZI:%[0-9]+]] = mulf
# CHECK-NEXT: {{%[0-9]+}} = fma {{%[0-9]+}}, {{%[0-9]+}}, [[P]] : f32
# CHECK: mulf {{.*}} : f16
# CHECK-NEXT: addf {{.*}} : f16

# APART-NOT: fma
