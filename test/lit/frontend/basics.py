# RUN: %tilevm compile %s -k add -D BLOCK=256 --signature 'x: *fp32, y: *fp32, o: *fp32, n: i32' --emit tile | FileCheck %s
# Program ids, arange, masks, pointer arithmetic, masked loads and stores, source locations.
import triton
import triton.language as tl


@triton.jit
def add(x, y, o, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m)
    b = tl.load(y + offs, mask=m, other=0.0)
    tl.store(o + offs, a + b, mask=m)

# CHECK-LABEL: kernel @add(%x: ptr<f32>, %y: ptr<f32>, %o: ptr<f32>, %n: i32)
# CHECK:      [[PID:%[0-9]+]] = program_id {axis = 0} : i32 loc("{{.*}}basics.py":9:11)
# CHECK-NEXT: [[B:%[0-9]+]] = constant {value = 256} : i32
# CHECK-NEXT: [[S:%[0-9]+]] = muli [[PID]], [[B]] : i32 loc("{{.*}}basics.py":10:12)
# CHECK-NEXT: [[R:%[0-9]+]] = arange {end = 256, start = 0} : tile<256xi32>
# CHECK-NEXT: [[SS:%[0-9]+]] = splat [[S]] : tile<256xi32>
# CHECK-NEXT: [[OFFS:%[0-9]+]] = addi [[SS]], [[R]] : tile<256xi32>
# CHECK-NEXT: [[N:%[0-9]+]] = splat %n : tile<256xi32>
# CHECK-NEXT: [[M:%[0-9]+]] = cmpi [[OFFS]], [[N]] {pred = slt} : tile<256xi1>
# CHECK-NEXT: [[XB:%[0-9]+]] = splat %x : tile<256xptr<f32>>
# CHECK-NEXT: [[XP:%[0-9]+]] = addptr [[XB]], [[OFFS]] : tile<256xptr<f32>>
# CHECK-NEXT: [[A:%[0-9]+]] = load [[XP]], [[M]] : tile<256xf32> loc("{{.*}}basics.py":12:9)
# CHECK:      [[OTHER:%[0-9]+]] = constant {value = 0.0} : f32
# CHECK-NEXT: [[OTHERS:%[0-9]+]] = splat [[OTHER]] : tile<256xf32>
# CHECK-NEXT: [[BV:%[0-9]+]] = load {{%[0-9]+}}, [[M]], [[OTHERS]] : tile<256xf32>
# CHECK:      [[SUM:%[0-9]+]] = addf [[A]], [[BV]] : tile<256xf32>
# CHECK-NEXT: store {{%[0-9]+}}, [[SUM]], [[M]] loc("{{.*}}basics.py":14:5)
# CHECK-NEXT: return
