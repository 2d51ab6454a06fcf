"""Live host arrays by address, for kernels that turn integers into pointers (a pointer table of
`tensor.data_ptr()` values, as in grouped GEMM): the extension asks for them the first time a
launch meets an address no argument's array holds, and maps the one holding it for that launch."""
import gc
import sys
import warnings

from . import launcher


def candidates():
    """Objects that may be arrays: everything the garbage collector tracks (torch tensors are
    tracked), what those refer to (NumPy arrays are not tracked, but lists, dicts, instances and
    frames that hold them are), and the locals of every running frame."""
    objs = gc.get_objects()
    yield from objs
    yield from gc.get_referents(*objs)
    for frame in sys._current_frames().values():
        while frame is not None:
            yield from frame.f_locals.values()
            frame = frame.f_back


def live_arrays():
    """(allocation start, bytes, dtype name, read-only, owner, kind) of every live NumPy array
    (the root of its views: the memory it lies in) and torch CPU tensor (its storage), each
    allocation once. CUDA tensors are left out: the interpreter reads host memory."""
    np = sys.modules.get("numpy")
    torch = sys.modules.get("torch")
    types = tuple(t for t in (getattr(np, "ndarray", None), getattr(torch, "Tensor", None)) if t is not None)
    if not types:
        return []
    seen, out = set(), []
    with warnings.catch_warnings():  # isinstance on a deprecated module attribute warns (torch.distributed)
        warnings.simplefilter("ignore")
        arrays = [x for x in candidates() if isinstance(x, types)]
    for x in arrays:
        if torch is not None and isinstance(x, torch.Tensor) and x.device.type != "cpu":
            continue
        try:
            info = launcher._array_info(x)
        except Exception:  # an array whose memory cannot be described: not a candidate
            continue
        if info is None:
            continue
        _, start, nbytes, dtype, _, readonly, owner = info
        if not nbytes or (start, nbytes) in seen:
            continue
        seen.add((start, nbytes))
        kind = "ndarray" if np is not None and isinstance(x, np.ndarray) else "tensor"
        out.append((start, nbytes, dtype, bool(readonly), owner, kind))
    return out
