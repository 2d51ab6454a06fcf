# gpu_common.py - what the GPU benchmarks share: running the tilevm binary on the anchor kernels
# with a fresh kernel cache per command (so compile times are cold), logging each command, and
# timing a kernel with `tilevm run --device cuda --repeat` (CUDA events, L2 cleared per launch).
import json
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KFILE = os.path.join(HERE, "anchors", "triton_gpu_kernels.py")


class Tilevm:
    def __init__(self, binary, out_dir, log_name, reps, log_chars=3000):
        self.binary, self.out_dir, self.reps, self.log_chars = binary, out_dir, str(reps), log_chars
        self.log = open(os.path.join(out_dir, log_name), "w")

    def __call__(self, cmd, *extra):
        """`tilevm CMD anchors.py EXTRA...`, logged; the CompletedProcess."""
        env = dict(os.environ, TILEVM_CACHE_DIR=tempfile.mkdtemp(prefix="tilevm-cache-"))
        p = subprocess.run([self.binary, cmd, KFILE, *extra], capture_output=True, text=True, env=env)
        n = self.log_chars
        self.log.write(f"$ tilevm {cmd} {' '.join(extra)}\n{p.stdout[-n:]}{p.stderr[-n:]}exit {p.returncode}\n\n")
        self.log.flush()
        return p

    def ms(self, args):
        """(median launch ms, compile ms) of the kernel on the GPU engine, or (None, None)."""
        js = os.path.join(self.out_dir, "run.json")
        p = self("run", *args, "--device", "cuda", "--repeat", self.reps, "--json", js)
        if p.returncode != 0:
            return None, None
        r = json.load(open(js))
        return r["seconds"] * 1e3, r["compile_seconds"] * 1e3
