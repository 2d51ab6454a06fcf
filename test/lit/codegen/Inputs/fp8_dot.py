# An fp8 dot and an e4b15 conversion (test/lit/codegen/fp8.test).
import triton
import triton.language as tl


@triton.jit
def fp8_dot(a_ptr, b_ptr, c_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    a = tl.load(a_ptr + r[:, None] * N + r[None, :])
    b = tl.load(b_ptr + r[:, None] * N + r[None, :])
    tl.store(c_ptr + r[:, None] * N + r[None, :], tl.dot(a, b))


@triton.jit
def to_e4b15(x_ptr, y_ptr, N: tl.constexpr):
    r = tl.arange(0, N)
    tl.store(y_ptr + r, tl.load(x_ptr + r).to(tl.float8e4b15))


@triton.jit
def fp8_dot_chunked(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, IMPRECISE: tl.constexpr):
    # Triton's max_num_imprecise_acc: every IMPRECISE elements of K summed apart, then added in f32.
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], tl.dot(a, b, max_num_imprecise_acc=IMPRECISE))
