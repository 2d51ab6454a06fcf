# RUN: %tilevm compile %s -k fold --signature 'o: *i32' --emit tile --no-locations | FileCheck %s
# RUN: %tilevm compile %s -k fold -D SCALE=5 -D USE_BIAS=False --signature 'o: *i32' --emit tile --no-locations | FileCheck %s --check-prefix=DEFINED
# RUN: %tilevm compile %s -k lifted --signature 'o: *i32' --emit tile --no-locations | FileCheck %s --check-prefix=LIFTED
# Constexprs (parameters and `x: tl.constexpr = ...`) fold at compile time with Python's semantics; `if` on a constexpr prunes;
# static_range unrolls; module-level constants are visible.
import triton
import triton.language as tl
import torch  # host-only imports are fine

OFFSET = 10
HALF = OFFSET // 2


@triton.jit
def fold(o, SCALE: tl.constexpr = 3, USE_BIAS: tl.constexpr = True):
    v: tl.constexpr = SCALE * 7 + HALF       # 26 (or 40 with SCALE=5)
    w: tl.constexpr = -7 // 2                # Python floor division: -4
    r: tl.constexpr = -7 % 3                 # Python modulo: 2
    big: tl.constexpr = max(SCALE, 4) + min(1, 2)
    if USE_BIAS:
        bias: tl.constexpr = 100
    else:
        bias: tl.constexpr = -100
    for i in tl.static_range(3):
        tl.store(o + i, v + bias + i)
    tl.store(o + 3, w * 1000 + r * 10 + big)


@triton.jit
def lifted(o):
    # A plain assignment makes a number a scalar tensor (int32 here), as Triton's does: the sum
    # is an addi, not a folded constant.
    n = 7
    tl.store(o, n + 1)

# CHECK-LABEL: kernel @fold(%o: ptr<i32>)
# CHECK-NEXT: [[C0:%[0-9]+]] = constant {value = 0} : i32
# CHECK-NEXT: [[P0:%[0-9]+]] = addptr %o, [[C0]] : ptr<i32>
# CHECK-NEXT: [[V0:%[0-9]+]] = constant {value = 126} : i32
# CHECK-NEXT: store [[P0]], [[V0]]
# CHECK:      constant {value = 127} : i32
# CHECK:      constant {value = 128} : i32
# CHECK:      constant {value = -3975} : i32
# CHECK-NOT:  addi
# CHECK-NOT:  if
# CHECK:      return

# DEFINED: constant {value = -60} : i32
# DEFINED: constant {value = -59} : i32
# DEFINED: constant {value = -58} : i32
# DEFINED: constant {value = -3974} : i32

# LIFTED: [[N:%[0-9]+]] = constant {value = 7} : i32
# LIFTED: [[ONE:%[0-9]+]] = constant {value = 1} : i32
# LIFTED: addi [[N]], [[ONE]] : i32
