"""`python3 -m tilevm --diff triton` on test/triton/planted_defects.py (the GPU machine runs it with
real Triton), here in a child Python whose `triton` is the stand-in package (modules/fake_triton)
and whose "GPU" computes each kernel as the GPU does with its defect: the racy total loses updates,
the unmasked tail sums what lies past the tensor (here 0.5 each), the accumulation adds to
torch.empty's memory as it was. Each defect is found by the interpreter and located at its line
with its kind; the race and the tail diverge, the accumulation agrees (the interpreter reads the
same bytes, copied) but reads memory no one wrote; exit status 1."""
import os

from modules import stand_in

script = os.path.join(os.path.dirname(stand_in.HERE), "triton", "planted_defects.py")
setup = """
def total_racy(x, total, n, BLOCK):  # only the last program's store survives
    total += x[(n - 1) // BLOCK * BLOCK:n].sum()


def block_sums_unmasked(x, sums, BLOCK):
    padded = torch.cat([x, torch.full((len(sums) * BLOCK - len(x),), 0.5)])  # what lies past the end
    sums.copy_(padded.reshape(-1, BLOCK).sum(1))


def accumulate(x, acc, n, BLOCK):
    acc += x


gpu.total_racy, gpu.block_sums_unmasked, gpu.accumulate = total_racy, block_sums_unmasked, accumulate
"""
r = stand_in.run_diff([script], setup, timeout=600)
out, err = r.stdout, r.stderr
assert r.returncode == 1, (r.returncode, out, err)
print(err) if os.environ.get("VERBOSE") else None
assert out.count("\n") == 3 and out.startswith("race: "), (out, err)


def line_of(marker):
    return next(i for i, l in enumerate(open(script), 1) if marker in l)


def section(kernel):
    """The reports of kernel's launches."""
    return "\n".join(block for block in err.split("tilevm --diff: ") if block.startswith(f"kernel {kernel},"))


race, tail, empty = section("total_racy"), section("block_sums_unmasked"), section("accumulate")
assert race.count("DIVERGED") == 2, err
assert f"planted_defects.py:{line_of('# RACE')}:" in race and "data-race" in race, race
assert "DIVERGED" in tail and f"planted_defects.py:{line_of('# TAIL')}:" in tail and "out-of-bounds" in tail, tail
assert "first divergent element: sums_ptr(3,)" in tail, tail
assert ": agreed" in empty and f"planted_defects.py:{line_of('# EMPTY')}:" in empty, empty
assert "uninitialized-read: load reads undefined element acc_ptr[0]" in empty, empty
rows = {l.split()[0]: l.split() for l in err.splitlines() if l.split() and l.split()[0] in
        ("total_racy", "block_sums_unmasked", "accumulate")}
assert rows["total_racy"][1:5] == ["2", "2", "0", "0"] and rows["total_racy"][5] == "2", rows
assert rows["block_sums_unmasked"][1:6] == ["1", "1", "0", "0", "1"] and rows["accumulate"][1:7] == ["1", "1", "0", "1", "0", "4"], rows
print("diff_triton_planted: ok (race, unmasked tail and torch.empty read found and located)")
