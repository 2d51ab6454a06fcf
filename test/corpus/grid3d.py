# A 3-D launch grid: program_id and num_programs on every axis, programs writing disjoint
# slices addressed from all three ids.
import triton
import triton.language as tl


@triton.jit
def grid3d_kernel(out_ptr, BLOCK: tl.constexpr):
    x = tl.program_id(0)
    y = tl.program_id(axis=1)
    z = tl.program_id(2)
    nx = tl.num_programs(0)
    ny = tl.num_programs(1)
    nz = tl.num_programs(axis=2)
    prog = (z * ny + y) * nx + x
    offs = prog * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, (x * 100 + y * 10 + z + nx * ny * nz * 1000).to(tl.float32) + offs * 0.0)

# RUN: -k grid3d_kernel -D BLOCK=4 --grid 3,2,2
# ARGS: out_ptr=empty:f32:48
# REF: v = [(x * 100 + y * 10 + z + 12000) for z in range(2) for y in range(2) for x in range(3)]
# REF: out_ptr = np.repeat(np.array(v, dtype=float), 4)
# EXPECT: out_ptr
# TOL: 0 0
