# A histogram with atomic adds (programs race only through atomics), and an atomic max of
# per-program maxima: the results do not depend on the schedule.
import triton
import triton.language as tl


@triton.jit
def histogram_kernel(x_ptr, bins_ptr, gmax_ptr, n, NUM_BINS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    b = tl.minimum(tl.maximum(x, 0), NUM_BINS - 1)
    tl.atomic_add(bins_ptr + b, 1, mask=m)
    tl.atomic_max(gmax_ptr, tl.max(tl.where(m, x, -1000), axis=0))

# RUN: -k histogram_kernel -D NUM_BINS=16 -D BLOCK=128 --grid 8 --schedule random:7
# ARGS: x_ptr=randint:i32:1000 bins_ptr=zeros:i32:16 gmax_ptr=full=-1000:i32:1 n=1000
# REF: b = np.clip(x_ptr, 0, 15).astype(int); bins_ptr = np.bincount(b, minlength=16)
# REF: gmax_ptr = np.array([x_ptr.max()])
# EXPECT: bins_ptr gmax_ptr
# TOL: 0 0
