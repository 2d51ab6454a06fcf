"""Writes one --diff-record fixture into DIR (argv[1]): a launch of axpy2d whose recorded GPU
result has a NaN at out_ptr[1, 2] where the float64-correct result has a number; run_scripts.sh
replays it with `python3 -m tilevm --diff-replay DIR`."""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from modules.diff_triton_kernels import axpy2d  # noqa: E402
from tilevm.diff_triton import record  # noqa: E402

torch.manual_seed(0)
x, y = torch.randn(4, 8), torch.randn(4, 8)
gpu_out = (2 * x.double() + y.double()).float()
gpu_out[1, 2] = float("nan")
record.Recorder(sys.argv[1]).save(axpy2d, dict(x_ptr=x, y_ptr=y, out_ptr=torch.zeros(4, 8), n_cols=8, stride=8, BLOCK=8),
                                  (4, 1, 1), {"x_ptr": x, "y_ptr": y, "out_ptr": gpu_out}, {"num_warps": 4}, "fixture:1")
