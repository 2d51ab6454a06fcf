#!/usr/bin/env bash
# triton_tests_h200.sh TESTDIR FILE... - on the GPU machine's CPU: Triton's interpreter unit tests
# (the files under TESTDIR, Triton's python/test/unit/language with its conftests above; carried,
# never in this repository), unmodified, first under tilevm (`python3 -m tilevm -m pytest -m
# interpreter --device=cpu`, distpy.tar.xz's extension) and then under Triton's own interpreter
# (TRITON_INTERPRET=1), in one call. JUnit XML of each under $OUT; bench/compare_junit.py reads
# them. N (default 16) xdist workers; TIMEOUT (s, default 300) bounds each run.
set -uo pipefail
OUT=${OUT:-/tmp/out}
dir=$1; shift
mkdir -p "$OUT"
tar xJf distpy.tar.xz
mkdir -p dist/py && rm -rf dist/py/tilevm && mv dist/pkg_tilevm dist/py/tilevm
export LD_LIBRARY_PATH=$PWD/dist:${LD_LIBRARY_PATH:-} TILEVM_CACHE_DIR=/tmp/tilevm-tests-cache
root=$PWD
cd "$dir"
args=(-m interpreter --device=cpu -q -p no:cacheprovider -n "${N:-16}")
for f in "$@"; do
  name=$(basename "$f" .py)
  start=$(date +%s)
  PYTHONPATH=$root/dist/py timeout "${TIMEOUT:-300}" python3 -m tilevm -m pytest "${args[@]}" --junitxml="$OUT/${name}_tilevm.xml" "$f" \
    > "$OUT/${name}_tilevm.log" 2>&1
  echo "$name tilevm: rc=$? $(( $(date +%s) - start )) s; $(tail -n 1 "$OUT/${name}_tilevm.log")"
  start=$(date +%s)
  TRITON_INTERPRET=1 timeout "${TIMEOUT:-300}" python3 -m pytest "${args[@]}" --junitxml="$OUT/${name}_triton.xml" "$f" \
    > "$OUT/${name}_triton.log" 2>&1
  echo "$name triton interpreter: rc=$? $(( $(date +%s) - start )) s; $(tail -n 1 "$OUT/${name}_triton.log")"
done
