"""`python3 -m tilevm.diff_kernel MANIFEST`: the Python side of `tilevm diff K.py --engine triton`
(tools/DiffTriton.cpp writes the manifest and the arguments' .npy files): the kernel file imported
with the real triton package, the kernel launched on the GPU with those arguments and -D
constexprs, then compared with tilevm's interpreter from the same inputs (diff_compare). Exit
status: 0 agree, 4 disagree, 2 no Triton or no GPU, 1 a kernel or argument it cannot take."""
import importlib.util
import json
import os
import sys

import numpy as np

import tilevm
from . import diff_cli
from . import diff_compare as compare
from . import diff_report as report

_AGREE, _BAD, _ENVIRONMENT, _DISAGREE = 0, 1, 2, 4


def _define(text, tl):
    """A -D value as Python: a number, True/False/None, a quoted string, a tuple, or a dtype by
    tilevm's or Triton's name (fp16, float16, tl.float16)."""
    import ast
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        pass
    name = text[3:] if text.startswith("tl.") else text
    aliases = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32", "fp64": "float64", "i1": "int1", "i8": "int8",
               "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64"}
    dtype = getattr(tl, aliases.get(name, name), None)
    if isinstance(dtype, tl.dtype):
        return dtype
    return text  # a bare string, as the CLI's -D reads one


def _unwrapped(obj):
    """The JITFunction under autotune/heuristics layers (their `fn`)."""
    while obj is not None and not hasattr(obj, "params"):
        obj = getattr(obj, "fn", None)
    return obj


def main(argv):
    if len(argv) != 1:
        print("usage: python3 -m tilevm.diff_kernel MANIFEST (written by tilevm diff --engine triton)", file=sys.stderr)
        return _BAD
    with open(argv[0]) as f:
        m = json.load(f)
    shim = os.path.join(os.path.dirname(os.path.abspath(tilevm.__file__)), "_shim")
    triton, why = diff_cli.real_triton(shim)
    if triton is None:
        print(f"tilevm diff --engine triton: needs the triton package and a CUDA GPU ({why})", file=sys.stderr)
        return _ENVIRONMENT
    import torch
    import triton.language as tl
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(m["file"]))[0], m["file"])
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(m["file"]))
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        print(f"tilevm diff --engine triton: importing {m['file']} failed: {type(e).__name__}: {e}", file=sys.stderr)
        return _BAD
    jit = _unwrapped(getattr(module, m["kernel"], None))
    if jit is None:
        print(f"tilevm diff --engine triton: {m['file']} has no @triton.jit function named {m['kernel']}", file=sys.stderr)
        return _BAD
    values = {}  # the inputs, as the interpreter gets them (CPU tensors)
    for a in m["args"]:
        if "npy" in a:
            values[a["name"]] = torch.from_numpy(np.load(a["npy"]))
        else:
            values[a["name"]] = a["int"] if "int" in a else a["float"]
    for name, text in m["defines"].items():
        values[name] = _define(text, tl)
    names = [p.name for p in jit.params]
    missing = [n for n in names if n not in values]
    if missing:
        print(f"tilevm diff --engine triton: no value for {', '.join(missing)} (give --arg or -D)", file=sys.stderr)
        return _BAD
    values = {n: values[n] for n in names}
    on_gpu = {n: v.clone().cuda() if torch.is_tensor(v) else v for n, v in values.items()}
    grid = tuple(m["grid"])
    jit[grid](**on_gpu, num_warps=m["options"]["num_warps"], num_stages=m["options"]["num_stages"])
    torch.cuda.synchronize()
    gpu = {n: v.cpu() for n, v in on_gpu.items() if torch.is_tensor(v)}
    d = compare.diff_launch(jit, values, grid, gpu, num_warps=m["options"]["num_warps"],
                            num_stages=m["options"]["num_stages"], site=f"{m['file']}:{m['kernel']}")
    print(f"tilevm diff: interpreter vs triton {getattr(triton, '__version__', '?')} on the GPU, "
          f"{grid[0] * grid[1] * grid[2]} programs (seed {m['seed']})")
    text = report.launch_text(d)
    if text:
        print(text)
    if d.error:
        return _BAD
    print("FAIL" if d.diverged else "PASS")
    return _DISAGREE if d.diverged else _AGREE


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
