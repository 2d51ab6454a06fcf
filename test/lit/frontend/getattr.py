# RUN: %tilevm compile %s -k pick --signature 'x: *fp32, o: *fp32' -D FN='"maximum"' -D MODE='"ALL"' --emit tile --no-locations | FileCheck %s --check-prefix=PICK
# RUN: not %tilevm compile %s -k py_attr --signature 'o: *i32' 2>&1 | FileCheck %s --check-prefix=PYATTR
# RUN: not %tilevm compile %s -k missing --signature 'x: *fp32' 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not %tilevm compile %s -k name_type --signature 'x: *fp32' 2>&1 | FileCheck %s --check-prefix=NAME
# RUN: not %tilevm compile %s -k item_many --signature 'x: *fp32' 2>&1 | FileCheck %s --check-prefix=ITEM
# RUN: not %tilevm compile %s -k if_many --signature 'x: *fp32' 2>&1 | FileCheck %s --check-prefix=IF
# getattr/hasattr are answered at compile time, as Triton answers them (Python's own, on the
# values the kernel names); x.item() is a one-element reduce; an `if` on a one-element tile
# tests its element. Values: test/python/item_getattr.py.
import triton
import triton.language as tl


@triton.jit
def pick(x, o, FN: tl.constexpr, MODE: tl.constexpr):
    v = tl.load(x + tl.arange(0, 1))
    tl.store(o, getattr(tl, FN)(v.item(), 1.0, propagate_nan=getattr(tl.PropagateNan, MODE)))
# PICK-LABEL: kernel @pick
# PICK: reduce {{.*}} {axis = 0} : f32
# PICK: maximumf


@triton.jit
def py_attr(o):
    tl.store(o, getattr(3, "real"))
# PYATTR: getattr.py:[[#@LINE-1]]:{{[0-9]+}}: error: getattr(): tilevm does not model the attribute 'real' of constexpr 3


@triton.jit
def missing(x):
    tl.store(x, getattr(tl.load(x), "nope"))
# MISSING: getattr.py:[[#@LINE-1]]:{{[0-9]+}}: error: tensors have no attribute 'nope'


@triton.jit
def name_type(x):
    tl.store(x, hasattr(x, 3) * 1.0)
# NAME: getattr.py:[[#@LINE-1]]:{{[0-9]+}}: error: hasattr(): attribute name must be a constexpr string, got constexpr 3


@triton.jit
def item_many(x):
    tl.store(x, tl.load(x + tl.arange(0, 4)).item())
# ITEM: getattr.py:[[#@LINE-1]]:{{[0-9]+}}: error: tensor.item(): can only unsplat single-element tensors, got tile<4xf32>


@triton.jit
def if_many(x):
    if tl.load(x + tl.arange(0, 2)) > 0:
        tl.store(x, 1.0)
# IF: getattr.py:[[#@LINE-2]]:{{[0-9]+}}: error: an if condition must be a scalar, got tile<2xi1>
