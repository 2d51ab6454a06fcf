# RUN: %tilevm compile %s -k two_results --signature 'a: *u32, b: *u32, c: *u32, d: *u32' --emit tile --no-locations | FileCheck %s
# RUN: %tilevm compile %s -k packed --signature 'x: *fp32, y: *fp32' --emit tile --no-locations | FileCheck %s --check-prefix=PACK
# RUN: not %tilevm compile %s -k bad_pack --signature 'x: *fp32' --emit tile 2>&1 | FileCheck %s --check-prefix=BADPACK
# RUN: not %tilevm compile %s -k not_jit --signature 'x: *fp32' --emit tile 2>&1 | FileCheck %s --check-prefix=NOTJIT
# RUN: not %tilevm compile %s -k tile_result --signature 'x: *fp32' --emit tile 2>&1 | FileCheck %s --check-prefix=TILE
# RUN: %tilevm compile %s -k two_results --signature 'a: *u32, b: *u32, c: *u32, d: *u32' -o %t.tbc
# RUN: od -An -tx1 -j 8 -N 2 %t.tbc | FileCheck %s --check-prefix=STAMP
# tl.map_elementwise(fn, *args, pack=1): the function inlined once into the op's region on
# scalars (args broadcast to one shape; pack elements of each, operand-major), its returns
# yielded pack-major per result; a module with it is bytecode 1.3.
import triton
import triton.language as tl


@triton.jit
def divmod(a, b):
    return a // b, a % b


@triton.jit
def two_results(a, b, c, d):
    x = tl.load(a + tl.arange(0, 64))
    y = tl.load(b)
    q, r = tl.map_elementwise(divmod, x, y)
    tl.store(c + tl.arange(0, 64), q)
    tl.store(d + tl.arange(0, 64), r)

# CHECK: [[Y:%[0-9]+]] = load %b : i32
# CHECK: [[YS:%[0-9]+]] = splat [[Y]] : tile<64xi32>
# CHECK: [[Q:%[0-9]+]], [[R:%[0-9]+]] = map_elementwise {{%[0-9]+}}, [[YS]] {pack = 1} : tile<64xi32>, tile<64xi32> ([[A:%[0-9]+]]: i32, [[B:%[0-9]+]]: i32) {
# CHECK-NEXT: [[Q1:%[0-9]+]] = divui [[A]], [[B]] : i32
# CHECK-NEXT: [[R1:%[0-9]+]] = remui [[A]], [[B]] : i32
# CHECK-NEXT: yield [[Q1]], [[R1]]
# CHECK: store {{%[0-9]+}}, [[Q]]
# CHECK: store {{%[0-9]+}}, [[R]]
# STAMP: 01 03


@triton.jit
def swap(a0, a1):
    return a1, a0


@triton.jit
def packed(x, y):
    t = tl.load(x + tl.arange(0, 8))
    tl.store(y + tl.arange(0, 8), tl.map_elementwise(swap, t, pack=2))

# PACK: map_elementwise {{%[0-9]+}} {pack = 2} : tile<8xf32> ([[A0:%[0-9]+]]: f32, [[A1:%[0-9]+]]: f32) {
# PACK-NEXT: yield [[A1]], [[A0]]


@triton.jit
def bad_pack(x):
    t = tl.load(x + tl.arange(0, 8))
    tl.store(x + tl.arange(0, 8), tl.map_elementwise(swap, t, pack=3))

# BADPACK: map_elementwise.py:[[@LINE-2]]:35: error: map_elementwise's pack 3 does not divide the 8 elements of tile<8xf32>


@triton.jit
def not_jit(x):
    t = tl.load(x + tl.arange(0, 8))
    tl.store(x + tl.arange(0, 8), tl.map_elementwise(t, t))

# NOTJIT: map_elementwise.py:[[@LINE-2]]:54: error: map_elementwise's scalar_fn must be a @triton.jit function, got tile<8xf32>


@triton.jit
def whole(v):
    return v + tl.zeros([4], tl.float32)


@triton.jit
def tile_result(x):
    t = tl.load(x + tl.arange(0, 4))
    tl.store(x + tl.arange(0, 4), tl.map_elementwise(whole, t))

# TILE: map_elementwise.py:[[@LINE-2]]:35: error: map_elementwise's scalar_fn must return scalars, got tile<4xf32>
