#!/usr/bin/env bash
# run_scripts.sh PYTHONPATH_DIR - each script here, unmodified Triton-style code, run under
# `python3 -m tilevm` (Debian's /usr/bin/python3 with NumPy): each must pass its own checks.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export PYTHONPATH="$1"
failed=0
for script in "$here"/*.py; do
  if out=$(/usr/bin/python3 -m tilevm "$script" 2>&1); then
    echo "ok   $(basename "$script"): $(echo "$out" | tail -n 1)"
  else
    echo "FAIL $(basename "$script")"
    echo "$out" | tail -n 20
    failed=1
  fi
done
exit $failed
