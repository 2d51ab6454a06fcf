"""Fixtures of diffed launches, and their replay without Triton or a GPU.

A fixture is two files per launch, DIR/launch-NNNN.json and DIR/launch-NNNN.npz:
  json: {"format": 2, "kernel", "source_file", "qualname", "src" (the kernel's source as Triton
         held it: for reading), "params": [{"name", "constexpr"}] in order, "unit" (the source
         unit tilevm compiled: source_unit.py's plain data, the kernel's and its helpers' source
         and the values of the names they use), "grid": [x, y, z], "site", "options" (launch
         options: num_warps, ...), "args": [per parameter, in order: {"name", "kind": "tensor",
         "dtype" (torch's name), "shape", "stride", "offset" (elements), "storage" (a key of the
         npz), "undefined" (byte ranges [begin, end) of its storage that held no value: torch.empty's
         memory; optional)} or {"name", "kind": "int" | "float" | "bool" | "none" | "str" | "dtype",
         "value"}]}
  npz:  "in.KEY" and "gpu.KEY": each storage's bytes (uint8) before the launch and as the GPU
        left it; tensors that shared a storage share its key.
Replay compiles the recorded unit (no module is imported, nothing of the script runs), rebuilds
the tensors over their storages and diffs the recorded GPU results as the live run did."""
import glob
import inspect
import json
import os
import sys

import numpy as np

from . import source_unit
from . import diff_live as live
from . import diff_snapshot as snapshot


def _scalar(name, v):
    if type(v).__name__ == "constexpr" and hasattr(v, "value"):
        v = v.value
    if v is None:
        return {"name": name, "kind": "none", "value": None}
    for kind, t in (("bool", bool), ("int", int), ("float", float), ("str", str)):
        if isinstance(v, t):
            return {"name": name, "kind": kind, "value": v}
    if isinstance(getattr(v, "name", None), str) and not callable(v):
        return {"name": name, "kind": "dtype", "value": v.name}
    raise TypeError(f"argument '{name}': a {type(v).__qualname__} cannot be recorded")


def _storage_of(t):
    """(key, the whole storage as uint8 NumPy) of a CPU tensor."""
    import torch
    address, nbytes = snapshot.tensor_storage(t)
    whole = t.as_strided((nbytes // t.element_size(),), (1,), 0)
    return address, whole.contiguous().view(torch.uint8).numpy()


class Recorder:
    """Writes one fixture per diffed launch into `directory`."""

    def __init__(self, directory):
        self.directory = directory
        os.makedirs(directory, exist_ok=True)
        self.count = len(glob.glob(os.path.join(directory, "launch-*.json")))

    def save(self, jit, inputs, grid, gpu, options, site, undefined=None):
        """Writes the fixture of one launch; `undefined`: {argument: byte ranges of its storage
        that held no value} (reading them is a finding on replay too)."""
        kernel = live.kernel_of(jit)
        _, unit = kernel._tilevm_unit()
        if len(unit) > 2:  # Python functions the frontend calls: not data (checked before any copy)
            print(f"tilevm --diff-record: kernel {jit.fn.__name__} calls @triton.constexpr_function(s); launch not recorded",
                  file=sys.stderr)
            return None
        args, arrays, keys, after = [], {}, {}, {}
        for name, v in inputs.items():
            if snapshot.is_tensor(v):
                address, data = _storage_of(v)
                key = keys.setdefault(address, f"s{len(keys)}")
                arrays[f"in.{key}"] = data
                # The GPU's results laid out as the input was (a storage's other bytes as they were).
                if key not in after:
                    after[key] = snapshot.Copier().tensor(v)
                    after[key] = after[key].as_strided((snapshot.tensor_storage(after[key])[1] // v.element_size(),), (1,), 0)
                after[key].as_strided(tuple(v.shape), tuple(v.stride()), v.storage_offset()).copy_(gpu[name])
                arrays[f"gpu.{key}"] = _storage_of(after[key])[1]
                args.append({"name": name, "kind": "tensor", "dtype": snapshot.dtype_name(v), "shape": list(v.shape),
                             "stride": list(v.stride()), "offset": int(v.storage_offset()), "storage": key})
                if undefined and undefined.get(name):
                    args[-1]["undefined"] = [[int(a), int(b)] for a, b in undefined[name]]
            elif snapshot.arrays_of(name, v):
                print(f"tilevm --diff-record: argument '{name}' ({type(v).__qualname__}): only torch tensors are recorded; "
                      "launch not recorded", file=sys.stderr)
                return None
            else:
                args.append(_scalar(name, v))
        fn = jit.fn
        params = [{"name": p.name, "constexpr": bool(kernel.is_constexpr(p))} for p in inspect.signature(fn).parameters.values()]
        doc = {"format": 2, "kernel": fn.__name__, "source_file": fn.__code__.co_filename, "qualname": fn.__qualname__,
               "src": jit.src, "params": params, "unit": unit, "grid": list(grid), "site": site,
               "options": {k: v for k, v in options.items() if isinstance(v, (int, float, bool, str)) or v is None},
               "args": args}
        stem = os.path.join(self.directory, f"launch-{self.count:04d}")
        self.count += 1
        np.savez_compressed(stem + ".npz", **arrays)
        with open(stem + ".json", "w") as f:
            json.dump(doc, f, indent=1)
        return stem


def _tuples(v):
    """JSON's lists as the tuples source_unit builds (dicts kept)."""
    if isinstance(v, list):
        return tuple(_tuples(e) for e in v)
    if isinstance(v, dict):
        return {k: _tuples(e) for k, e in v.items()}
    return v


class RecordedKernel:
    """A fixture's kernel as tilevm's launcher takes one: the recorded source unit, and a
    function of the recorded parameters for binding."""

    _tilevm_jit = True

    def __init__(self, doc):
        names = [p["name"] for p in doc["params"]]
        if not all(n.isidentifier() for n in names + [doc["kernel"]]):
            raise ValueError(f"kernel {doc['kernel']!r}: parameters {names} are not all names")
        namespace = {}
        exec(f"def {doc['kernel']}({', '.join(names)}):\n    pass", namespace)
        self.fn = namespace[doc["kernel"]]
        self.__name__ = doc["kernel"]
        self.src = doc["src"]
        self.source_path = doc["source_file"]
        self._constexpr = frozenset(p["name"] for p in doc["params"] if p["constexpr"])
        self._unit = (source_unit.next_serial(), _tuples(doc["unit"]))

    def is_constexpr(self, p):
        return p.name in self._constexpr

    def _tilevm_unit(self):
        return self._unit


class _DType:
    """A recorded dtype constexpr: what the launcher reads of one (its name)."""

    def __init__(self, name):
        self.name = name


def load(json_path):
    """(kernel, inputs, grid, gpu, options, site, undefined) of one fixture."""
    import torch
    with open(json_path) as f:
        doc = json.load(f)
    if doc.get("format") != 2:
        raise ValueError(f"{json_path}: format {doc.get('format')!r}, expected 2")
    data = np.load(os.path.splitext(json_path)[0] + ".npz")
    stores = {}

    def tensor(a, which):
        key = (which, a["storage"])
        if key not in stores:
            stores[key] = {}
        dtype = getattr(torch, a["dtype"])
        whole = stores[key].get(dtype)
        if whole is None:
            raw = torch.from_numpy(np.array(data[f"{which}.{a['storage']}"], dtype=np.uint8))
            whole = stores[key][dtype] = raw.view(dtype)
        return whole.as_strided(tuple(a["shape"]), tuple(a["stride"]), a["offset"])

    inputs, gpu, undefined = {}, {}, {}
    for a in doc["args"]:
        if a["kind"] == "tensor":
            inputs[a["name"]] = tensor(a, "in")
            gpu[a["name"]] = tensor(a, "gpu")
            if a.get("undefined"):
                undefined[a["name"]] = [(int(b), int(e)) for b, e in a["undefined"]]
        elif a["kind"] == "dtype":
            inputs[a["name"]] = _DType(a["value"])
        else:
            inputs[a["name"]] = a["value"]
    kernel = RecordedKernel(doc)
    return kernel, inputs, tuple(doc["grid"]), gpu, doc.get("options", {}), doc.get("site", ""), undefined or None


def replay(directory, session):
    """Diffs every fixture of `directory` in `session` (hook.Session); the number replayed."""
    paths = sorted(glob.glob(os.path.join(directory, "launch-*.json")))
    for p in paths:
        kernel, inputs, grid, gpu, options, site, undefined = load(p)
        session.summary.launched(kernel.__name__)
        session.check(kernel, inputs, grid, gpu, int(options.get("num_warps") or 4), int(options.get("num_stages") or 1),
                      site or os.path.basename(p), options, undefined)
    return len(paths)
