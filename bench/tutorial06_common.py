"""tutorial06_common.py - what bench/tutorial06_fwd.py and tutorial06_bwd.py share: Triton's
fused-attention tutorial loaded from its file as a module, the engine running it (real Triton, or
tilevm under `python3 -m tilevm`), and the shapes both time: batch B, H heads, each N_CTX of the
command line (default 4096), head dims 64 and 128, causal and not."""
import importlib.util
import sys

B, H = 4, 32
ENGINE = "tilevm" if "tilevm" in sys.modules else "triton"


def load(path):
    """The tutorial at `path` as a module (its kernels, `attention`, its autotune configs)."""
    spec = importlib.util.spec_from_file_location("tutorial06", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def shapes(argv):
    """(n_ctx, head_dim, causal) for each shape to time; argv: the N_CTX values given."""
    for n_ctx in [int(x) for x in argv] or [4096]:
        for head in (64, 128):
            for causal in (False, True):
                yield n_ctx, head, causal
