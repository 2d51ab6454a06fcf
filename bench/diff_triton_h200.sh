#!/usr/bin/env bash
# diff_triton_h200.sh - on the GPU machine: `python3 -m tilevm --diff triton` over real Triton
# (distpy.tar.xz's package): the planted defects (test/triton/planted_defects.py), the project's
# Triton-style scripts on CUDA tensors, Triton's tutorials (TUTORIALS=dir, carried, never in
# the repository; ONLY="01 05" picks some), each beside a plain Triton run of the same script,
# and the launch overhead (bench/launch_overhead.py: plain, every launch diffed, --diff-every 100).
# A tutorial runs through bench/profile_tutorial.py (its own checks; its benchmarks, which --diff
# triton would skip as timing, do not run); 06, whose checks are its pytest test_op, runs that
# (K06 selects, default "not 4096") with --diff-programs 64. SCRIPTS=0: the tutorials alone.
# Logs under $OUT (all of them also in logs.tar.gz), a table last.
# TUT_TIMEOUT (s, default 150) bounds each run (SIGINT: the summary still prints).
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
tar xJf distpy.tar.xz
mkdir -p dist/py && rm -rf dist/py/tilevm && mv dist/pkg_tilevm dist/py/tilevm
export LD_LIBRARY_PATH=$PWD/dist:${LD_LIBRARY_PATH:-} TILEVM_CACHE_DIR=/tmp/tilevm-diff-cache
ROOT=$PWD
T=${TUT_TIMEOUT:-150}
table=()
one() {  # one NAME DIR SCRIPT [ARGS]: plain Triton, then --diff triton $DIFF_OPTS; a table row
  local name=$1 dir=$2 script=$3; shift 3
  local s=$(date +%s%N)
  (cd "$dir" && timeout -s INT $T python3 "$script" "$@") > "$OUT/${name}_triton.log" 2>&1
  local rc1=$? t1=$(( ($(date +%s%N) - s) / 1000000 ))
  s=$(date +%s%N)
  (cd "$dir" && PYTHONPATH=$ROOT/dist/py timeout -s INT $T python3 -m tilevm --diff triton ${DIFF_OPTS:-} "$script" "$@") > "$OUT/${name}_diff.log" 2>&1
  local rc2=$? t2=$(( ($(date +%s%N) - s) / 1000000 ))
  local summary=$(awk '/--diff triton: summary/{f=1;next} f&&NF>=8&&$2~/^[0-9]+$/' "$OUT/${name}_diff.log" |
    awk '{l+=$2; c+=$3; a+=$5; d+=$6; f+=$7} END {printf "%d launches, %d compared, %d agreed, %d diverged, %d findings", l, c, a, d, f}')
  table+=("| $name | $rc1 | $((t1 / 1000)).$(( t1 % 1000 / 100 )) | $rc2 | $((t2 / 1000)).$(( t2 % 1000 / 100 )) | $summary |")
  echo "$name: triton rc=$rc1 ${t1} ms; --diff triton rc=$rc2 ${t2} ms; $summary"
}
if [ "${SCRIPTS:-1}" = 1 ]; then
  one planted_defects "$ROOT/test/triton" planted_defects.py
  for s in gpu/triton_rules; do  # the scripts on torch's CUDA tensors that import no tilevm
    one "script_${s#gpu/}" "$ROOT/test/python" "$s.py"
  done
fi
if [ -n "${TUTORIALS:-}" ]; then
  for t in "$TUTORIALS"/*.py; do
    name=$(basename "$t" .py)
    if [ -n "${ONLY:-}" ] && ! echo " $ONLY " | grep -q " ${name%%-*} "; then continue; fi
    if [[ $name == 06-* ]]; then
      DIFF_OPTS="--diff-programs 64" one "tutorial_$name" "$(dirname "$t")" -m pytest -q -p no:cacheprovider \
        "$(basename "$t")::test_op" -k "${K06:-not 4096}"
    else
      one "tutorial_$name" "$ROOT" bench/profile_tutorial.py "$t"
    fi
  done
fi
[ "${SCRIPTS:-1}" = 1 ] && echo "== launch overhead (4096-element vector add, us per launch)"
for i in $([ "${SCRIPTS:-1}" = 1 ] && echo 1 2); do
  python3 bench/launch_overhead.py 3000 2>&1 | sed 's/^/plain triton: /' | tee -a "$OUT/launch_overhead.log"
  PYTHONPATH=dist/py python3 -m tilevm --diff triton bench/launch_overhead.py 300 2>&1 | grep -v '^\s*$' | head -1 |
    sed 's/^/--diff triton, every launch: /' | tee -a "$OUT/launch_overhead.log"
  PYTHONPATH=dist/py python3 -m tilevm --diff triton --diff-every 100 bench/launch_overhead.py 3000 2>&1 | grep -v '^\s*$' | head -1 |
    sed 's/^/--diff triton --diff-every 100: /' | tee -a "$OUT/launch_overhead.log"
done
echo
echo "| script | Triton rc | Triton s | --diff triton rc | --diff triton s | launches |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${table[@]}"
tar czf "$OUT/logs.tar.gz" -C "$OUT" $(cd "$OUT" && ls *.log)  # one file: a call returns a limited count
