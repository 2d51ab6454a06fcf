# while loops on runtime conditions with several carried values (Euclid's gcd per program,
# and a bounded iteration count), and a for loop with a runtime step.
import triton
import triton.language as tl


@triton.jit
def gcd_kernel(a_ptr, b_ptr, out_ptr, steps_ptr):
    i = tl.program_id(0)
    a = tl.abs(tl.load(a_ptr + i)) + 1
    b = tl.abs(tl.load(b_ptr + i)) + 1
    steps = 0
    while b != 0:
        t = b
        b = a % b
        a = t
        steps += 1
    tl.store(out_ptr + i, a)
    tl.store(steps_ptr + i, steps)


@triton.jit
def strided_sum_kernel(x_ptr, out_ptr, n, step):
    acc = 0.0
    for i in range(0, n, step):
        acc += tl.load(x_ptr + i)
    tl.store(out_ptr, acc)

# RUN: -k gcd_kernel --grid 20
# ARGS: a_ptr=randint:i32:20 b_ptr=randint:i32:20 out_ptr=empty:i32:20 steps_ptr=empty:i32:20
# REF: import math
# REF: A = np.abs(a_ptr).astype(int) + 1; B = np.abs(b_ptr).astype(int) + 1
# REF: out_ptr = np.array([math.gcd(a, b) for a, b in zip(A, B)])
# REF: def steps(a, b):
# REF:     s = 0
# REF:     while b: a, b, s = b, a % b, s + 1
# REF:     return s
# REF: steps_ptr = np.array([steps(a, b) for a, b in zip(A, B)])
# EXPECT: out_ptr steps_ptr
# TOL: 0 0
# RUN: -k strided_sum_kernel --grid 1
# ARGS: x_ptr=randn:f32:100 out_ptr=empty:f32:1 n=100 step=3
# REF: out_ptr = np.array([x_ptr[::3].sum()])
# EXPECT: out_ptr
