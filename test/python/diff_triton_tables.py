"""`python3 -m tilevm --diff triton` on a kernel that reaches its tensors through pointer tables
(modules/diff_triton_tables_script.py, grouped GEMM's pattern), in a child Python whose `triton`
is the stand-in package and whose "GPU" computes the kernel in Python with one wrong element:
the tables' pointees are copied, the interpreter's run reads and writes the copies (no
out-of-bounds finding), and each pointee is compared, the wrong one reported as dst_ptrs[1]."""
import os

from modules import stand_in

script = os.path.join(stand_in.HERE, "modules", "diff_triton_tables_script.py")
setup = """
def grouped_scale(src_ptrs, dst_ptrs, sizes, BLOCK):
    import gc
    live = {t.data_ptr(): t for t in gc.get_objects() if isinstance(t, torch.Tensor)}
    for g, n in enumerate(sizes.tolist()):
        dst = live[int(dst_ptrs[g])]
        dst.copy_(live[int(src_ptrs[g])] * 2)
        if g == 1:
            dst[3] += 1


gpu.grouped_scale = grouped_scale
"""
r = stand_in.run_diff([script], setup)
err = r.stderr
assert r.returncode == 1 and r.stdout.strip() == "script done", (r.returncode, r.stdout, err)
line = next(i for i, l in enumerate(open(script), 1) if "# LAUNCH" in l)
assert f"kernel grouped_scale, grid (3, 1, 1), at {script}:{line}: DIVERGED" in err, err
assert "first divergent element: dst_ptrs[1](3,) (fp32, shape (16,))" in err, err
assert "1 of 16 elements of dst_ptrs[1] differ" in err, err
assert "out-of-bounds" not in err and "found" not in err, err
rows = [l.split() for l in err.splitlines()]
assert ["grouped_scale", "1", "1", "0", "0", "1", "0", "0"] in rows, err
print("diff_triton_tables: ok (pointer tables' pointees copied, run on the interpreter and compared)")
