# RUN: not %tilevm compile %s -k narrow_load --signature 'x: *i32' 2>&1 | FileCheck %s --check-prefix=LOAD
# RUN: not %tilevm compile %s -k narrow_store --signature 'x: *i16' 2>&1 | FileCheck %s --check-prefix=STORE
# RUN: not %tilevm compile %s -k strided_last --signature 'x: *i32' 2>&1 | FileCheck %s --check-prefix=STRIDE
# RUN: %tilevm compile %s -k sixteen_bytes --signature 'x: *i32' -o /dev/null
# make_tensor_descriptor's layout checks, in Triton's words (semantic.py): a block row of at least
# 16 bytes, and a last stride of 1 when it is a constant.
import triton
import triton.language as tl


@triton.jit
def narrow_load(x):
    desc = tl.make_tensor_descriptor(x, [128, 128], [128, 1], [1, 2])
    desc.load([0, 0])
# LOAD: descriptor_layout.py:[[#@LINE-2]]:63: error: Descriptor block shape must have at least 16 bytes in the last dimension, but got 2 * 4 = 8 bytes


@triton.jit
def narrow_store(x):
    desc = tl.make_tensor_descriptor(x, [128, 128], [128, 1], [8, 4])
    desc.store([0, 0], tl.zeros([8, 4], dtype=tl.int16))
# STORE: descriptor_layout.py:[[#@LINE-2]]:63: error: Descriptor block shape must have at least 16 bytes in the last dimension, but got 4 * 2 = 8 bytes


@triton.jit
def strided_last(x):
    desc = tl.make_tensor_descriptor(x, [128, 128], [1, 128], [8, 8])
    desc.load([0, 0])
# STRIDE: descriptor_layout.py:[[#@LINE-2]]:53: error: Tensor descriptor last dim must be 1 but got 128


@triton.jit
def sixteen_bytes(x):
    desc = tl.make_tensor_descriptor(x, [128, 128], [128, 1], [1, 4])
    desc.store([0, 0], desc.load([0, 0]) + 1)


# RUN: not %tilevm compile %s -k gather_two_rows --signature 'x: *fp32, i: *i32' 2>&1 | FileCheck %s --check-prefix=ROWS
# RUN: not %tilevm compile %s -k gather_narrow --signature 'x: *fp16, i: *i32' 2>&1 | FileCheck %s --check-prefix=COLS
# RUN: not %tilevm compile %s -k scatter_few --signature 'x: *fp32, i: *i32' 2>&1 | FileCheck %s --check-prefix=FEW
@triton.jit
def gather_two_rows(x, i):
    d = tl.make_tensor_descriptor(x, [64, 64], [64, 1], [2, 32])
    d.gather(tl.load(i + tl.arange(0, 8)), 0)
# ROWS: descriptor_layout.py:[[#@LINE-1]]:{{[0-9]+}}: error: descriptor block must have 1 row, but got 2


@triton.jit
def gather_narrow(x, i):
    d = tl.make_tensor_descriptor(x, [64, 64], [64, 1], [1, 8])
    d.gather(tl.load(i + tl.arange(0, 8)), 0)
# COLS: descriptor_layout.py:[[#@LINE-1]]:{{[0-9]+}}: error: descriptor gather of fp16 must have at least 16 columns, but got 8


@triton.jit
def scatter_few(x, i):
    d = tl.make_tensor_descriptor(x, [64, 64], [64, 1], [1, 32])
    d.scatter(tl.zeros([4, 32], tl.float32), tl.load(i + tl.arange(0, 4)), 0)
# FEW: descriptor_layout.py:[[#@LINE-1]]:{{[0-9]+}}: error: descriptor scatter must have at least 8 rows, but got 4


# A host-made descriptor parameter that pads with NaN (Triton's padding="nan"): its loads read
# NaN past the edge; an integer one is refused, in Triton's words.
# RUN: %tilevm compile %s -k host_nan --signature 'd: tensordesc<*fp32:16x8:nan>, o: *fp32' --emit tile --no-locations | FileCheck %s --check-prefix=NAN
# RUN: not %tilevm compile %s -k host_nan --signature 'd: tensordesc<*i32:16x8:nan>, o: *i32' 2>&1 | FileCheck %s --check-prefix=INTNAN
@triton.jit
def host_nan(d, o):
    tl.store(o + tl.arange(0, 8), tl.sum(d.load([0, 0]), axis=0))
# NAN: constant {value = nan}
# INTNAN: <command line>: error: --signature: 'd': Padding option `nan` is not supported for integer blocks
