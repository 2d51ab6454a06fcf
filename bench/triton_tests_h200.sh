#!/usr/bin/env bash
# triton_tests_h200.sh TESTDIR FILE... - on the GPU machine's CPU: Triton's interpreter unit tests
# (the files under TESTDIR, Triton's python/test/unit/language with its conftests above; carried,
# never in this repository), unmodified, under tilevm (`python3 -m tilevm -m pytest -m
# interpreter --device=cpu`, distpy.tar.xz's extension) and under Triton's own interpreter
# (TRITON_INTERPRET=1), side by side in one call (each with N xdist workers, default 8).
# JUnit XML of each under $OUT; bench/compare_junit.py reads them. TIMEOUT (s, default 300)
# bounds each run.
set -uo pipefail
OUT=${OUT:-/tmp/out}
dir=$1; shift
mkdir -p "$OUT"
if [ ! -d dist/py/tilevm ]; then
  tar xJf distpy.tar.xz
  mkdir -p dist/py && mv dist/pkg_tilevm dist/py/tilevm
fi
export LD_LIBRARY_PATH=$PWD/dist:${LD_LIBRARY_PATH:-} TILEVM_CACHE_DIR=/tmp/tilevm-tests-cache
root=$PWD
cd "$dir"
args=(-m interpreter --device=cpu -q -p no:cacheprovider -n "${N:-8}")
run() {  # ENGINE FILE
  local name start
  name=$(basename "$2" .py)
  start=$(date +%s)
  if [ "$1" = tilevm ]; then
    PYTHONPATH=$root/dist/py timeout "${TIMEOUT:-300}" python3 -m tilevm -m pytest "${args[@]}" --junitxml="$OUT/${name}_tilevm.xml" "$2" \
      > "$OUT/${name}_tilevm.log" 2>&1
  else
    TRITON_INTERPRET=1 timeout "${TIMEOUT:-300}" python3 -m pytest "${args[@]}" --junitxml="$OUT/${name}_triton.xml" "$2" \
      > "$OUT/${name}_triton.log" 2>&1
  fi
  echo "$name $1: rc=$? $(( $(date +%s) - start )) s; $(tail -n 1 "$OUT/${name}_$1.log")"
}
for f in "$@"; do
  run tilevm "$f" &
  run triton "$f" &
  wait
done
