# Ctrl-C during a launch: a SIGINT sent while the interpreter spins in a long loop stops the
# launch (within a loop iteration) and raises KeyboardInterrupt well before the launch would
# end; the next launch runs normally, and so does one in a forked child.
import os
import signal
import threading
import time

import numpy as np

import tilevm
import triton
import triton.language as tl


@triton.jit
def spin(x_ptr, n):
    i = 0
    while i < n:
        i += 1
    tl.store(x_ptr + tl.program_id(0), i)


if tilevm.options["device"] != "cpu":
    print("interrupt: skipped (the GPU engine runs a launch to its end)")
    raise SystemExit(0)
tilevm.options.update(fuel=2**62, timeout=20)  # without the watcher, the launch would run 20 s
x = np.zeros(64, dtype=np.int32)
timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
start = time.monotonic()
timer.start()
try:
    spin[(64,)](x, 2**31 - 1)
    raise AssertionError("the launch ended without KeyboardInterrupt")
except KeyboardInterrupt:
    elapsed = time.monotonic() - start
timer.join()
assert elapsed < 2.3, f"KeyboardInterrupt came {elapsed:.2f} s after the launch began (SIGINT at 0.3 s)"
tilevm.options.update(fuel=2**24, timeout=300)
spin[(2,)](x, 5)
assert list(x[:2]) == [5, 5], x[:2]
# A signal handler that launches while a launch is being watched (re-entrant) runs in place.
nested_ran = []


def nested(signum, frame):
    z = np.zeros(2, dtype=np.int32)
    spin[(2,)](z, 4)
    assert list(z) == [4, 4], z
    nested_ran.append(outer_running)


signal.signal(signal.SIGUSR1, nested)
timer = threading.Timer(0.1, lambda: os.kill(os.getpid(), signal.SIGUSR1))
outer_running = True
tilevm.options["threads"] = 1  # the programs one after another: a launch of about a second on any CPU
timer.start()
spin[(8,)](x, 200000)
outer_running = False
tilevm.options["threads"] = 0
timer.join()
assert nested_ran == [True], nested_ran
assert list(x[:8]) == [200000] * 8, x[:8]

# A child of fork() launches too (the parent's launch thread does not exist there).
pid = os.fork()
if pid == 0:
    y = np.zeros(2, dtype=np.int32)
    spin[(2,)](y, 3)
    os._exit(0 if list(y) == [3, 3] else 1)
_, status = os.waitpid(pid, 0)
assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
print(f"interrupt: ok (KeyboardInterrupt {elapsed - 0.3:.3f} s after SIGINT)")
