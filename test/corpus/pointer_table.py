# Pointer tables, as in grouped GEMM: an int64 array of the addresses of other arrays, loaded
# and cast to typed pointers with tl.pointer_type (given to tilevm as ptrs:A,B,...).
import triton
import triton.language as tl


@triton.jit
def grouped_axpy_kernel(src_ptrs, dst_ptrs, sizes_ptr, alpha, BLOCK: tl.constexpr):
    g = tl.program_id(0)
    n = tl.load(sizes_ptr + g)
    src = tl.load(src_ptrs + g).to(tl.pointer_type(tl.float32))
    dst_addr = tl.load(dst_ptrs + g)
    dst = dst_addr.to(tl.pointer_type(tl.float32))
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(src + offs, mask=m)
        tl.store(dst + offs, alpha * x + (g + 1), mask=m)

# RUN: -k grouped_axpy_kernel -D BLOCK=32 --grid 3
# ARGS: a=randn:f32:50 b=randn:f32:100 c=randn:f32:7 oa=empty:f32:50 ob=empty:f32:100 oc=empty:f32:7
# ARGS: src_ptrs=ptrs:a,b,c dst_ptrs=ptrs:oa,ob,oc sizes_ptr=list:i32:50,100,7 alpha=0.5
# REF: oa = 0.5 * a + 1; ob = 0.5 * b + 2; oc = 0.5 * c + 3
# EXPECT: oa ob oc
