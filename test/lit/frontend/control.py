# RUN: %tilevm compile %s -k loops --signature 'x: *fp32, o: *fp32, n: i32, flag: i32' -D BLOCK=64 --emit tile --no-locations | FileCheck %s
# Runtime loops and branches: names the body reassigns become loop-carried values; an if on a
# runtime condition yields the names either branch changes; a while loop re-evaluates its
# condition in its before-region.
import triton
import triton.language as tl


@triton.jit
def loops(x, o, n, flag, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    count = 0
    for i in range(0, n, BLOCK):
        acc += tl.load(x + i + offs)
        count += 1
    if flag > 0:
        scale = 2.0
        acc = acc * scale
    else:
        scale = 0.5
    total = tl.sum(acc, axis=0) * scale
    k = 0
    while k < count:
        k += 2
    tl.store(o, total + k)

# CHECK-LABEL: kernel @loops
# CHECK: [[ACC0:%[0-9]+]] = constant {value = 0.0} : tile<64xf32>
# CHECK-NEXT: [[CNT0:%[0-9]+]] = constant {value = 0} : i32
# CHECK-NEXT: [[LB:%[0-9]+]] = constant {value = 0} : i32
# CHECK-NEXT: [[STEP:%[0-9]+]] = constant {value = 64} : i32
# CHECK-NEXT: [[ACC:%[0-9]+]], [[CNT:%[0-9]+]] = for [[LB]], %n, [[STEP]], [[ACC0]], [[CNT0]] : tile<64xf32>, i32 ([[I:%[0-9]+]]: i32, [[A:%[0-9]+]]: tile<64xf32>, [[C:%[0-9]+]]: i32) {
# CHECK:   addptr %x, [[I]] : ptr<f32>
# CHECK:   [[NA:%[0-9]+]] = addf [[A]], {{%[0-9]+}} : tile<64xf32>
# CHECK:   [[NC:%[0-9]+]] = addi [[C]], {{%[0-9]+}} : i32
# CHECK:   yield [[NA]], [[NC]]
# CHECK: }
# CHECK: [[COND:%[0-9]+]] = cmpi %flag, {{%[0-9]+}} {pred = sgt} : i1
# CHECK-NEXT: [[ACC2:%[0-9]+]], [[SCALE:%[0-9]+]] = if [[COND]] : tile<64xf32>, f32 () {
# CHECK:   [[TWO:%[0-9]+]] = constant {value = 2.0} : f32
# CHECK:   [[SCALED:%[0-9]+]] = mulf [[ACC]], {{%[0-9]+}} : tile<64xf32>
# CHECK-NEXT:   yield [[SCALED]], [[TWO]]
# CHECK: } () {
# CHECK:   [[HALF:%[0-9]+]] = constant {value = 0.5} : f32
# CHECK:   yield [[ACC]], [[HALF]]
# CHECK: }
# CHECK: reduce [[ACC2]] {axis = 0}
# CHECK: [[K0:%[0-9]+]] = constant {value = 0} : i32
# CHECK-NEXT: [[K:%[0-9]+]] = while [[K0]] : i32 ([[KB:%[0-9]+]]: i32) {
# CHECK-NEXT:   [[LT:%[0-9]+]] = cmpi [[KB]], [[CNT]] {pred = slt} : i1
# CHECK-NEXT:   condition [[LT]], [[KB]]
# CHECK-NEXT: } ([[KA:%[0-9]+]]: i32) {
# CHECK:   [[K2:%[0-9]+]] = addi [[KA]], {{%[0-9]+}} : i32
# CHECK-NEXT:   yield [[K2]]
# CHECK-NEXT: }
