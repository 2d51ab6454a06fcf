# RUN: %tilevm compile %s -k promote --signature 'p8: *i8, p32: *i32, p64: *i64, pu: *u32, ph: *fp16, pf: *fp32, pb: *bf16' --emit tile --no-locations 2>&1 | FileCheck %s
# Triton's type promotion: numbers adapt to tensors; integers follow C's usual conversions;
# fp16/bf16 divide in fp32; int / int is fp32; // and % truncate like C.
import triton
import triton.language as tl


@triton.jit
def promote(p8, p32, p64, pu, ph, pf, pb):
    i8 = tl.load(p8)
    i32 = tl.load(p32)
    i64 = tl.load(p64)
    u32 = tl.load(pu)
    h = tl.load(ph)
    f = tl.load(pf)
    bf = tl.load(pb)
    tl.store(p8, i8 + 1)          # weak number: stays int8
    tl.store(p64, i32 + i64)      # int32 widened (sign) to int64
    tl.store(pu, u32 + i32)       # same width, one unsigned: uint32
    tl.store(pf, h + f)           # fp16 + fp32: fp32
    tl.store(pf, h / h)           # fp16 / fp16 is computed in fp32
    tl.store(pf, i32 / i32)       # int / int is true division in fp32
    tl.store(p32, i32 // 3)       # C division
    tl.store(pu, u32 // u32)      # unsigned division
    tl.store(p32, i32 % i32)      # C remainder
    tl.store(pf, f % f)           # fmod
    tl.store(ph, h * 2.5)         # weak float: stays fp16
    tl.store(pf, h + bf)          # fp16 with bf16: fp16, stored as fp32
    tl.store(p32, i32 >> 1)       # arithmetic shift
    tl.store(pu, u32 >> 1)        # logical shift
    tl.store(p32, -i32)           # integer negation
    tl.store(p32, ~i32)           # bitwise not
    tl.store(p8, (f < 1.0).to(tl.int8))
    tl.store(p8, (f != f).to(tl.int8))
    tl.store(p8, (u32 < 5).to(tl.int8))

# CHECK-LABEL: kernel @promote
# CHECK: [[I8:%[0-9]+]] = load %p8 : i8
# CHECK: [[I32:%[0-9]+]] = load %p32 : i32
# CHECK: [[I64:%[0-9]+]] = load %p64 : i64
# CHECK: [[U32:%[0-9]+]] = load %pu : i32
# CHECK: [[H:%[0-9]+]] = load %ph : f16
# CHECK: [[F:%[0-9]+]] = load %pf : f32
# CHECK: [[BF:%[0-9]+]] = load %pb : bf16
# i8 + 1
# CHECK: [[ONE:%[0-9]+]] = constant {value = 1} : i8
# CHECK-NEXT: addi [[I8]], [[ONE]] : i8
# i32 + i64
# CHECK: [[W:%[0-9]+]] = extsi [[I32]] : i64
# CHECK-NEXT: addi [[W]], [[I64]] : i64
# u32 + i32: no conversion op (same bits), an addi on i32
# CHECK-NEXT: store %p64
# CHECK-NEXT: addi [[U32]], [[I32]] : i32
# h + f
# CHECK: [[HF:%[0-9]+]] = extf [[H]] : f32
# CHECK-NEXT: addf [[HF]], [[F]] : f32
# h / h in f32
# CHECK: [[H1:%[0-9]+]] = extf [[H]] : f32
# CHECK-NEXT: [[H2:%[0-9]+]] = extf [[H]] : f32
# CHECK-NEXT: divf [[H1]], [[H2]] : f32
# i32 / i32
# CHECK: [[A:%[0-9]+]] = sitofp [[I32]] : f32
# CHECK-NEXT: [[B:%[0-9]+]] = sitofp [[I32]] : f32
# CHECK-NEXT: divf [[A]], [[B]] : f32
# CHECK: divsi [[I32]], {{%[0-9]+}} : i32
# CHECK: divui [[U32]], [[U32]] : i32
# CHECK: remsi [[I32]], [[I32]] : i32
# CHECK: remf [[F]], [[F]] : f32
# CHECK: [[C25:%[0-9]+]] = constant {value = 2.5} : f16
# CHECK-NEXT: mulf [[H]], [[C25]] : f16
# CHECK: [[BFH:%[0-9]+]] = {{.*}} : f16
# CHECK: addf [[H]], {{%[0-9]+}} : f16
# CHECK: shrsi [[I32]], {{%[0-9]+}} : i32
# CHECK: shrui [[U32]], {{%[0-9]+}} : i32
# CHECK: [[Z:%[0-9]+]] = constant {value = 0} : i32
# CHECK-NEXT: subi [[Z]], [[I32]] : i32
# CHECK: [[M1:%[0-9]+]] = constant {value = -1} : i32
# CHECK-NEXT: xori [[I32]], [[M1]] : i32
# CHECK: cmpf [[F]], {{%[0-9]+}} {pred = olt} : i1
# CHECK: cmpf [[F]], [[F]] {pred = une} : i1
# CHECK: cmpi [[U32]], {{%[0-9]+}} {pred = ult} : i1
