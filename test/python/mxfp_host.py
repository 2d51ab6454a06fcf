# triton.tools.mxfp on the host: E2M1 codes rounded to nearest with ties to even and clamped to
# +-6 (NaN and inf too), packed two per byte and unpacked back; E8M0 scales as powers of two with
# the NaN code 255 for values <= 0, NaN and inf.
import torch

from triton.tools.mxfp import MXFP4Tensor, MXScaleTensor

values = torch.tensor([0.0, -0.0, 0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0, 7.0, -100.0, float("nan"), float("inf"), -0.3, 2.9])
fp4 = MXFP4Tensor(values)
assert fp4.data.tolist() == [0, 8, 0, 2, 2, 4, 4, 6, 6, 7, 15, 7, 7, 9, 5], fp4.data.tolist()
assert fp4.to(torch.float32).tolist() == [0.0, -0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 4.0, 4.0, 6.0, -6.0, 6.0, 6.0, -0.5, 3.0]
codes = MXFP4Tensor(size=(3, 5)).random()
for dim in (0, 1):
    packed = codes.to_packed_tensor(dim)
    assert packed.shape[dim] == (codes.data.shape[dim] + 1) // 2 and packed.dtype == torch.uint8
    assert torch.equal(codes.unpack_packed_tensor(packed, dim, (3, 5)), codes.data), dim
assert MXFP4Tensor(torch.tensor([1.0, 6.0])).to_packed_tensor(0).tolist() == [(7 << 4) | 2]
scales = MXScaleTensor(torch.tensor([1.0, 3.0, 0.1, 0.0, -1.0, float("nan")]))
assert scales.data.tolist() == [127, 128, 123, 255, 255, 255], scales.data.tolist()
as_float = scales.to(torch.float32)
assert as_float[:3].tolist() == [1.0, 2.0, 0.0625] and torch.isnan(as_float[3:]).all()
drawn = MXScaleTensor(size=(256, )).random(low=0.5, high=64.0).data
assert int(drawn.min()) >= 126 and int(drawn.max()) <= 133, (drawn.min(), drawn.max())
print("mxfp4 codes round to nearest even and pack; e8m0 scales are powers of two")
