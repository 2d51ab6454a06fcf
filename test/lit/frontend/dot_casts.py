# RUN: %tilevm compile %s -k mm --signature 'a: *fp16, b: *fp16, c: *fp32, f: *fp32, q: *i8' --emit tile --no-locations | FileCheck %s
# dot: fp16 in, fp32 accumulate; fp32 inputs carry input_precision (tf32 by default); int8
# accumulates in int32. Casts: truncf, f16<->bf16 through fp32, bitcast, int<->float, to bool.
import triton
import triton.language as tl


@triton.jit
def mm(a, b, c, f, q):
    r = tl.arange(0, 16)
    off = r[:, None] * 16 + r[None, :]
    x = tl.load(a + off)
    y = tl.load(b + off)
    acc = tl.dot(x, y)
    acc = tl.dot(x, y, acc)
    tl.store(c + off, acc)
    g = tl.load(f + off)
    tl.store(c + off, tl.dot(g, g))
    tl.store(c + off, tl.dot(g, g, input_precision="ieee"))
    i = tl.load(q + off)
    tl.store(c + off, tl.dot(i, i).to(tl.float32))
    tl.store(a + off, acc.to(tl.float16))
    tl.store(a + off, x.to(tl.bfloat16).to(tl.float16))
    tl.store(c + off, acc.to(tl.int32, bitcast=True).to(tl.float32))
    tl.store(c + off, (g > 0).to(tl.float32))
    tl.store(q + off, g.to(tl.int8))
    tl.store(c + off, g.to(tl.int1).to(tl.float32))

# CHECK: [[X:%[0-9]+]] = load {{%[0-9]+}} : tile<16x16xf16>
# CHECK: [[Y:%[0-9]+]] = load {{%[0-9]+}} : tile<16x16xf16>
# CHECK: [[Z:%[0-9]+]] = constant {value = 0.0} : tile<16x16xf32>
# CHECK-NEXT: [[D1:%[0-9]+]] = dot [[X]], [[Y]], [[Z]] : tile<16x16xf32>
# CHECK-NEXT: [[D2:%[0-9]+]] = dot [[X]], [[Y]], [[D1]] : tile<16x16xf32>
# CHECK: dot {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} {input_precision = tf32} : tile<16x16xf32>
# CHECK: dot {{%[0-9]+}}, {{%[0-9]+}}, {{%[0-9]+}} {input_precision = ieee} : tile<16x16xf32>
# CHECK: [[ZI:%[0-9]+]] = constant {value = 0} : tile<16x16xi32>
# CHECK-NEXT: [[DI:%[0-9]+]] = dot {{%[0-9]+}}, {{%[0-9]+}}, [[ZI]] : tile<16x16xi32>
# CHECK-NEXT: sitofp [[DI]] : tile<16x16xf32>
# CHECK: truncf [[D2]] : tile<16x16xf16>
# CHECK: [[W:%[0-9]+]] = extf [[X]] : tile<16x16xf32>
# CHECK-NEXT: [[BF:%[0-9]+]] = truncf [[W]] : tile<16x16xbf16>
# CHECK-NEXT: [[W2:%[0-9]+]] = extf [[BF]] : tile<16x16xf32>
# CHECK-NEXT: truncf [[W2]] : tile<16x16xf16>
# CHECK: [[BITS:%[0-9]+]] = bitcast [[D2]] : tile<16x16xi32>
# CHECK-NEXT: sitofp [[BITS]] : tile<16x16xf32>
# CHECK: [[GT:%[0-9]+]] = cmpf {{%[0-9]+}}, {{%[0-9]+}} {pred = ogt} : tile<16x16xi1>
# CHECK-NEXT: uitofp [[GT]] : tile<16x16xf32>
# CHECK: fptosi {{%[0-9]+}} : tile<16x16xi8>
# CHECK: [[NZ:%[0-9]+]] = cmpf {{%[0-9]+}}, {{%[0-9]+}} {pred = une} : tile<16x16xi1>
# CHECK-NEXT: uitofp [[NZ]] : tile<16x16xf32>
