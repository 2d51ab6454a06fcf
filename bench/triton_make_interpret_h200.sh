#!/usr/bin/env bash
# triton_make_interpret_h200.sh ROOT - on the GPU machine's CPU: Triton's `make test-interpret`
# (its file list and flags: -m interpreter --device=cpu, from ROOT/python/test/unit, where ROOT is
# a checkout of Triton's python/ tree, carried, never in this repository), unmodified, under
# tilevm (`python3 -m tilevm -m pytest`, distpy.tar.xz's extension) and under Triton's own
# interpreter (TRITON_INTERPRET=1), side by side in one call (xdist workers: NV for tilevm, default 4;
# NT for Triton, default 12).
# JUnit XML and logs of each under $OUT, then bench/compare_junit.py's table. TIMEOUT (s,
# default 480) bounds each run.
set -uo pipefail
OUT=${OUT:-/tmp/out}
root=$(cd "$1" && pwd)
repo=$PWD
mkdir -p "$OUT"
if [ ! -d dist/py/tilevm ]; then
  tar xJf distpy.tar.xz
  mkdir -p dist/py && mv dist/pkg_tilevm dist/py/tilevm
fi
export LD_LIBRARY_PATH=$repo/dist:${LD_LIBRARY_PATH:-} TILEVM_CACHE_DIR=/tmp/tilevm-make-cache
files=(language/test_core.py language/test_standard.py language/test_random.py language/test_block_pointer.py
       language/test_subprocess.py language/test_line_info.py language/test_tuple.py runtime/test_launch.py
       "runtime/test_autotuner.py::test_kwargs[False]" ../../tutorials/06-fused-attention.py::test_op)
args=(--tb=short -m interpreter --device=cpu -q -p no:cacheprovider)
cd "$root/python/test/unit"
start=$(date +%s)
(PYTHONPATH=$repo/dist/py timeout "${TIMEOUT:-480}" python3 -m tilevm -m pytest "${args[@]}" -n "${NV:-4}" --junitxml="$OUT/make_tilevm.xml" \
  "${files[@]}" > "$OUT/make_tilevm.log" 2>&1; echo "tilevm: rc=$? $(( $(date +%s) - start )) s; $(tail -n 1 "$OUT/make_tilevm.log")") &
(TRITON_INTERPRET=1 timeout "${TIMEOUT:-480}" python3 -m pytest "${args[@]}" -n "${NT:-12}" --junitxml="$OUT/make_triton.xml" \
  "${files[@]}" > "$OUT/make_triton.log" 2>&1; echo "triton: rc=$? $(( $(date +%s) - start )) s; $(tail -n 1 "$OUT/make_triton.log")") &
wait
cd "$repo"
python3 bench/compare_junit.py "$OUT/make_tilevm.xml" "$OUT/make_triton.xml" | tee "$OUT/compare.txt"
