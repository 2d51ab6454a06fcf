# torch CUDA tensors straight into a kernel under `python3 -m tilevm --device cuda` (the GPU
# machine only: run_scripts.sh runs this folder with TILEVM_TEST_GPU=1): a strided view, fp16,
# results compared with torch on the GPU.
import torch
import triton
import triton.language as tl


@triton.jit
def scale_rows(x_ptr, y_ptr, stride_x, stride_y, n_cols, alpha, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride_y + cols, (x * alpha).to(y_ptr.dtype.element_ty), mask=mask)


base = torch.randn(64, 300, device="cuda", dtype=torch.float16)
x = base[::2, 10:260]  # a strided view: every other row, 250 columns
y = torch.empty(32, 250, device="cuda", dtype=torch.float16)
scale_rows[(32,)](x, y, x.stride(0), y.stride(0), 250, 1.5, BLOCK=256)
torch.testing.assert_close(y, (x.float() * 1.5).half())
assert base.is_cuda and y.is_cuda
# Used in place: no byte crossed between host and GPU for this launch.
import tilevm
assert tilevm.last_launch["copied_bytes"] == 0, tilevm.last_launch
# CPU tensors on the GPU engine are copied in and back (x's whole allocation, y's).
xc, yc = base.cpu(), torch.empty(32, 250, dtype=torch.float16)
scale_rows[(32,)](xc[::2, 10:260], yc, 2 * 300, 250, 250, 1.5, BLOCK=256)
torch.testing.assert_close(yc, (xc[::2, 10:260].float() * 1.5).half())
assert tilevm.last_launch["copied_bytes"] == 2 * (64 * 300 * 2) + 2 * (32 * 250 * 2), tilevm.last_launch
print("cuda_tensors: ok (strided fp16 view on the GPU, in place; CPU tensors copied)")
