"""triton._internal_testing: the helpers Triton's unit tests import, for tilevm. The dtype lists
and the NumPy/torch conversions have Triton's meaning; the platform questions answer for where
tilevm runs the kernels: `is_interpreter()` is true on tilevm's checking interpreter
(`--device cpu`), and then no GPU predicate holds; under `--device cuda` the target is the GPU
(`is_cuda()` and the compute-capability predicates ask torch, as Triton's do)."""
import re

import numpy as np
import torch
from numpy.random import RandomState

import tilevm
import triton
import triton.language as tl
from triton.runtime.jit import TensorWrapper, reinterpret, type_canonicalisation_dict

int_dtypes = ['int8', 'int16', 'int32', 'int64']
uint_dtypes = ['uint8', 'uint16', 'uint32', 'uint64']
integral_dtypes = int_dtypes + uint_dtypes
float_dtypes = ['float16', 'float32', 'float64']
float_dtypes_with_bfloat16 = float_dtypes + ['bfloat16']
dtypes = integral_dtypes + float_dtypes
dtypes_with_bfloat16 = dtypes + ['bfloat16']
torch_float8_dtypes = ['float8_e4m3fn', 'float8_e5m2']
torch_dtypes = ['bool'] + int_dtypes + ['uint8'] + float_dtypes + ['bfloat16']
tma_dtypes = sorted(set(dtypes_with_bfloat16) - {"int64", "uint64", "float64"})


def is_interpreter():
    """True when kernels run on tilevm's interpreter (`--device cpu`, the default)."""
    return not str(tilevm.options.get("device", "cpu")).startswith("cuda")


def get_current_target():
    """The GPU target kernels are compiled for, or None on the interpreter."""
    if is_interpreter():
        return None
    return triton.runtime.driver.active.get_current_target()


def get_arch():
    """The target's architecture as a string ("" on the interpreter), as Triton's."""
    target = get_current_target()
    return "" if target is None else str(target.arch)


def _backend_is(name):
    target = get_current_target()
    return target is not None and target.backend == name


def is_cuda():
    return _backend_is("cuda")


def _capability():
    return torch.cuda.get_device_capability() if is_cuda() else (0, 0)


def is_ampere_or_newer():
    return is_cuda() and _capability()[0] >= 8


def is_blackwell():
    return is_cuda() and _capability()[0] in (10, 11)


def is_blackwell_ultra():
    return is_cuda() and _capability()[0:2] == (10, 3)


def is_rubin():
    return is_cuda() and _capability()[0:2] == (10, 7)


def is_hopper_or_newer():
    return is_cuda() and _capability()[0] >= 9


def is_hopper():
    return is_cuda() and _capability()[0] == 9


def is_sm12x():
    return is_cuda() and _capability()[0] == 12


# tilevm compiles for NVIDIA GPUs only: no HIP or XPU target is ever current.
def is_hip():
    return _backend_is("hip")


def _hip_arch(test):
    target = get_current_target()
    return target is not None and target.backend == "hip" and test(str(target.arch))


def is_hip_cdna2():
    return _hip_arch(lambda a: a == "gfx90a")


def is_hip_cdna3():
    return _hip_arch(lambda a: a == "gfx942")


def is_hip_cdna4():
    return _hip_arch(lambda a: a == "gfx950")


def is_hip_rdna3():
    return _hip_arch(lambda a: "gfx11" in a)


def is_hip_rdna4():
    return _hip_arch(lambda a: "gfx120" in a)


# The names Triton's tests used for RDNA3/RDNA4 before it renamed them.
is_hip_gfx11 = is_hip_rdna3
is_hip_gfx12 = is_hip_rdna4


def is_hip_gfx1250():
    return _hip_arch(lambda a: "gfx1250" in a)


def is_hip_cdna3_or_newer():
    return is_hip_cdna3() or is_hip_cdna4()


def is_hip_cdna():
    return is_hip_cdna2() or is_hip_cdna3() or is_hip_cdna4()


def is_hip_rdna():
    return is_hip_rdna3() or is_hip_rdna4()


def get_hip_lds_size():
    return 163840 if is_hip_cdna4() else 65536


def is_xpu():
    return _backend_is("xpu")


def numpy_random(shape, dtype_str, rs=None, low=None, high=None):
    """Random values of `dtype_str` (never 0 for integers, so division tests do not divide by
    zero); pass `rs` to draw two different arrays."""
    if isinstance(shape, int):
        shape = (shape, )
    if rs is None:
        rs = RandomState(seed=17)
    if dtype_str in int_dtypes + uint_dtypes:
        iinfo = np.iinfo(getattr(np, dtype_str))
        low = iinfo.min if low is None else max(low, iinfo.min)
        high = iinfo.max if high is None else min(high, iinfo.max)
        x = rs.randint(low, high, shape, dtype=getattr(np, dtype_str))
        x[x == 0] = 1
        return x
    if dtype_str and 'float8' in dtype_str:
        return rs.randint(20, 40, shape, dtype=np.int8)
    if dtype_str in float_dtypes:
        return rs.normal(0, 1, shape).astype(dtype_str)
    if dtype_str == 'bfloat16':  # float32 values that bfloat16 holds exactly
        return (rs.normal(0, 1, shape).astype('float32').view('uint32') & np.uint32(0xffff0000)).view('float32')
    if dtype_str in ('bool', 'int1', 'bool_'):
        return rs.normal(0, 1, shape) > 0.0
    raise RuntimeError(f'Unknown dtype {dtype_str}')


def to_triton(x, device, dst_type=None):
    """A NumPy array as the tensor a kernel takes: unsigned arrays as their signed twins'
    memory reinterpreted (TensorWrapper), float32 as bfloat16 when `dst_type` says so."""
    t = x.dtype.name
    if t in uint_dtypes:
        signed = x.astype(getattr(np, t[1:]))  # uint16 -> int16: the same bits
        return reinterpret(torch.tensor(signed, device=device), getattr(tl, t))
    if dst_type and 'float8' in dst_type:
        return reinterpret(torch.tensor(x, device=device), getattr(tl, dst_type))
    if t == 'float32' and dst_type == 'bfloat16':
        return torch.tensor(x, device=device).bfloat16()
    return torch.tensor(x, device=device)


def str_to_triton_dtype(x):
    return tl.str_to_ty(type_canonicalisation_dict[x], None)


def torch_dtype_name(dtype):
    if isinstance(dtype, tl.dtype):
        return dtype.name
    if isinstance(dtype, torch.dtype):
        return re.match(r'^torch\.(\w+)$', str(dtype)).group(1)
    raise TypeError(f'not a triton or torch dtype: {type(dtype)}')


def to_numpy(x):
    if isinstance(x, TensorWrapper):
        return x.base.cpu().numpy().astype(getattr(np, torch_dtype_name(x.dtype)))
    if isinstance(x, torch.Tensor):
        if x.dtype is torch.bfloat16:
            return x.cpu().float().numpy()
        return x.cpu().numpy()
    raise ValueError(f"Not a triton-compatible tensor: {x}")


def supports_tma(byval_only=False):
    """Tensor descriptors: the interpreter has them; on a GPU, Hopper or newer."""
    return is_interpreter() or is_hopper_or_newer()


def supports_ws():
    return is_interpreter() or is_hopper_or_newer()


def tma_skip_msg(byval_only=False):
    if byval_only:
        return "Requires __grid_constant__ TMA support (NVIDIA Hopper or higher, CUDA 12.0 or higher)"
    return "Requires advanced TMA support (NVIDIA Hopper or higher, CUDA 12.3 or higher)"


def _requires_tma():
    import pytest
    return pytest.mark.skipif(not supports_tma(), reason=tma_skip_msg())


def __getattr__(name):
    if name == "requires_tma":  # a pytest mark: pytest is imported only by programs that use it
        return _requires_tma()
    raise AttributeError(f"module 'triton._internal_testing' has no attribute '{name}'")


def default_alloc_fn(size, align, _):
    """The scratch allocator Triton's tests install: device memory of torch's active device."""
    return torch.empty(size, dtype=torch.int8, device=triton.runtime.driver.active.get_active_torch_device())


def unwrap_tensor(t):
    return t.base if isinstance(t, TensorWrapper) else t


def _fresh_knobs_impl(skipped_attr=None):
    """Triton's helper of the `fresh_knobs` fixtures: (fresh, reset) functions that replace each
    knob group of triton.knobs (but those in `skipped_attr`) by a copy on its defaults, with the
    groups' environment variables removed, and put the groups and variables back."""
    import os

    import pytest
    from triton import knobs

    skipped_attr = skipped_attr or set()
    monkeypatch = pytest.MonkeyPatch()
    groups = {name: group for name, group in knobs.__dict__.items()
              if isinstance(group, knobs.base_knobs) and name not in skipped_attr}
    to_unset = []
    propagate = knobs.propagate_env

    def fresh_function():
        for name, group in groups.items():
            setattr(knobs, name, group.copy().reset())
            for knob in group.knob_descriptors.values():
                if knob.key in os.environ:
                    monkeypatch.delenv(knob.key, raising=False)
                else:
                    to_unset.append(knob.key)
        knobs.propagate_env = True
        return knobs

    def reset_function():
        for name, group in groups.items():
            setattr(knobs, name, group)
        monkeypatch.undo()  # before deleting: it may restore what it deleted
        for key in to_unset:
            os.environ.pop(key, None)
        knobs.propagate_env = propagate

    return fresh_function, reset_function
