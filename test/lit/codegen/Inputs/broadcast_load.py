# A column vector read from memory and broadcast over a dot's scores (attention's backward:
# `qkT - m[None, :]`); with WRITE, the vector's memory is written between the load and the use.
import triton
import triton.language as tl


@triton.jit
def scores(A, B, M, S, WRITE: tl.constexpr):
    r = tl.arange(0, 64)
    a = tl.load(A + r[:, None] * 64 + r[None, :])
    b = tl.load(B + r[:, None] * 64 + r[None, :])
    m = tl.load(M + r)
    if WRITE:
        tl.store(M + r, m * 2.0)
    s = tl.dot(a, b) - m[None, :]
    tl.store(S + r[:, None] * 64 + r[None, :], s)


@triton.jit
def scores_loop(A, B, M, S, n):
    # The vector is loaded before the loop and written inside it after its use: a later
    # iteration re-reading it would see the new values.
    r = tl.arange(0, 64)
    a = tl.load(A + r[:, None] * 64 + r[None, :])
    b = tl.load(B + r[:, None] * 64 + r[None, :])
    m = tl.load(M + r)
    acc = tl.zeros([64, 64], dtype=tl.float32)
    for i in range(n):
        acc += tl.dot(a, b) - m[None, :]
        tl.store(M + r, m + i)
    tl.store(S + r[:, None] * 64 + r[None, :], acc)
