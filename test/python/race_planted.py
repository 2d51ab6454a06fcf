# A planted race: every program stores its block to the same place. tilevm raises KernelError
# naming the store's line; the script checks that it did.
import numpy as np

import tilevm
import triton
import triton.language as tl


@triton.jit
def racy_copy(x_ptr, y_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + pid * BLOCK + offs)
    tl.store(y_ptr + offs, x)  # every program writes y[0:BLOCK]: a race


x = np.arange(64, dtype=np.float32)
y = np.zeros(16, dtype=np.float32)
try:
    racy_copy[(4,)](x, y, BLOCK=16)
except tilevm.KernelError as e:
    assert "race_planted.py:15:" in e.report and "data-race" in e.report, e.report
    print("race_planted: KernelError as expected:", e.report.splitlines()[0])
else:
    raise SystemExit("race_planted: the race was not reported")
