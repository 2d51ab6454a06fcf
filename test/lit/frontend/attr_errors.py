# RUN: not %tilevm compile %s -k bad_sem --signature 'x: *i32' 2>&1 | FileCheck %s --check-prefix=SEM
# RUN: not %tilevm compile %s -k bad_eviction --signature 'x: *fp32' 2>&1 | FileCheck %s --check-prefix=EVICT
# RUN: not %tilevm compile %s -k bad_scan_axis --signature 'x: *fp32' 2>&1 | FileCheck %s --check-prefix=SCAN
# RUN: not %tilevm compile %s -k scan_scalar --signature 'x: *fp32' 2>&1 | FileCheck %s --check-prefix=SCALAR
# Strings and axes that reach IR attributes are checked at the call, located at the user's
# source (found by the Python frontend fuzzer: these were "internal error: does not verify").
import triton
import triton.language as tl


@triton.jit
def bad_sem(x):
    tl.atomic_add(x, 1, sem="acq-rel")
# SEM: attr_errors.py:[[#@LINE-1]]:{{[0-9]+}}: error: sem must be one of relaxed, acquire, release, acq_rel, got 'acq-rel'


@triton.jit
def bad_eviction(x):
    tl.store(x, tl.load(x, eviction_policy="evict_fast"))
# EVICT: attr_errors.py:[[#@LINE-1]]:{{[0-9]+}}: error: eviction_policy must be evict_first, evict_last or evict_normal, got 'evict_fast'


@triton.jit
def bad_scan_axis(x):
    v = tl.load(x + tl.arange(0, 16))
    tl.store(x + tl.arange(0, 16), tl.cumsum(v, axis=5))
# SCAN: attr_errors.py:[[#@LINE-1]]:{{[0-9]+}}: error: axis 5 out of range for tile<16xf32> (fp32)


@triton.jit
def scan_scalar(x):
    tl.store(x, tl.cumsum(tl.load(x), 0))
# SCALAR: attr_errors.py:[[#@LINE-1]]:{{[0-9]+}}: error: cannot scan a scalar (fp32 scalar)
