#!/usr/bin/env bash
# interp_bench.sh - the interpreter on the anchor kernels at the interpreter sizes of
# shared/design/ANCHORS.md, checks off and on, beside Triton's own interpreter and native
# torch on the same CPU when they are installed (the GPU machine), and beside plain C++ loops
# of the same kernels when bench/native_anchors.cpp was built. Prints a table, writes
# $OUT/interp_bench.json and $OUT/interp_bench.md.
#   TILEVM=path/to/tilevm OUT=dir REPS=5 bench/interp_bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
TILEVM=${TILEVM:-build/tools/tilevm}
OUT=${OUT:-bench/results}
REPS=${REPS:-5}
THREADS=${THREADS:-$(nproc)}
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck source=anchor_runs.sh
source bench/anchor_runs.sh

# Median of REPS warm launches in one process (the interpreter's own timer: compilation, data
# generation and the first, cold launch excluded, as the Triton anchor times warm calls).
median_ms() {  # median_ms NAME CHECK
  local name=$1 check=$2
  # shellcheck disable=SC2086
  "$TILEVM" run ${CMD[$name]} --check "$check" --threads "$THREADS" --repeat "$((REPS + 1))" --json "$tmp/r.json" -q >/dev/null 2>&1 || true
  python3 -c "import json;print(json.load(open('$tmp/r.json'))['seconds']*1e3)"
}

echo "{" > "$OUT/interp_bench.json"
first=1
for name in $ORDER; do
  off=$(median_ms "$name" none)
  on=$(median_ms "$name" all)
  # shellcheck disable=SC2086
  rss=$(python3 -c "import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)" "$TILEVM" run ${CMD[$name]} --check all --threads "$THREADS" -q)
  [ $first = 1 ] || echo "," >> "$OUT/interp_bench.json"
  first=0
  printf '  "%s": {"tilevm_ms_checks_off": %s, "tilevm_ms_checks_on": %s, "peak_rss_kb_checks_on": %s}' "$name" "$off" "$on" "${rss:-0}" >> "$OUT/interp_bench.json"
  echo "$name: checks off $off ms, on $on ms, peak RSS ${rss} KiB" >&2
done
printf '\n}\n' >> "$OUT/interp_bench.json"

# Plain C++ loops of the same kernels, where that anchor was built for this CPU
# (cmake --build build-release --target tilevm_native_anchors): the native anchor without torch.
NATIVE=${NATIVE:-build-release/bench/tilevm_native_anchors}
if [ -x "$NATIVE" ]; then
  echo "running the plain C++ anchors ($NATIVE) ..." >&2
  "$NATIVE" "$OUT" "$THREADS" "$REPS" >&2 || echo "native anchors failed" >&2
fi

# The anchors in the same run, where Triton and torch exist.
if python3 -c "import triton, torch" 2>/dev/null; then
  echo "running Triton's interpreter (THREADS=$THREADS) ..." >&2
  THREADS=$THREADS OUT=$OUT timeout 900 python3 bench/anchors/triton_interp.py > "$OUT/triton_interp.log" 2>&1 || echo "triton_interp.py failed (see $OUT/triton_interp.log)" >&2
fi
python3 bench/interp_table.py "$OUT" "$THREADS" | tee "$OUT/interp_bench.md"
