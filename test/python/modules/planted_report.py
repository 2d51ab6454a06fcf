"""What `--diff triton` must say of test/triton/planted_defects.py, live or replayed from its
fixtures, with the stand-in's "GPU" or with real Triton's: each defect found by the interpreter
and located at its line with its kind (the race at its store, the tail read out of bounds, the
torch.empty read uninitialized), the race and the tail diverging, the summary's rows."""
import os

from modules import stand_in

SCRIPT = os.path.join(os.path.dirname(stand_in.HERE), "triton", "planted_defects.py")


def line_of(marker):
    return next(i for i, l in enumerate(open(SCRIPT), 1) if marker in l)


def check(err, stand_in_gpu=True):
    """Asserts the report `err` (stderr of a run or a replay) names every planted defect. The
    stand-in's "GPU" reads 0.5 past the tensor, so the tail diverges at its last block; what a
    real GPU reads there is whatever lies past it (often zeros: then the tail agrees)."""

    def section(kernel):
        return "\n".join(block for block in err.split("tilevm --diff: ") if block.startswith(f"kernel {kernel},"))

    race, tail, empty = section("total_racy"), section("block_sums_unmasked"), section("accumulate")
    assert race.count("DIVERGED") == 2, err
    assert f"planted_defects.py:{line_of('# RACE')}:" in race and "data-race" in race, race
    assert f"planted_defects.py:{line_of('# TAIL')}:" in tail and "out-of-bounds" in tail, tail
    if stand_in_gpu:
        assert "DIVERGED" in tail and "first divergent element: sums_ptr(3,)" in tail, tail
    assert ": agreed" in empty and f"planted_defects.py:{line_of('# EMPTY')}:" in empty, empty
    assert "uninitialized-read: load reads undefined element acc_ptr[0]" in empty, empty
    rows = {l.split()[0]: l.split() for l in err.splitlines() if l.split() and l.split()[0] in
            ("total_racy", "block_sums_unmasked", "accumulate")}
    assert rows["total_racy"][1:5] == ["2", "2", "0", "0"] and rows["total_racy"][5] == "2", rows
    assert rows["block_sums_unmasked"][1:4] == ["1", "1", "0"] and rows["block_sums_unmasked"][6] == "1", rows
    if stand_in_gpu:
        assert rows["block_sums_unmasked"][4:6] == ["0", "1"], rows
    assert rows["accumulate"][1:7] == ["1", "1", "0", "1", "0", "4"], rows
