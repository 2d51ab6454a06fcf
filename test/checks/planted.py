# Planted bugs, each reported exactly: kind, source line, program ids (test/checks/*.test run them).
import triton
import triton.language as tl


@triton.jit
def off_by_one(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs <= n                      # bug: should be offs < n
    tl.store(y + offs, tl.load(x + offs, mask=m) * 2, mask=m)


@triton.jit
def missing_mask(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n)
    tl.store(y + offs, v)              # bug: no mask on the store


@triton.jit
def same_row(x, y, stride, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    row = tl.minimum(pid, 2)           # bug: programs 2 and 3 both write row 2
    cols = tl.arange(0, BLOCK)
    tl.store(y + row * stride + cols, tl.load(x + pid * stride + cols))


@triton.jit
def unsynchronized_sum(x, total, BLOCK: tl.constexpr):
    v = tl.sum(tl.load(x + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)), axis=0)
    t = tl.load(total)                 # bug: read-modify-write without atomics
    tl.store(total, t + v)


@triton.jit
def reads_empty(x, y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs + 1))   # bug: x was never written past its first half


@triton.jit
def order_dependent(flag, out):
    pid = tl.program_id(0)
    seen = tl.load(flag)               # bug: the result depends on which program ran first
    tl.store(out + pid, seen)
    tl.store(flag, pid)


@triton.jit
def masked_garbage(x, y, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n)        # no `other`: masked lanes are undefined
    tl.store(y + offs, v)                       # bug: stores them anyway


@triton.jit
def locked_accumulate(x, acc, lock, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + tl.program_id(0) * BLOCK + cols)
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    tl.store(acc + cols, tl.load(acc + cols) + v)
    tl.atomic_xchg(lock, 0)


@triton.jit
def unlocked_accumulate(x, acc, lock, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + tl.program_id(0) * BLOCK + cols)
    tl.store(acc + cols, tl.load(acc + cols) + v)


@triton.jit
def failing_assert(x, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.device_assert(v < 5, "v must stay below 5")


@triton.jit
def conflicting_lanes(y, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y + offs // 2, offs)      # bug: lanes 2k and 2k+1 write different values to y[k]


@triton.jit
def waits_forever(flag, out):
    # bug: program 0 waits for a flag that only program 1 sets; run one at a time, it never ends
    if tl.program_id(0) == 0:
        while tl.atomic_add(flag, 0) == 0:
            pass
        tl.store(out, 1)
    else:
        tl.atomic_xchg(flag, 1)


@triton.jit
def tail_rows_overlap(x, y, stride, n_cols, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols                  # masked tails, as every row-wise kernel has them
    row = tl.load(x + tl.program_id(0) * n_cols + cols, mask=m, other=0.0)
    tl.store(y + tl.program_id(0) * stride + cols, row, mask=m)  # bug: stride < n_cols, rows overlap
