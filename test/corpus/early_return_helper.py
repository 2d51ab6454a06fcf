# Early returns: a kernel that stops programs past the end, nested runtime conditions, and a
# helper that returns different values on different paths.
import triton
import triton.language as tl


@triton.jit
def _pick(x, flag):
    if flag > 0:
        return x * 2.0
    return x - 1.0


@triton.jit
def early_kernel(x_ptr, out_ptr, flags_ptr, n, n_progs_used, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= n_progs_used:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    flag = tl.load(flags_ptr + pid)
    if flag < -50:
        if pid % 2 == 0:
            tl.store(out_ptr + offs, x * 0.0, mask=mask)
            return
        x = x + 100.0
    y = _pick(x, flag)
    tl.store(out_ptr + offs, y, mask=mask)

# RUN: -k early_kernel -D BLOCK=32 --grid 9
# ARGS: x_ptr=randn:f32:256 out_ptr=zeros:f32:256 flags_ptr=randint:i32:9 n=256 n_progs_used=8
# REF: out_ptr = np.zeros(256)
# REF: for p in range(8):
# REF:     x = x_ptr[p*32:(p+1)*32].copy(); f = flags_ptr[p]
# REF:     if f < -50 and p % 2 == 0:
# REF:         out_ptr[p*32:(p+1)*32] = 0; continue
# REF:     if f < -50: x = x + 100
# REF:     out_ptr[p*32:(p+1)*32] = x * 2 if f > 0 else x - 1
# EXPECT: out_ptr
