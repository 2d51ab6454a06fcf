"""--diff triton's comparison and report without Triton or a GPU: kernels held by a stand-in of
real Triton's JITFunction (its attributes: fn, src, params, def_file_line_number), launches'
"GPU results" recorded here (float64-correct results computed with NumPy, then changed on
purpose), compared with tilevm's interpreter; the summary; a fixture recorded and replayed."""
import contextlib
import io
import json
import os
import re
import tempfile

import numpy as np
import torch

import tilevm
import triton  # tilevm's stand-in here: its reinterpret makes a TensorWrapper as Triton's does
import triton.language as tl
from modules import diff_triton_kernels as K
from modules.diff_triton_kernels import axpy2d, mad_int, unmasked
from tilevm import diff_compare as compare, diff_hook as hook, diff_live as live
from tilevm import diff_record as record, diff_report as report


rows, cols = 6, 10
x = torch.randn(rows, cols, dtype=torch.float32)
y = torch.randn(rows, cols, dtype=torch.float32)
out = torch.full((rows, cols), -1.0)
inputs = dict(x_ptr=x, y_ptr=y, out_ptr=out, n_cols=cols, stride=cols, BLOCK=16)
# The float64 reference, rounded once to float32: the correctly rounded 2x + y.
ref = torch.from_numpy((2.0 * x.numpy().astype(np.float64) + y.numpy().astype(np.float64)).astype(np.float32))
gpu = {"x_ptr": x.clone(), "y_ptr": y.clone(), "out_ptr": ref.clone()}

# 1. The GPU's results agree.
d = compare.diff_launch(axpy2d, inputs, (rows,), gpu)
assert not d.error, d.error
assert not d.diverged and d.findings == 0, report.launch_text(d)
assert [b.name for b in d.buffers] == ["x_ptr", "y_ptr", "out_ptr"]
assert d.tolerance == {"max_ulps": 0, "relative": False, "scale_by_rms": False, "tf32_dot": False, "rounded_rtol": 0.0, "order_dependent": "",
                       "rounded_operands": []}, d.tolerance
assert torch.equal(out, torch.full((rows, cols), -1.0)), "the inputs were changed"

# 1b. Strided views of one storage (x and y are two halves of a row): the layout travels with
# the copies, and only the views' elements are compared.
both_halves = torch.randn(rows, 2 * cols)
xv, yv = both_halves[:, :cols], both_halves[:, cols:]
outv = torch.zeros(rows, 3 * cols)[:, cols:2 * cols]
vref = torch.from_numpy((2.0 * xv.numpy().astype(np.float64) + yv.numpy().astype(np.float64)).astype(np.float32))
vvals = dict(x_ptr=xv, y_ptr=yv, out_ptr=outv, n_cols=cols, stride=2 * cols, BLOCK=16)
vgpu = {"x_ptr": xv.clone(), "y_ptr": yv.clone(), "out_ptr": vref.clone()}
d = compare.diff_launch(axpy2d, dict(vvals, stride=2 * cols), (rows,), vgpu)
assert d.diverged, "the out view has stride 3 * cols, the kernel was told 2 * cols: the GPU's result is not it"
outv = torch.zeros(rows, 2 * cols)[:, cols:]
d = compare.diff_launch(axpy2d, dict(vvals, out_ptr=outv), (rows,), vgpu)
assert not d.diverged and d.findings == 0 and not d.error, report.launch_text(d)

# 1c. A kernel that reduces: held to tilevm diff's relative tolerance (sums in another order).
m = torch.randn(8, 300)
sums = torch.from_numpy(m.numpy().astype(np.float64).sum(axis=1).astype(np.float32))
rvals = {"x_ptr": m, "out_ptr": torch.zeros(8), "n_cols": 300, "BLOCK": 512}
d = compare.diff_launch(K.row_sums, rvals, (8,), {"x_ptr": m.clone(), "out_ptr": sums.clone()})
assert d.tolerance["relative"] and d.tolerance["scale_by_rms"] and not d.tolerance["tf32_dot"], d.tolerance
assert not d.diverged and not d.error, report.launch_text(d)
off = sums.clone()
off[5] += 0.05 * float(sums.abs().max())  # far past a sum's rounding
d = compare.diff_launch(K.row_sums, rvals, (8,), {"x_ptr": m.clone(), "out_ptr": off})
assert d.first.name == "out_ptr" and d.first.result["first"]["index"] == (5,), report.launch_text(d)
assert "torch.testing.assert_close's defaults" in report.launch_text(d)

# 1d. Programs that take a lock in turn and add to one total: the GPU's order is not the
# interpreter's, so its float total may differ as a sum in another order does (as between the
# interpreter's own schedules); a total off by more is a divergence, its reason in the report.
# Positive parts: the bound scales with the total, so a total that cancels to near zero (random
# signs) can differ by more than it allows (74 ulp of 5.6, from parts of size 11, in one run).
parts = torch.rand(64, 128, generator=torch.Generator().manual_seed(3))
order = parts.sum(axis=1).flip(0)  # the programs' partial sums, taken in reverse order
total = torch.zeros(1)
for p in order:
    total += p
lvals = {"x_ptr": parts, "total_ptr": torch.zeros(1), "lock_ptr": torch.zeros(1, dtype=torch.int32), "BLOCK": 128}
lgpu = {"x_ptr": parts.clone(), "total_ptr": total.clone(), "lock_ptr": torch.zeros(1, dtype=torch.int32)}
d = compare.diff_launch(K.locked_total, lvals, (64,), lgpu)
assert d.tolerance["order_dependent"] == "lock-ordered accumulation" and not d.error, d.tolerance
assert not d.diverged, report.launch_text(d)
lgpu["total_ptr"] = total + 0.01 * float(parts.sum(axis=1).abs().max())
d = compare.diff_launch(K.locked_total, lvals, (64,), lgpu)
assert d.diverged and "lock-ordered accumulation" in report.launch_text(d), report.launch_text(d)

# 1e. A computed operand rounded to f16 before a dot (attention's p.to(f16)): the results are
# held to f16's rtol (torch's exp and tilevm's differ by an ulp at some elements, and where that
# straddles an f16 rounding boundary the flipped p moves a whole row of the product), and a
# handful of elements past it gets the rounding named as a likely cause, with its line.
g = torch.Generator().manual_seed(2)
ex = torch.randn(32, 32, generator=g) * 0.5
ev = torch.randn(32, 32, generator=g).half()
p16 = torch.exp(ex).half().numpy().astype(np.float64)
eref = torch.from_numpy((p16 @ ev.numpy().astype(np.float64)).astype(np.float32))
evals = {"x_ptr": ex, "v_ptr": ev, "out_ptr": torch.zeros(32, 32), "N": 32}
egpu = {"x_ptr": ex.clone(), "v_ptr": ev.clone(), "out_ptr": eref.clone()}
d = compare.diff_launch(K.exp_dot, evals, (1,), egpu)
round_line = next(i for i, l in enumerate(open(K.__file__), 1) if "p rounded to f16 for the dot" in l)
assert d.tolerance["rounded_rtol"] == 1e-3, d.tolerance
assert len(d.tolerance["rounded_operands"]) == 1 and f"diff_triton_kernels.py:{round_line}:" in d.tolerance["rounded_operands"][0], d.tolerance
assert not d.diverged, report.launch_text(d)
egpu["out_ptr"][3, 5] += 0.01 * float(eref.abs().max())  # one element, far past a sum's rounding
d = compare.diff_launch(K.exp_dot, evals, (1,), egpu)
assert d.diverged and d.first.result["mismatches"] == 1, report.launch_text(d)
assert "a likely cause: the kernel rounds a computed dot operand (f16 at " in report.launch_text(d), report.launch_text(d)
egpu["out_ptr"] += 0.01 * float(eref.abs().max())  # every element: not a rounding that flipped
d = compare.diff_launch(K.exp_dot, evals, (1,), egpu)
assert d.diverged and "a likely cause" not in report.launch_text(d), report.launch_text(d)

# 2. One planted wrong element: that buffer, index, both values, the ulps, the program.
wrong = {k: v.clone() for k, v in gpu.items()}
wrong["out_ptr"][4, 7] = float(np.float32(ref[4, 7].item()) + np.float32(0.5))
d = compare.diff_launch(axpy2d, inputs, (rows,), wrong, site="script.py:12")
assert d.diverged
b = d.first
f = b.result["first"]
assert b.name == "out_ptr" and f["index"] == (4, 7) and b.result["mismatches"] == 1, b.result
assert np.float32(f["actual"]) == np.float32(wrong["out_ptr"][4, 7].item()), f  # 9 digits: a float32 exactly
assert np.float32(f["expected"]) == np.float32(ref[4, 7].item()), f


def ordered(v):  # a float32's place on the number line, in ulps from +0
    bits = int(np.float32(v).view(np.uint32))
    return -(bits & 0x7FFFFFFF) if bits >> 31 else bits


got_ulps = abs(ordered(wrong["out_ptr"][4, 7].item()) - ordered(ref[4, 7].item()))
assert f["ulps"] == got_ulps and not f["nan_in_one"], (f, got_ulps)
assert b.writer == (4, 0, 0), b.writer
# The store that wrote it: the kernel file's line of `tl.store(out_ptr ...` in axpy2d.
store_line = next(i for i, l in enumerate(open(K.__file__), 1) if "tl.store(out_ptr + row * stride" in l)
assert re.fullmatch(rf".*diff_triton_kernels\.py:{store_line}:\d+", b.writer_loc), (b.writer_loc, store_line)
text = report.launch_text(d)
assert "kernel axpy2d, grid (6, 1, 1), at script.py:12: DIVERGED" in text, text
assert re.search(r"first divergent element: out_ptr\(4, 7\) \(fp32, shape \(6, 10\)\): GPU \S+, interpreter \S+ \(\d+ ulp\)", text), text
assert f"written on the interpreter by program (4, 0, 0), at {b.writer_loc}" in text, text

# 3. A NaN where the interpreter has none.
nan = {k: v.clone() for k, v in gpu.items()}
nan["out_ptr"][2, 3] = float("nan")
d = compare.diff_launch(axpy2d, inputs, (rows,), nan)
f = d.first.result["first"]
assert d.first.name == "out_ptr" and f["index"] == (2, 3) and f["nan_in_one"] and f["ulps"] is None, f
assert "NaN in one only" in report.launch_text(d)
# NaNs in both at the same place agree.
x_nan = x.clone()
x_nan[1, 1] = float("nan")
both = {"x_ptr": x_nan.clone(), "y_ptr": y.clone(), "out_ptr": ref.clone()}
both["out_ptr"][1, 1] = float("nan")
d = compare.diff_launch(axpy2d, dict(inputs, x_ptr=x_nan), (rows,), both)
assert not d.diverged, report.launch_text(d)

# 4. Integers are exact: one off by one is a divergence.
n = 100
a = torch.randint(-1000, 1000, (n,), dtype=torch.int32)
bb = torch.randint(-1000, 1000, (n,), dtype=torch.int32)
iref = torch.from_numpy((a.numpy().astype(np.int64) * bb.numpy() + 7).astype(np.int32))
ivals = dict(a_ptr=a, b_ptr=bb, out_ptr=torch.zeros(n, dtype=torch.int32), n=n, K=7, BLOCK=32)
igpu = {"a_ptr": a.clone(), "b_ptr": bb.clone(), "out_ptr": iref.clone()}
d = compare.diff_launch(mad_int, ivals, (4,), igpu)
assert not d.diverged and not d.error, report.launch_text(d)
igpu["out_ptr"][57] += 1
d = compare.diff_launch(mad_int, ivals, (4,), igpu)
f = d.first.result["first"]
assert d.first.name == "out_ptr" and f["index"] == (57,) and int(f["actual"]) == int(iref[57]) + 1, f
assert int(f["expected"]) == int(iref[57]) and d.first.writer == (1, 0, 0), (f, d.first.writer)
assert "integers: exact" in report.launch_text(d)

# An element the interpreter's programs do not write (past n), written by the GPU.
ivals_wide = dict(ivals, out_ptr=torch.zeros(n + 28, dtype=torch.int32))
wide = {"a_ptr": a.clone(), "b_ptr": bb.clone(), "out_ptr": torch.cat([iref, torch.zeros(28, dtype=torch.int32)])}
wide["out_ptr"][120] = 5
d = compare.diff_launch(mad_int, ivals_wide, (4,), wide)
assert d.first.result["first"]["index"] == (120,) and d.first.writer == "none", (d.first.result, d.first.writer)
assert "no program of the interpreter wrote it" in report.launch_text(d)

# TensorWrapper arguments (triton.reinterpret): compared as the wrapper's dtype.
bits = torch.randint(0, 2**31 - 1, (16,), dtype=torch.int32)
high = torch.from_numpy((bits.numpy().astype(np.int64) | 0x80000000).astype(np.uint32).view(np.int32))
wvals = {"x_ptr": triton.reinterpret(bits, tl.uint32), "out_ptr": triton.reinterpret(torch.zeros(16, dtype=torch.int32), tl.uint32),
         "BLOCK": 16}
wgpu = {"x_ptr": triton.reinterpret(bits.clone(), tl.uint32), "out_ptr": triton.reinterpret(high.clone(), tl.uint32)}
d = compare.diff_launch(K.high_bit, wvals, (1,), wgpu)
assert not d.diverged and not d.error and [b.dtype for b in d.buffers] == ["u32", "u32"], report.launch_text(d)
wgpu["out_ptr"].base[9] ^= 1
d = compare.diff_launch(K.high_bit, wvals, (1,), wgpu)
f = d.first.result["first"]
assert f["index"] == (9,) and int(f["actual"]) == int(np.int32(high[9]).view(np.uint32)) ^ 1, f
assert int(f["expected"]) == int(np.int32(high[9]).view(np.uint32)) >= 2**31, "the values read as uint32"

# Triton's own @jit library functions (triton.language.standard's) stay builtins named by their
# module, as tilevm's frontend knows them; the program's @jit functions are compiled from source.
def library_fn(x):
    return x


library_fn.__module__ = "triton.language.standard"
assert live._foreign(K.JITFunction(library_fn)) is None
assert isinstance(live._foreign(K.scale), live.LiveKernel) and live._foreign(K.scale) is live._foreign(K.scale)

# 5. The interpreter's findings on the launch are reported (an unmasked load past the end).
small = torch.arange(10, dtype=torch.float32)
d = compare.diff_launch(unmasked, dict(x_ptr=small, out_ptr=torch.zeros(16), BLOCK=16), (1,),
                        {"x_ptr": small.clone(), "out_ptr": torch.zeros(16)})
assert d.findings >= 1 and "out of bounds" in d.report.lower(), d.report

# A kernel tilevm refuses: not compared, the frontend's located message given (the line from
# Triton's def_file_line_number, or found from the function where a Triton lacks it).
bad_line = next(i for i, l in enumerate(open(K.__file__), 1) if "no_such_function(" in l)
one = torch.zeros(1)
for drop in (False, True):
    jit_fn = K.JITFunction(K.refused.fn)
    if drop:
        del jit_fn.def_file_line_number, jit_fn.def_file_col_number
    d = compare.diff_launch(jit_fn, {"x_ptr": one}, (1,), {"x_ptr": one.clone()})
    assert d.error and f"{K.__file__}:{bad_line}:" in d.error and not d.buffers, d.error
    assert re.search(r"not compared: \w*CompilationError: .*:\d+:21: error: name .no_such_function. is not defined", report.launch_text(d)), report.launch_text(d)

# A run the interpreter stops (--fuel, --timeout) is not compared: its buffers hold a part.
tilevm.options["fuel"] = 10
try:
    counter = torch.zeros(1, dtype=torch.int32)
    d = compare.diff_launch(K.count_up, {"out_ptr": counter, "n": 1000}, (1,), {"out_ptr": torch.tensor([1000], dtype=torch.int32)})
finally:
    tilevm.options["fuel"] = 2**24
assert not d.buffers and "did not finish (no-termination" in d.error and d.findings == 1, (d.error, d.report)
d = compare.diff_launch(K.count_up, {"out_ptr": counter, "n": 1000}, (1,), {"out_ptr": torch.tensor([1000], dtype=torch.int32)})
assert not d.error and not d.diverged, report.launch_text(d)

# The interpreter's device_print output is not the script's (the GPU printed its own).
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    d = compare.diff_launch(K.printer, {"x_ptr": torch.ones(1)}, (1,), {"x_ptr": torch.ones(1)})
assert not d.error and not d.diverged and printed.getvalue() == "", (d.error, printed.getvalue())

# 5b. A grid past --diff-programs runs on a sample of its programs (first, last, spread between):
# only the elements they changed are compared, so a wrong row of an unsampled program is not
# seen, and one of a sampled program is.
assert compare.sample_programs((6, 1, 1), 3) == (0, 2, 5) and compare.sample_programs((2, 2, 1), 9) == (0, 1, 2, 3)
sampler = hook.Session(programs=3, out=io.StringIO())
unseen = {k: v.clone() for k, v in gpu.items()}
unseen["out_ptr"][4, 3] += 1.0  # row 4: program 4, not in the sample
d = sampler.check(axpy2d, inputs, (rows,), unseen)
assert d.sampled == (0, 2, 5) and d.programs == 6 and not d.diverged and not d.error, report.launch_text(d)
seen = {k: v.clone() for k, v in gpu.items()}
seen["out_ptr"][5, 3] += 1.0  # row 5: the last program, sampled
d = sampler.check(axpy2d, inputs, (rows,), seen)
assert d.diverged and d.first.result["first"]["index"] == (5, 3) and d.first.writer == (5, 0, 0), report.launch_text(d)
assert "(a sample: 3 of 6 programs, the elements they changed)" in report.launch_text(d)
r = sampler.summary.rows["axpy2d"]
assert (r["compared"], r["sampled"], r["agreed"], r["diverged"]) == (2, 2, 1, 1), sampler.summary.text()

# 6. The session: counts, every Nth, the summary table; --diff-stop raises.
s = hook.Session(every=2, out=io.StringIO())
for i in range(3):
    s.summary.launched("axpy2d")
    if i == 1:
        s.summary.skipped("axpy2d", "every")
        continue
    s.check(axpy2d, inputs, (rows,), wrong if i == 2 else gpu)
s.summary.launched("big")
s.summary.skipped("big", "budget")
table = s.summary.text().split("\n")
assert table[1].split() == ["kernel", "launches", "compared", "sampled", "agreed", "diverged", "findings", "skipped"], table
assert table[2].split() == ["axpy2d", "3", "2", "0", "1", "1", "0", "1", "(every", "1)"], table
assert table[3].split() == ["big", "1", "0", "0", "0", "0", "0", "1", "(budget", "1)"], table
stop = hook.Session(stop=True, out=io.StringIO())
try:
    stop.check(axpy2d, inputs, (rows,), wrong)
    raise AssertionError("--diff-stop did not raise")
except hook.DivergenceError as e:
    assert "out_ptr(4, 7)" in str(e)

# 7. A fixture recorded and replayed: the same verdict, without the live objects.
with tempfile.TemporaryDirectory() as tmp:
    rec = record.Recorder(tmp)
    rec.save(axpy2d, dict(inputs, out_ptr=torch.full((rows, cols), -1.0)), (rows, 1, 1), wrong, {"num_warps": 4}, "here:1")
    rec.save(axpy2d, dict(vvals, out_ptr=outv), (rows, 1, 1), vgpu, {}, "here:2")  # views of one storage
    kernel, rin, rgrid, rgpu, ropts, rsite, rundefined = record.load(os.path.join(tmp, "launch-0000.json"))
    assert rgrid == (rows, 1, 1) and ropts == {"num_warps": 4} and rsite == "here:1" and rundefined is None
    assert torch.equal(rin["x_ptr"], x) and rin["BLOCK"] == 16 and torch.equal(rgpu["out_ptr"], wrong["out_ptr"])
    session = hook.Session(out=io.StringIO())
    _, vin, _, _, _, _, _ = record.load(os.path.join(tmp, "launch-0001.json"))
    assert vin["x_ptr"].stride() == (2 * cols, 1) and vin["y_ptr"].storage_offset() == cols
    assert vin["x_ptr"].data_ptr() + cols * 4 == vin["y_ptr"].data_ptr(), "x and y no longer share a storage"
    # The fixture holds what tilevm compiles: replay needs neither the kernel's file nor Triton.
    doc = json.load(open(os.path.join(tmp, "launch-0001.json")))
    assert doc["format"] == 2 and doc["params"][-1] == {"name": "BLOCK", "constexpr": True}, doc["params"]
    doc["source_file"] = "/elsewhere/diff_triton_kernels.py"
    json.dump(doc, open(os.path.join(tmp, "launch-0001.json"), "w"))
    assert record.replay(tmp, session) == 2
    row = session.summary.rows["axpy2d"]
    assert (row["launches"], row["compared"], row["diverged"], row["agreed"]) == (2, 2, 1, 1), session.summary.text()
    assert "out_ptr(4, 7)" in session.out.getvalue()
print("diff_triton_core: agree, planted element, NaN position, exact integers, findings, summary, replay: ok")
