"""Pointer tables under --diff triton: a launch whose argument is a table of device addresses (a
CUDA int64 tensor of `tensor.data_ptr()` values, as grouped GEMM passes its groups' matrices) also
reads and writes the tensors those addresses lie in. They are found among the live tensors of the
table's device,
copied with the arguments, and for the interpreter's run the table's copy holds the addresses of
their copies; after the launch each is compared as an argument is, named TABLE[i]."""
import bisect
import dataclasses
import sys

from . import diff_snapshot as snapshot

_TABLE_DTYPES = ("torch.int64", "torch.uint64")
_MAX_ENTRIES = 1 << 16


@dataclasses.dataclass
class Pointee:
    """Entry `index` of table argument `table` points `offset` bytes into `tensor`'s storage."""
    table: str
    index: int
    tensor: object
    offset: int

    @property
    def label(self):
        return f"{self.table}[{self.index}]"


def _looks_like_table(t):
    """The entries of a 64-bit integer tensor whose values are all 16-byte aligned and past 64 KiB
    (addresses, by their look: pointees() then requires each to lie in a live tensor), or None."""
    if not snapshot.is_tensor(t) or str(t.dtype) not in _TABLE_DTYPES:
        return None
    if not 0 < t.numel() <= _MAX_ENTRIES:
        return None
    import torch
    flat = t.detach().reshape(-1).view(torch.int64)  # on its device: only a table comes to the host
    if not bool(((flat >= (1 << 16)) & (flat % 16 == 0)).all()):
        return None
    return flat.cpu().tolist()


def _live_tensors(device):
    """(storage start, bytes, tensor) of the live tensors on `device`, each storage once, by start."""
    from . import resolver
    torch = sys.modules.get("torch")
    out, seen = [], set()
    for x in resolver.candidates():
        if isinstance(x, torch.Tensor) and x.device == device:
            try:
                start, nbytes = snapshot.tensor_storage(x)
            except Exception:
                continue
            if nbytes and (start, nbytes) not in seen:
                seen.add((start, nbytes))
                out.append((start, nbytes, x))
    return sorted(out, key=lambda e: (e[0], e[1]))  # of one start, the widest last


def pointees(values):
    """[Pointee] of every pointer-table argument among `values` ({parameter: value}): a 64-bit
    integer tensor each of whose entries lies in the storage of a live tensor on its device (one
    whose entries do not all is not taken for a table)."""
    tables = {name: entries for name, v in values.items() if (entries := _looks_like_table(v)) is not None}
    live = {}  # device -> _live_tensors: one pass over the process's objects per launch
    out = []
    for name, entries in tables.items():
        table = values[name]
        if table.device not in live:
            live[table.device] = _live_tensors(table.device)
        holders = [e for e in live[table.device] if e[2] is not table]
        starts = [start for start, _, _ in holders]
        found = []
        for i, address in enumerate(entries):
            k = bisect.bisect_right(starts, address) - 1  # the storage starting last at or before it
            if k < 0 or address >= starts[k] + holders[k][1]:
                break
            found.append(Pointee(name, i, holders[k][2], address - starts[k]))
        else:
            out.extend(found)
    return out


def copies(tensors):
    """{label: CPU copy} of {label: tensor}, each storage copied whole once (aliases kept)."""
    c = snapshot.Copier()
    return {label: c.tensor(t) for label, t in tensors.items()}


def point_tables(ran, pointees, copies):
    """Rewrites the tables' copies in `ran` to hold the addresses of `copies` (CPU storages); returns
    the original entries, for restore()."""
    saved = []
    for p in pointees:
        table = ran[p.table]
        whole_start, _ = snapshot.tensor_storage(copies[p.label])
        flat = table.view(-1)
        saved.append((flat, p.index, int(flat[p.index])))
        flat[p.index] = whole_start + p.offset
    return saved


def restore(saved):
    for flat, i, v in saved:
        flat[i] = v
