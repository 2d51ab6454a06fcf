"""One launch checked: the kernel run on tilevm's interpreter (every check on) from copies of the
launch's inputs, then each array argument compared with what the GPU left in it, by `tilevm
diff`'s comparison and default tolerance (runtime/Compare.h, through the extension)."""
import contextlib
import io
import warnings
from dataclasses import dataclass, field
from typing import List, Optional

import numpy as np

import tilevm
from . import _tilevm
from . import launcher
from . import diff_live as live
from . import diff_snapshot as snapshot
from . import diff_tables as tables


@dataclass
class BufferDiff:
    """One array argument compared: compare_buffers' result (elements, mismatches, first, ...),
    and the program of the interpreter that first wrote the first divergent element ((x, y, z);
    "none": no program wrote it; None: not known), with the source location of that store."""
    name: str
    dtype: str
    shape: tuple
    result: dict
    writer: Optional[tuple] = None
    writer_loc: str = ""

    @property
    def diverged(self):
        return self.result["first"] is not None or bool(self.result["shape_error"])


@dataclass
class LaunchDiff:
    """A launch's comparison. `error`: why it could not be compared (the kernel does not compile
    for tilevm, an argument it cannot take); then `buffers` is empty."""
    kernel: str
    grid: tuple
    site: str = ""
    buffers: List[BufferDiff] = field(default_factory=list)
    tolerance: dict = field(default_factory=dict)
    findings: int = 0  # the interpreter's errors and warnings on this launch
    report: str = ""   # their text (tilevm run's)
    error: str = ""
    # A sample: the programs (linear ids) the interpreter ran, of `programs` in the grid; then
    # only the elements they changed are compared.
    sampled: tuple = ()
    programs: int = 0
    # {buffer: byte ranges} the interpreter's run left undefined in each tensor's storage (what a
    # later launch reading them reads uninitialized); None when not known (a sample, an error).
    undefined: Optional[dict] = None

    @property
    def diverged(self):
        return any(b.diverged for b in self.buffers)

    @property
    def first(self):
        """The first divergent buffer, or None."""
        return next((b for b in self.buffers if b.diverged), None)


# Findings after which the interpreter's buffers hold a partial result (--timeout, --fuel).
_UNFINISHED = {"timeout", "no-termination", "interrupted"}


def _run(kernel, grid, values, num_warps, num_stages, access="", programs=()):
    """Runs the kernel on the interpreter over `values` (changed in place): the launch's result
    (tilevm.last_launch), findings left in it rather than raised, its device_print output not
    printed (the GPU's is the script's)."""
    o = tilevm.options
    saved = dict(o)
    o.update(device="cpu", warn=False)
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")  # stores of undefined lanes: counted in the result
            try:
                return launcher.launch(kernel, grid, (), values, num_warps=num_warps, num_stages=num_stages, access=access,
                                       programs=programs)
            except tilevm.KernelError:
                return tilevm.last_launch  # set before raising: findings, report
    finally:
        o.clear()
        o.update(saved)


def _pid(linear, grid):
    gx, gy, _ = grid
    return (linear % gx, (linear // gx) % gy, linear // (gx * gy))


def sample_programs(grid, count):
    """At most `count` linear program ids of the grid, ascending: the first, the last and the
    rest spread evenly between (every program when the grid has no more)."""
    total = grid[0] * grid[1] * grid[2]
    if total <= count:
        return tuple(range(total))
    if count <= 1:
        return (0, )
    return tuple(sorted({round(i * (total - 1) / (count - 1)) for i in range(count)}))


def diff_launch(jit, values, grid, gpu, num_warps=4, num_stages=1, site="", writers=True, programs=(), undefined=None,
                pointed=None):
    """Compares a launch's GPU results with tilevm's interpreter.

    jit:    the kernel: a Triton JITFunction (or tilevm's)
    values: {parameter: value} bound in the kernel's order, constexprs included; arrays are the
            inputs as they were before the launch (left unchanged: the interpreter runs on copies)
    grid:   3 ints
    gpu:    {parameter: array}: what the launch left in each array argument (CPU copies)
    writers: on a divergence, run once more to find which program wrote the element
    programs: a sample (ascending linear ids) to run instead of the whole grid: then only the
            elements the sampled programs changed (bytes different from the input) are compared,
            and races and reads of never-written elements are judged among them alone
    undefined: {buffer: byte ranges of its tensor's storage} that hold no value yet (torch.empty's
            memory, what earlier launches left undefined): reading them is a finding
    pointed: (pointees, before, after) of the tensors pointer-table arguments point into
            (diff_tables.py): [Pointee], and {label: CPU copy} before the launch and after it
    """
    kernel = live.kernel_of(jit)
    grid = tuple(int(g) for g in grid) + (1,) * (3 - len(grid))
    d = LaunchDiff(kernel=kernel.__name__, grid=grid, site=site, sampled=tuple(programs), programs=grid[0] * grid[1] * grid[2])
    try:
        ran = snapshot.copy_values(values)
        storages = _mark_undefined(ran, undefined)
        targets, saved = {}, []
        if pointed:  # the tables' copies hold the addresses of the pointees' copies for this run
            targets = tables.copies(pointed[1])
            saved = tables.point_tables(ran, pointed[0], targets)
        try:
            result = _run(kernel, grid, ran, num_warps, num_stages, programs=d.sampled)
        finally:
            tables.restore(saved)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as e:  # a kernel or argument tilevm cannot take: said, never a pass
        d.error = f"{type(e).__name__}: {e}"
        return d
    if not d.sampled:  # a sample's leaves unsampled programs' writes out
        d.undefined = {buf: _tilevm.undefined_ranges(address) for buf, address in storages.items()}
    d.findings = int(result["findings"]) + int(result["warnings"])
    d.report = result["report"] if d.findings else ""
    unfinished = sorted(set(result.get("kinds", ())) & _UNFINISHED)
    if unfinished:  # its buffers hold a partial result: comparing them would report the stop
        d.error = f"the interpreter's run did not finish ({', '.join(unfinished)}: see its findings)"
        return d
    try:
        _compare(d, kernel, result, ran, gpu, values if d.sampled else None)
        for label, expected in targets.items():
            _compare_array(d, label, expected, pointed[2][label], snapshot.dtype_name(expected),
                           pointed[1][label] if d.sampled else None)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as e:  # an array tilevm cannot compare (its dtype): said, never a pass
        d.error, d.buffers = f"{type(e).__name__}: {e}", []
        return d
    first = d.first
    if writers and first is not None and first.result["first"] is not None and first.name not in targets:  # an argument
        first.writer, first.writer_loc = _writer(kernel, grid, values, first, num_warps, num_stages, d.sampled, undefined)
    return d


def _mark_undefined(ran, undefined):
    """Records `undefined` ({buffer: byte ranges}) for the interpreter's copies in `ran`; returns
    {buffer: storage address} of each tensor copy (where the launch's leftovers are read)."""
    storages = {}
    for name, v in ran.items():
        for buf, a, _ in snapshot.arrays_of(name, v):
            if not snapshot.is_tensor(a):
                continue
            address, nbytes = snapshot.tensor_storage(a)
            storages[buf] = address
            if undefined and undefined.get(buf):  # the owner of the memory, as the launch binds it
                _tilevm.mark_undefined(snapshot.tensor_root(a), address, nbytes, undefined[buf])
    return storages


def _only_changed(expected, actual, before, itemsize):
    """`actual`'s bytes with every element the interpreter left as it was (`expected` equal to
    `before`) replaced by the interpreter's: a sampled run compares only what its programs wrote."""
    e = np.asarray(expected).reshape(-1, itemsize)
    a = np.array(actual, copy=True).reshape(-1, itemsize)
    b = np.asarray(before).reshape(-1, itemsize)
    same = (e == b).all(axis=1)
    a[same] = e[same]
    return a.reshape(-1)


def _compare(d, kernel, result, ran, gpu, before=None):
    """Fills d.tolerance and d.buffers: each array of `ran` (the interpreter's) against `gpu`
    (with `before`, the inputs of a sampled run: only the elements it changed)."""
    serial, unit = kernel._tilevm_unit()
    d.tolerance = dict(_tilevm.diff_tolerance(result["signature"], result["defines"], unit, serial))
    for name, v in ran.items():
        arrays = snapshot.arrays_of(name, v)
        if not arrays:
            continue
        gpu_arrays = {n: a for n, a, _ in snapshot.arrays_of(name, gpu[name])} if name in gpu else {}
        for buf, expected, ty in arrays:
            actual = gpu_arrays.get(buf)
            if actual is None:
                raise ValueError(f"no GPU result for argument '{buf}'")
            original = {n: a for n, a, _ in snapshot.arrays_of(name, before[name])}[buf] if before is not None else None
            _compare_array(d, buf, expected, actual, ty or snapshot.dtype_name(expected), original)


def _compare_array(d, buf, expected, actual, ty, original=None):
    """Appends to d.buffers the comparison of array `buf`: the interpreter's `expected` against the
    GPU's `actual` (of a sampled run: only the elements changed from `original`)."""
    tilevm_ty = launcher._element_type(buf, ty)
    shape = tuple(int(s) for s in expected.shape)
    expected_bytes, actual_bytes = snapshot.contiguous_bytes(expected), snapshot.contiguous_bytes(actual)
    if original is not None and len(expected_bytes) and len(expected_bytes) == len(actual_bytes):
        itemsize = len(expected_bytes) // max(1, int(np.prod(shape)))
        actual_bytes = _only_changed(expected_bytes, actual_bytes, snapshot.contiguous_bytes(original), itemsize)
    r = dict(_tilevm.compare_buffers(buf, tilevm_ty, list(shape), expected_bytes, actual_bytes, d.tolerance))
    if r["first"] is not None:
        r["first"] = _values_as(tilevm_ty, dict(r["first"]), expected, actual)
    d.buffers.append(BufferDiff(buf, tilevm_ty, shape, r))


_UNSIGNED_BITS = {"u8": 8, "u16": 16, "u32": 32, "u64": 64}


def _values_as(ty, first, expected, actual):
    """The first divergence's values as `ty` reads them: compare_buffers prints the IR's integer
    kinds, which are signless (an unsigned element as its signed twin), and fp8 elements as
    integers; here unsigned ones are printed unsigned and fp8 tensors' as floats (a TensorWrapper
    of fp8 keeps compare_buffers' text)."""
    if ty in _UNSIGNED_BITS:
        for k in ("expected", "actual"):
            v = int(first[k])
            first[k] = str(v + (1 << _UNSIGNED_BITS[ty]) if v < 0 else v)
    elif ty.startswith("fp8") and snapshot.is_tensor(expected) and "float8" in str(expected.dtype):  # torch 2's fp8
        for k, a in (("expected", expected), ("actual", actual)):
            first[k] = f"{float(a.detach().reshape(-1)[first['flat']].float()):.9g}"
    return first


def _writer(kernel, grid, values, buf, num_warps, num_stages, programs=(), undefined=None):
    """(the program (x, y, z) of the interpreter that first wrote buf's first divergent element,
    "file:line:col" of that store): a second run recording that buffer's writers; ("none", "")
    when no program wrote it; (None, "") when the second run could not tell."""
    again = snapshot.copy_values(values)
    _mark_undefined(again, undefined)
    array = next(a for n, v in again.items() for b, a, _ in snapshot.arrays_of(n, v) if b == buf.name)
    try:
        result = _run(kernel, grid, again, num_warps, num_stages, access=buf.name, programs=programs)
    except Exception:
        return None, ""
    if result.get("writers") is None:
        return None, ""
    ids = np.frombuffer(result["writers"], dtype=np.uint32)
    at = snapshot.element_offset(array, buf.result["first"]["index"])
    if not 0 <= at < len(ids):
        return None, ""
    if ids[at] == 0:
        return "none", ""
    ops, locs = result.get("writer_ops"), result.get("op_locs") or []
    op = int(np.frombuffer(ops, dtype=np.uint32)[at]) if ops is not None else 0
    return _pid(int(ids[at]) - 1, grid), (locs[op - 1] if 0 < op <= len(locs) else "")
