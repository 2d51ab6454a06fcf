"""Memory torch handed out uninitialized (torch.empty, empty_like, empty_strided, new_empty) that
nothing has written yet, so that a kernel reading it is an uninitialized-read finding, as a read of
what an earlier launch left undefined is.

A record is kept per storage (by device and address): the byte ranges still undefined, the tensor
allocated (by weak reference) and its version counter (torch's `_version`, shared by its views,
advanced by every in-place torch operation: `copy_`, `fill_`, `out=`, indexing assignment). It
holds while that tensor lives, its storage is where it was and its version is unchanged; a kernel
launch that writes the memory replaces the ranges (`update`) or drops the record (`forget`, when
what the launch wrote is not known). The ways to write a tensor's memory that torch does not
count (`.data`, `.numpy()`, `__array__`, `__dlpack__`) drop the record when taken: from then on
the memory counts as written."""
import functools
import sys
import weakref

from . import diff_snapshot as snapshot

_FUNCTIONS = ("empty", "empty_like", "empty_strided")


def _storage(t):
    """(device, address, bytes) of tensor t's storage."""
    return (str(t.device),) + snapshot.tensor_storage(t)


class _Record:
    __slots__ = ("tensor", "version", "ranges")

    def __init__(self, tensor, ranges):
        self.tensor = weakref.ref(tensor)
        self.version = tensor._version
        self.ranges = ranges


class FreshMemory:
    """The process's records of uninitialized torch memory."""

    def __init__(self):
        self._records = {}

    def __len__(self):
        """Storages recorded (0: nothing to look up)."""
        return len(self._records)

    def allocated(self, t):
        """Records tensor t (just returned by an uninitialized allocation) as undefined."""
        try:
            device, address, nbytes = _storage(t)
            if nbytes:
                self._records[(device, address)] = _Record(t, [(0, nbytes)])
        except Exception:  # no storage (meta), no version counter (inference mode): not tracked
            return
        if len(self._records) > 4096:  # tensors that died since
            self._records = {k: r for k, r in self._records.items() if r.tensor() is not None}

    def _record(self, t):
        try:
            key = _storage(t)[:2]
        except Exception:
            return None, None
        r = self._records.get(key)
        if r is None:
            return key, None
        owner = r.tensor()
        if owner is None or owner._version != r.version or _storage(owner)[:2] != key:  # written, freed or moved
            del self._records[key]
            return key, None
        return key, r

    def ranges(self, t):
        """The undefined byte ranges [begin, end) of t's storage (from its start), or None."""
        r = self._record(t)[1]
        return r.ranges if r is not None else None

    def update(self, t, ranges, create=False):
        """After a launch on t's storage: `ranges` are what it left undefined (with `create`, a
        storage not recorded gets a record of them)."""
        key, r = self._record(t)
        if r is None:
            if create and ranges and key is not None:
                try:
                    self._records[key] = _Record(t, [(int(a), int(b)) for a, b in ranges])
                except Exception:  # no version counter (inference mode): not tracked
                    pass
            return
        if ranges:
            r.ranges = [(int(a), int(b)) for a, b in ranges]
        else:
            del self._records[key]

    def forget(self, t):
        """After a launch that may have written t's storage, what it wrote unknown (or a view of
        the memory taken that torch does not version)."""
        if not self._records:
            return
        key, r = self._record(t)
        if r is not None:
            del self._records[key]


memory = FreshMemory()


def _tracked(fn):
    @functools.wraps(fn)
    def allocate(*args, **kwargs):
        t = fn(*args, **kwargs)
        memory.allocated(t)
        return t
    allocate._tilevm_fresh = True
    return allocate


def install(torch):
    """Wraps torch's uninitialized allocations (once) so that they are recorded."""
    for name in _FUNCTIONS:
        fn = getattr(torch, name, None)
        if fn is not None and not getattr(fn, "_tilevm_fresh", False):
            setattr(torch, name, _tracked(fn))
    tensor = torch.Tensor
    if getattr(tensor.new_empty, "_tilevm_fresh", False):
        return
    tensor.new_empty = _tracked(tensor.new_empty)
    for name in ("numpy", "__array__", "__dlpack__"):  # views of the memory torch does not version
        if hasattr(tensor, name):
            setattr(tensor, name, _untracking(getattr(tensor, name)))
    data = tensor.data  # a property: a tensor over the same memory with a version of its own
    tensor.data = property(lambda self: (memory.forget(self), data.__get__(self))[1], data.__set__, None, data.__doc__)


def _untracking(fn):
    @functools.wraps(fn)
    def view(self, *args, **kwargs):
        memory.forget(self)
        return fn(self, *args, **kwargs)
    return view


def install_when_imported():
    """install(torch) now if torch is imported, else as soon as it is."""
    if "torch" in sys.modules:
        install(sys.modules["torch"])
        return
    import importlib.abc
    import importlib.machinery

    class _Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name != "torch":
                return None
            sys.meta_path.remove(self)
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            if spec is None or spec.loader is None:
                return spec
            run = spec.loader.exec_module

            def exec_module(module):
                run(module)
                install(module)
            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, _Finder())
