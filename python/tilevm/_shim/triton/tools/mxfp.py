"""triton.tools.mxfp: host-side microscaling formats of the OCP MX specification, as torch
uint8 tensors. MXFP4Tensor holds E2M1 codes (one per byte, in the low four bits: sign, two
exponent bits, one mantissa bit) and packs two per byte; MXScaleTensor holds E8M0 block scales
(2**(code - 127); 255 is NaN)."""
import torch

# The magnitudes of the eight E2M1 codes 0b000..0b111 (exponent bias 1, no inf or NaN).
_E2M1 = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)


class _MXTensor:
    """Codes in a torch uint8 tensor, made from float32 `data` (by the subclass's _from_float) or,
    given `size`, left for random() to fill."""

    def __init__(self, data=None, size=None, device=None):
        self.device = device
        if data is not None:
            if not isinstance(data, torch.Tensor):
                raise TypeError("Parameter data must be a torch tensor")
            self.device = data.device
            self.data = self._from_float(data)
        elif size is not None:
            self.size = size if isinstance(size, tuple) else (size, )
        else:
            raise ValueError("Either parameter data or size must be provided")


class MXFP4Tensor(_MXTensor):
    """E2M1 data: from float32 values (`data`, rounded to nearest, ties to even; beyond the
    range, NaN and inf clamp to +-6 keeping the sign) or, given `size`, filled by random()."""

    def random(self):
        """Uniformly random codes (every sign, exponent and mantissa)."""
        self.data = torch.randint(0, 16, size=self.size, dtype=torch.uint8, device=self.device)
        return self

    def to(self, dtype):
        """The values as float32 (the only conversion there is)."""
        if dtype != torch.float32:
            raise TypeError("Currently only float32 is supported for fp4e2m1 to float conversion")
        table = torch.tensor(_E2M1, dtype=torch.float32, device=self.data.device)
        magnitude = table[(self.data & 0x7).long()]
        return torch.where((self.data & 0x8) != 0, -magnitude, magnitude)

    def _from_float(self, values):
        values = values.to(torch.float32)
        sign = torch.signbit(values).to(torch.uint8)
        magnitude = values.abs()
        magnitude = torch.where(torch.isnan(values) | torch.isinf(values), torch.full_like(magnitude, 6.0), magnitude)
        table = torch.tensor(_E2M1, dtype=torch.float32, device=values.device)
        errors = (magnitude.reshape(-1, 1) - table.reshape(1, -1)).abs()
        best = errors.min(dim=1, keepdim=True).values
        # Among the nearest codes the even one (mantissa bit 0) wins a tie; past 6, 6 is nearest.
        odd = (torch.arange(8, device=values.device) % 2).reshape(1, -1).expand_as(errors)
        key = torch.where(errors == best, odd, torch.full_like(odd, 2))
        code = key.argmin(dim=1).to(torch.uint8).reshape(values.shape)
        return (sign << 3) | code

    def to_packed_tensor(self, dim):
        """Two codes per byte along `dim` (element 2i in the low nibble, 2i+1 in the high one),
        an odd length padded with a zero code."""
        data = self.data
        # Triton's check, its class (AssertionError) and words
        if not 0 <= dim < data.ndim:
            raise AssertionError("The dimension to pack along is not within the range of tensor dimensions")
        if data.size(dim) % 2:
            pad = [0] * (2 * data.ndim)
            pad[(data.ndim - dim - 1) * 2 + 1] = 1
            data = torch.nn.functional.pad(data, pad, mode="constant", value=0)
        shape = list(data.shape)
        shape[dim] //= 2
        shape.insert(dim + 1, 2)
        pairs = data.reshape(*shape)
        return (pairs.select(dim + 1, 1) << 4) | pairs.select(dim + 1, 0)

    def unpack_packed_tensor(self, packed_tensor, dim, original_shape):
        """The codes of a packed tensor, one per byte, `original_shape` restored (padding dropped)."""
        pairs = torch.stack((packed_tensor & 0xF, (packed_tensor >> 4) & 0xF), dim=dim + 1)
        shape = list(pairs.shape)
        data = pairs.reshape(*(shape[:dim] + [shape[dim] * 2] + shape[dim + 2:]))
        if original_shape[dim] % 2:
            index = [slice(None)] * data.ndim
            index[dim] = slice(0, original_shape[dim])
            data = data[tuple(index)]
        return data.to(torch.uint8)


class MXScaleTensor(_MXTensor):
    """E8M0 scales: from float32 values (`data`: 2**floor(log2(v)), clamped to codes 0..254;
    v <= 0, NaN and inf become the NaN code 255) or, given `size`, filled by random()."""

    def random(self, low=None, high=None):
        """Random codes for scales in [low, high] (powers of two; never the NaN code)."""
        bias = 127
        lo = 0 if low is None else max(0, int(torch.log2(torch.tensor(float(low)))) + bias)
        hi = 254 if high is None else min(254, max(0, int(torch.log2(torch.tensor(float(high)))) + bias))
        if lo > hi:
            raise ValueError("Low must be less than or equal to high")
        self.data = torch.randint(lo, hi + 1, size=self.size, dtype=torch.uint8, device=self.device)
        return self

    def to(self, dtype):
        if dtype != torch.float32:
            raise TypeError("Currently only float32 is supported for f8e8m0 to float conversion")
        codes = self.data.to(torch.float32)
        value = torch.pow(2.0, codes - 127)
        return torch.where(self.data == 255, torch.full_like(value, float("nan")), value)

    def _from_float(self, values):
        values = values.to(torch.float32)
        invalid = torch.isnan(values) | torch.isinf(values) | (values <= 0)
        safe = torch.where(invalid, torch.ones_like(values), values)
        codes = torch.clamp(torch.floor(torch.log2(safe)).to(torch.int32) + 127, 0, 254)
        return torch.where(invalid, torch.full_like(codes, 255), codes).to(torch.uint8)
