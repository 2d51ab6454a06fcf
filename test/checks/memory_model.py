# Kernels for the memory model and the findings policy (test/lit/checks/memory-model.test):
# pointer casts that view an f32 array as other element types, a pointer table cast to another
# type, pointer arithmetic past the address space, identical writes and stores of undefined lanes.
import triton
import triton.language as tl


@triton.jit
def fill_i8(x, y, BLOCK: tl.constexpr):
    # Every byte of f32 x written through an i8 view, then x read as f32: all defined.
    b = x.to(tl.pointer_type(tl.int8))
    tl.store(b + tl.arange(0, 4 * BLOCK), tl.full([4 * BLOCK], 0, tl.int8))
    tl.store(y + tl.arange(0, BLOCK), tl.load(x + tl.arange(0, BLOCK)) + 1.0)


@triton.jit
def fill_f16(x, y, BLOCK: tl.constexpr):
    h = x.to(tl.pointer_type(tl.float16))
    tl.store(h + tl.arange(0, 2 * BLOCK), tl.full([2 * BLOCK], 0.0, tl.float16))
    tl.store(y + tl.arange(0, BLOCK), tl.load(x + tl.arange(0, BLOCK)) + 1.0)


@triton.jit
def fill_f64(x, y, BLOCK: tl.constexpr):
    d = x.to(tl.pointer_type(tl.float64))
    tl.store(d + tl.arange(0, BLOCK // 2), tl.full([BLOCK // 2], 0.0, tl.float64))
    tl.store(y + tl.arange(0, BLOCK), tl.load(x + tl.arange(0, BLOCK)) + 1.0)


@triton.jit
def half_f16(x, y, BLOCK: tl.constexpr):
    # Only the first half of x's bytes written (as f16): the upper f32 elements were never written.
    h = x.to(tl.pointer_type(tl.float16))
    tl.store(h + tl.arange(0, BLOCK), tl.full([BLOCK], 0.0, tl.float16))
    tl.store(y + tl.arange(0, BLOCK), tl.load(x + tl.arange(0, BLOCK)))


@triton.jit
def i8_past_end(x, BLOCK: tl.constexpr):
    b = x.to(tl.pointer_type(tl.int8))
    offs = 4 * BLOCK - 4 + tl.arange(0, 8)
    tl.store(b + offs, tl.full([8], 1, tl.int8))


@triton.jit
def i8_race(x):
    # Programs 0 and 1 write bytes [2 pid, 2 pid + 4) of f32 x: bytes 2 and 3 in both.
    pid = tl.program_id(0)
    b = x.to(tl.pointer_type(tl.int8))
    tl.store(b + 2 * pid + tl.arange(0, 4), tl.full([4], 1, tl.int8) + pid.to(tl.int8))


@triton.jit
def table_i8(tab, y, BLOCK: tl.constexpr):
    # The f32 array behind a pointer table, written bytewise through an i8 pointer, read as f32.
    b = tl.load(tab).to(tl.pointer_type(tl.int8))
    tl.store(b + tl.arange(0, 4 * BLOCK), tl.full([4 * BLOCK], 0, tl.int8))
    f = tl.load(tab).to(tl.pointer_type(tl.float32))
    tl.store(y + tl.arange(0, BLOCK), tl.load(f + tl.arange(0, BLOCK)))


@triton.jit
def wrap(x, off):
    # x + off with off * 4 past 2^64: the element index, not the wrapped address, is checked.
    tl.store(x + off, 1.0)


@triton.jit
def wrap_tile(x, off):
    tl.store(x + off + tl.arange(0, 4), tl.full([4], 1.0, tl.float32))


@triton.jit
def same_value(out):
    # Every program writes the same bits to out[0]: a benign race (a note).
    tl.store(out, 7.0)


@triton.jit
def other_value(out):
    tl.store(out, tl.program_id(0).to(tl.float32))


@triton.jit
def poison_store(x, y, n, BLOCK: tl.constexpr):
    # Lanes past n come from a masked load without `other`: undefined in y (a warning).
    offs = tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs, mask=offs < n))


@triton.jit
def poison_read(x, y, z, n, BLOCK: tl.constexpr):
    # ... and reading those elements of y back is the error.
    offs = tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs, mask=offs < n))
    tl.store(z + offs, tl.load(y + offs))
