# RUN: %tilevm compile %s -k dbg --signature 'x: *fp32' --emit tile --no-locations 2>%t.err | FileCheck %s
# RUN: FileCheck %s --check-prefix=STATIC < %t.err
# device_print, device_assert, static_assert, static_print, debug_barrier, hints.
import triton
import triton.language as tl


@triton.jit
def dbg(x):
    r = tl.multiple_of(tl.arange(0, 4), 4)
    v = tl.load(x + r)
    tl.static_assert(r.shape[0] == 4, "four lanes")
    tl.static_print("lanes", r.shape[0])
    tl.device_print("v = ", v)
    tl.device_assert(v > 0, "v must be positive")
    tl.debug_barrier()
    assert v.dtype == tl.float32

# CHECK: [[V:%[0-9]+]] = load
# CHECK-NEXT: print [[V]] {prefix = "v = "}
# CHECK: [[POS:%[0-9]+]] = cmpf [[V]], {{%[0-9]+}} {pred = ogt} : tile<4xi1>
# CHECK-NEXT: assert [[POS]] {message = "v must be positive"}
# CHECK-NEXT: barrier
# CHECK-NEXT: return
# STATIC: debug.py:13: static_print: lanes 4
