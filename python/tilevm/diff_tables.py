"""Pointer tables under --diff triton: a launch whose argument is a table of device addresses (a
CUDA int64 tensor of `tensor.data_ptr()` values, as grouped GEMM passes its groups' matrices) also
reads and writes the tensors those addresses lie in. They are found among the live tensors of the
table's device,
copied with the arguments, and for the interpreter's run the table's copy holds the addresses of
their copies; after the launch each is compared as an argument is, named TABLE[i]."""
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
    values = [int(v) for v in t.detach().reshape(-1).cpu().tolist()]
    if all(v >= (1 << 16) and v % 16 == 0 for v in values):
        return values
    return None


def _live_tensors(device):
    """(storage start, bytes, tensor) of the live tensors on `device`, each storage once."""
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
    return out


def pointees(values):
    """[Pointee] of every pointer-table argument among `values` ({parameter: value}): a 64-bit
    integer tensor each of whose entries lies in the storage of a live tensor on its device (one
    whose entries do not all is not taken for a table)."""
    tables = {name: entries for name, v in values.items() if (entries := _looks_like_table(v)) is not None}
    out = []
    for name, entries in tables.items():
        live = [x for x in _live_tensors(values[name].device) if x[2] is not values[name]]
        found = []
        for i, address in enumerate(entries):
            holder = next(((start, x) for start, nbytes, x in live if start <= address < start + nbytes), None)
            if holder is None:
                break
            found.append(Pointee(name, i, holder[1], address - holder[0]))
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
