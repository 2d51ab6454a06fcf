# RUN: %tilevm compile %s -k early_exit --signature 'x: *fp32, n: i32' --emit tile --no-locations | FileCheck %s
# RUN: %tilevm compile %s -k helper_paths --signature 'x: *fp32, n: i32' --emit tile --no-locations | FileCheck %s --check-prefix=HELPER
# RUN: not %tilevm compile %s -k mismatched --signature 'x: *fp32, n: i32' --emit tile 2>&1 | FileCheck %s --check-prefix=MISMATCH
# A return under a runtime condition ends the program: the rest of the function is lowered into
# the branch that does not return, so nothing after the if runs on the returning path.
import triton
import triton.language as tl


@triton.jit
def early_exit(x, n):
    pid = tl.program_id(0)
    if pid >= n:
        return
    tl.store(x + pid, 1.0)

# CHECK-LABEL: kernel @early_exit
# CHECK: [[C:%.*]] = cmpi {{.*}} {pred = sge}
# CHECK-NEXT: if [[C]] () {
# CHECK-NEXT: yield
# CHECK-NEXT: } () {
# CHECK: store
# CHECK-NEXT: yield
# CHECK-NEXT: }
# CHECK-NEXT: return


@triton.jit
def pick(v, flag):
    if flag > 0:
        return v * 2.0
    return v


@triton.jit
def helper_paths(x, n):
    tl.store(x, pick(tl.load(x), n))

# HELPER-LABEL: kernel @helper_paths
# HELPER: [[R:%.*]] = if {{.*}} : f32
# HELPER: mulf
# HELPER: yield
# HELPER: store %x, [[R]]


@triton.jit
def returns_two_types(v, flag):
    if flag > 0:
        return v
    return flag


@triton.jit
def mismatched(x, n):
    tl.store(x, returns_two_types(tl.load(x), n))

# MISMATCH: early_return.py:[[#@LINE-9]]:5: error: Return type mismatch: the paths through this if return fp32 scalar and int32 scalar; a returned value must have one type
