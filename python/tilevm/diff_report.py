"""What `--diff triton` prints: a launch's divergence (the launch, the first divergent element,
the interpreter's program that wrote it, its findings) and, at exit, the summary table."""
from collections import OrderedDict


def _tolerance_text(t):
    order = (f"; floats may differ as sums in another order ({t['order_dependent']}: the GPU's programs take the lock "
             "in an order that varies run to run), by assert_close's defaults per dtype") if t.get("order_dependent") else ""
    if t.get("relative"):
        text = "|gpu - cpu| <= atol + rtol * (|cpu| + rms(cpu)), torch.testing.assert_close's defaults per dtype"
        if t.get("tf32_dot"):
            text += "; f32 results of tf32 dots: rtol 2^-13"
        if t.get("rounded_rtol"):
            text += f"; a computed dot operand rounded to a narrower float: at least its rtol, {t['rounded_rtol']:g}"
        return text + (f", or within {t['max_ulps']} ulp" if t.get("max_ulps") else "") + order
    if t.get("max_ulps"):
        return f"within {t['max_ulps']} ulp" + order
    return "exact (0 ulp; integers and booleans always exact)" + order


def _index(idx):
    return "(" + ", ".join(str(i) for i in idx) + ("," if len(idx) == 1 else "") + ")"


def launch_text(d):
    """The lines of one launch's problems: a divergence, an error, the interpreter's findings;
    "" for a launch that agreed without findings."""
    head = f"tilevm --diff: kernel {d.kernel}, grid {d.grid}" + (f", at {d.site}" if d.site else "")
    if d.sampled:
        head += f" (a sample: {len(d.sampled)} of {d.programs} programs, the elements they changed)"
    lines = []
    if d.error:
        lines.append(f"{head}: not compared: {d.error}")
    elif d.diverged:
        b = d.first
        lines.append(f"{head}: DIVERGED")
        r = b.result
        if r["shape_error"]:
            lines.append(f"  {b.name}: {r['shape_error']}")
        else:
            f = r["first"]
            ulps = "NaN in one only" if f["nan_in_one"] else f"{f['ulps']} ulp" if r["is_float"] else "integers: exact"
            lines.append(f"  first divergent element: {b.name}{_index(f['index'])} ({b.dtype}, shape {_index(b.shape)}): "
                         f"GPU {f['actual']}, interpreter {f['expected']} ({ulps})")
            lines.append(f"  {r['mismatches']} of {r['elements']} elements of {b.name} differ, max abs error "
                         f"{r['max_abs_error']:g}")
            if b.writer == "none":
                lines.append("  no program of the interpreter wrote it (the GPU wrote it, or the kernel did not and the copies differ)")
            elif b.writer is not None:
                lines.append(f"  written on the interpreter by program {_index(b.writer)}" +
                             (f", at {b.writer_loc}" if b.writer_loc else ""))
        others = [x.name for x in d.buffers if x.diverged and x is not b]
        if others:
            lines.append(f"  also divergent: {', '.join(others)}")
        lines.append(f"  tolerance: {_tolerance_text(d.tolerance)}")
        rounded = (d.tolerance or {}).get("rounded_operands") or []
        r = b.result
        if rounded and not r["shape_error"] and r["is_float"] and r["mismatches"] * 1000 <= r["elements"]:
            lines.append(f"  a likely cause: the kernel rounds a computed dot operand ({'; '.join(rounded)}); where the two "
                         "engines' wider values straddle a rounding boundary it differs by one ulp of that type, and so do "
                         "the few results it feeds, scaled by the other operand")
    if d.findings:
        if not lines:
            lines.append(f"{head}: agreed")
        lines.append(f"  the interpreter's checks found {d.findings} problem(s) on this launch:")
        lines.extend("    " + l for l in d.report.rstrip("\n").split("\n"))
    return "\n".join(lines)


class Summary:
    """Counts per kernel: launches, compared (of which sampled: run on a sample of the grid's
    programs, --diff-programs), agreed, diverged, findings, and skipped launches by reason (every: --diff-every; budget: --diff-budget; error: not comparable; timing: under
    triton.testing.do_bench; capture: while a CUDA graph is captured)."""

    COLUMNS = ("kernel", "launches", "compared", "sampled", "agreed", "diverged", "findings", "skipped")

    def __init__(self):
        self.rows = OrderedDict()

    def row(self, kernel):
        if kernel not in self.rows:
            self.rows[kernel] = {"launches": 0, "compared": 0, "sampled": 0, "agreed": 0, "diverged": 0, "findings": 0,
                                 "skipped": {}}
        return self.rows[kernel]

    def launched(self, kernel):
        self.row(kernel)["launches"] += 1

    def skipped(self, kernel, why):
        s = self.row(kernel)["skipped"]
        s[why] = s.get(why, 0) + 1

    def add(self, d):
        r = self.row(d.kernel)
        if d.error:
            self.skipped(d.kernel, "error")
        else:
            r["compared"] += 1
            r["sampled"] += bool(d.sampled)
            r["diverged" if d.diverged else "agreed"] += 1
        r["findings"] += d.findings

    @property
    def diverged(self):
        return sum(r["diverged"] for r in self.rows.values())

    def text(self):
        """The table, one row per kernel; skipped as COUNT (reason COUNT, ...)."""
        body = []
        for k, r in self.rows.items():
            skipped = sum(r["skipped"].values())
            why = ", ".join(f"{w} {n}" for w, n in sorted(r["skipped"].items()))
            body.append([k, str(r["launches"]), str(r["compared"]), str(r["sampled"]), str(r["agreed"]), str(r["diverged"]),
                         str(r["findings"]), f"{skipped}" + (f" ({why})" if why else "")])
        table = [list(self.COLUMNS)] + body
        widths = [max(len(row[i]) for row in table) for i in range(len(self.COLUMNS))]
        out = ["tilevm --diff triton: summary"]
        for row in table:
            out.append("  ".join(c.ljust(w) if i == 0 or i == len(row) - 1 else c.rjust(w)
                                 for i, (c, w) in enumerate(zip(row, widths))).rstrip())
        if not body:
            out.append("(no launches)")
        return "\n".join(out)
