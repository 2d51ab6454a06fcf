# bounded.py - runs a command under a wall-clock bound (and, optionally, a peak-memory bound and
# a SIGINT sent after a delay), prints its output and exit status, and fails past a bound.
# usage: bounded.py --seconds S [--max-rss-mb M] [--sigint-after T] -- COMMAND...
import argparse
import os
import signal
import subprocess
import sys
import time

ap = argparse.ArgumentParser()
ap.add_argument("--seconds", type=float, required=True, help="the command (after the SIGINT, if any) must end within this")
ap.add_argument("--max-rss-mb", type=float, help="its peak resident memory must stay below this")
ap.add_argument("--sigint-after", type=float, help="send SIGINT this many seconds after the start")
ap.add_argument("command", nargs=argparse.REMAINDER)
a = ap.parse_args()
cmd = a.command[1:] if a.command and a.command[0] == "--" else a.command
env = dict(os.environ)
# Sanitized builds: keep AddressSanitizer's quarantine of freed memory out of the peak.
env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=8").lstrip(":")


def default_sigint():  # as from a terminal, whatever the test runner ignores
    signal.signal(signal.SIGINT, signal.SIG_DFL)


start = time.monotonic()
p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, preexec_fn=default_sigint)
sent = None
if a.sigint_after is not None:
    time.sleep(a.sigint_after)
    p.send_signal(signal.SIGINT)
    sent = time.monotonic()
try:
    out, _ = p.communicate(timeout=a.seconds + (a.sigint_after or 0))
except subprocess.TimeoutExpired:
    p.kill()
    out, _ = p.communicate()
    sys.stdout.write(out.decode(errors="replace"))
    print(f"bounded.py: FAIL: still running after {a.seconds} s")
    sys.exit(1)
elapsed = time.monotonic() - (sent if sent is not None else start)
sys.stdout.write(out.decode(errors="replace"))
print(f"bounded.py: exit {p.returncode}")
import resource
print(f"bounded.py: {elapsed:.1f} s, peak {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024} MB", file=sys.stderr)
failed = False
if elapsed > a.seconds:
    print(f"bounded.py: FAIL: took {elapsed:.1f} s, more than {a.seconds} s")
    failed = True
if a.max_rss_mb is not None:
    import resource
    rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if rss_mb > a.max_rss_mb:
        print(f"bounded.py: FAIL: peak memory {rss_mb:.0f} MB, more than {a.max_rss_mb} MB")
        failed = True
sys.exit(1 if failed else 0)
