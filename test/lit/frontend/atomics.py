# RUN: %tilevm compile %s -k acc --signature 'lock: *i32, out: *fp32, cnt: *u32, x: *fp32' --emit tile --no-locations | FileCheck %s
# Atomics (kinds chosen from the element type), and a spin lock guarding a cross-program
# accumulation, as in Triton's layer-norm backward tutorial.
import triton
import triton.language as tl


@triton.jit
def acc(lock, out, cnt, x):
    r = tl.arange(0, 8)
    v = tl.load(x + r)
    tl.atomic_add(out + r, v)
    tl.atomic_max(cnt, 7)
    tl.atomic_add(lock + 1, 1, sem="relaxed", scope="gpu")
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    tl.store(out + r, tl.load(out + r) + v)
    tl.atomic_xchg(lock, 0)

# CHECK: [[V:%[0-9]+]] = load {{%[0-9]+}} : tile<8xf32>
# CHECK: atomic_rmw {{%[0-9]+}}, [[V]] {kind = fadd} : tile<8xf32>
# CHECK: atomic_rmw %cnt, {{%[0-9]+}} {kind = umax} : i32
# CHECK: atomic_rmw {{%[0-9]+}}, {{%[0-9]+}} {kind = add, scope = gpu, sem = relaxed} : i32
# CHECK: while () {
# CHECK-NEXT: [[ZERO:%[0-9]+]] = constant {value = 0} : i32
# CHECK-NEXT: [[ONE:%[0-9]+]] = constant {value = 1} : i32
# CHECK-NEXT: [[OLD:%[0-9]+]] = atomic_cas %lock, [[ZERO]], [[ONE]] : i32
# CHECK: [[HELD:%[0-9]+]] = cmpi [[OLD]], {{%[0-9]+}} {pred = eq} : i1
# CHECK-NEXT: condition [[HELD]]
# CHECK-NEXT: } () {
# CHECK-NEXT: yield
# CHECK-NEXT: }
# CHECK: atomic_rmw %lock, {{%[0-9]+}} {kind = xchg} : i32
