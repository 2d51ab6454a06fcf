# Regression: f32 -> f16 of large values converted an out-of-range float to uint32 (UBSan) in
# interpreter/FastMath.cpp's portable path, found by the executing fuzzer.
# RUN: %tilevm compile %s -k red --signature 'x: *fp32, h: *fp16, b: *i8, o: *fp32, oi: *i32' --emit tile --no-locations | FileCheck %s
# Reductions and scans: combiner regions, Triton's accumulator dtypes (int8 sums in int32, fp16
# max in fp32), argmax with its index tile, a user combiner, keep_dims.
import triton
import triton.language as tl


@triton.jit
def add_pair(a, b):
    return a + b


@triton.jit
def red(x, h, b, o, oi):
    r = tl.arange(0, 16)
    v = tl.load(x + r)
    tl.store(o, tl.sum(v, axis=0))
    tl.store(o, tl.max(tl.load(h + r), axis=0))
    tl.store(oi, tl.sum(tl.load(b + r), axis=0))
    tl.store(oi, tl.argmax(v, axis=0))
    tl.store(o, tl.reduce(v, 0, add_pair))
    tl.store(o + r, tl.cumsum(v, axis=0))
    m = tl.reshape(v, (4, 4))
    k = tl.max(m, axis=1, keep_dims=True)
    tl.store(o + r, tl.reshape(m - k, (16,)))

# CHECK: [[V:%[0-9]+]] = load {{%[0-9]+}} : tile<16xf32>
# CHECK: reduce [[V]] {axis = 0} : f32 ([[A:%[0-9]+]]: f32, [[B:%[0-9]+]]: f32) {
# CHECK-NEXT: [[S:%[0-9]+]] = addf [[A]], [[B]] : f32
# CHECK-NEXT: yield [[S]]
# CHECK: [[H:%[0-9]+]] = load {{%[0-9]+}} : tile<16xf16>
# CHECK-NEXT: [[HF:%[0-9]+]] = extf [[H]] : tile<16xf32>
# CHECK-NEXT: reduce [[HF]] {axis = 0} : f32
# CHECK-NEXT: maxnumf
# CHECK: [[I8:%[0-9]+]] = load {{%[0-9]+}} : tile<16xi8>
# CHECK-NEXT: [[I32:%[0-9]+]] = extsi [[I8]] : tile<16xi32>
# CHECK-NEXT: reriton's accumulator dtypes (int8 sums in int32, fp16
# max in fp32), argmax with its index tile, a user combiner, keep_dims.
import triton
import triton.language as tl


@triton.jit
def add_pair(a, b):
    return a + b


@triton.jit
def red(x, h, b, o, oi):
    r = tl.arange(0, 16)
    v = tl.load(x + r)
    tl.store(o, tl.sum(v, axis=0))
    tl.store(o, tl.max(tl.load(h + r), axis=0))
    tl.store(oi, tl.sum(tl.load(b + r), axis=0))
    tl.store(oi, tl.argmax(v, axis=0))
    tl.store(o, tl.reduce(v, 0, add_pair))
    tl.store(o + r, tl.cumsum(v, axis=0))
    m = tl.reshape(v, (4, 4))
    k = tl.max(m, axis=1, keep_dims=True)
    tl.store(o + r, tl.reshape(m - k, (16,)))

# CHECK: [[V:%[0-9]+]] = load {{%[0-9]+}} : tile<16xf32>
# CHECK: reduce [[V]] {axis = 0} : f32 ([[A:%[0-duce [[66666666666666666666666666666666666666666666666666666666I32]] {axis = 0} : i32
# CHECK-NEXT: addi
# argmax: values and indices reduced together; ties go to the lower index.
# CHECK: [[IDX:%[0-9]+]] = arange {end = 16, start = 0} : tile<16xi32>
# CHECK-NEXT: {{%[0-9]+}}, [[ARG:%[0-9]+]] = reduce [[V]], [[IDX]] {axis = 0} : f32, i32 ([[V1:%[0-9]+]]: f32, [[I1:%[0-9]+]]: i32, [[V2:%[0-9]+]]: f32, [[I2:%[0-9]+]]: i32) {
# CHECK-NEXT: cmpf [[V1]], [[V2]] {pred = ogt} : i1
# CHECK-NEXT: cmpf [[V1]], [[V2]] {pred = oeq} : i1
# CHECK-NEXT: cmpi [[I1]], [[I2]] {pred = slt} : i1
# CHECK: select
# CHECK: select
# CHECK: yield
# CHECK: store %oi, [[ARG]]
# CHECK: reduce [[V]] {axis = 0} : f32
# CHECK-NEXT: addf
# CHECK: scan [[V]] {axis = 0} : tile<16xf32>
# CHECK: [[M:%[0-9]+]] = reshape [[V]] : tile<4x4xf32>
# CHECK-NEXT: [[MAX:%[0-9]+]] = reduce [[M]] {axis = 1} : tile<4xf32>
# CHECK: expand_dims [[MAX]] {axis = 1} : tile<4x1xf32>
