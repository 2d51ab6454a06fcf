"""pytest_torch113_half.py - a pytest plugin (`-p pytest_torch113_half`, this folder on
PYTHONPATH) for running Triton's unit tests' host code under torch 1.13 on the CPU, which lacks
what torch 2 has: Half/BFloat16 `clamp_` and `matmul` (done in fp32 and rounded back), the
`torch.float8_e4m3fn`/`float8_e5m2` names (placeholders, so the tests' dtype tables build; no
tensor can take them) and `torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction`
(a flag kept here). Kernels are untouched: it changes only the tests' reference computations."""
import torch
import torch.backends.cuda as _cuda_backends

_clamp_ = torch.Tensor.clamp_
_matmul = torch.matmul


def _clamp_half(self, *args, **kwargs):
    if self.dtype in (torch.float16, torch.bfloat16) and self.device.type == "cpu":
        self.copy_(self.float().clamp(*args, **kwargs).to(self.dtype))
        return self
    return _clamp_(self, *args, **kwargs)


def _matmul_half(a, b, **kwargs):
    if a.dtype in (torch.float16, torch.bfloat16) and a.device.type == "cpu":
        return _matmul(a.float(), b.float()).to(a.dtype)
    return _matmul(a, b, **kwargs)


torch.Tensor.clamp_ = _clamp_half
torch.matmul = _matmul_half
for _name in ("float8_e4m3fn", "float8_e5m2"):
    if not hasattr(torch, _name):
        setattr(torch, _name, object())

_flags = {}
_module = type(_cuda_backends.matmul)
_getattr, _setattr = _module.__getattr__, _module.__setattr__


def _get(self, name):
    if name == "allow_bf16_reduced_precision_reduction":
        return _flags.get(name, True)
    return _getattr(self, name)


def _set(self, name, value):
    if name == "allow_bf16_reduced_precision_reduction":
        _flags[name] = value
        return None
    return _setattr(self, name, value)


_module.__getattr__, _module.__setattr__ = _get, _set
