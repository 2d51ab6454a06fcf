#!/usr/bin/env bash
# gpu_python_sweep.sh - on the GPU machine: the Python door under --device cuda with the
# extension built for its Python 3.12 (distpy.tar.xz: dist/tilevm, dist/tilevm_gpu_tests,
# dist/libtbb.so.12, dist/pkg_tilevm), beside real Triton in the same call. Logs under $OUT;
# TUTORIALS=dir (Triton's tutorials, carried, never in the repository) adds them; ONLY="01 05"
# picks some by number; TUT_TIMEOUT (s, default 240) bounds each run; ENGINES (default "triton
# tilevm-cuda"; tilevm-cpu: the interpreter on that machine's CPU; diff-triton: real Triton with
# every launch checked on the interpreter, python3 -m tilevm --diff triton; RECORD=1 keeps
# fixtures under $OUT/fixtures_NAME) picks the engines.
#   1. tilevm_gpu_tests (and with CORPUS=1 the corpus through tilevm diff, at 1 and 3 stages); 2. test/python scripts under --device cuda (run_scripts.sh, GPU mode);
#   3. launch overhead (2 and 3 skipped with SCRIPTS=0): bench/launch_overhead.py under Triton, tilevm --device cuda, tilevm cpu;
#   4. each tutorial under real Triton and under tilevm --device cuda (exit code, time, table).
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
tar xJf distpy.tar.xz
mkdir -p dist/py && rm -rf dist/py/tilevm && mv dist/pkg_tilevm dist/py/tilevm
export LD_LIBRARY_PATH=$PWD/dist:${LD_LIBRARY_PATH:-}
export TILEVM_SOURCE_DIR=$PWD TILEVM_CACHE_DIR=/tmp/tilevm-sweep-cache  # not under $OUT: hundreds of files
PY=${PY:-python3}
ROOT=$PWD
echo "== gpu tests"; dist/tilevm_gpu_tests > "$OUT/gpu_tests.log" 2>&1; echo "gpu tests rc=$?"; tail -3 "$OUT/gpu_tests.log"
if [ "${CORPUS:-0}" = 1 ]; then
  echo "== corpus diff"; python3 bench/gpu_corpus_diff.py dist/tilevm > "$OUT/corpus_diff.log" 2>&1; echo "corpus rc=$?"; tail -2 "$OUT/corpus_diff.log"
  # Again with 3 stages: the wgmma loops' rings (cp.async, prefix masks, the TMA's copies).
  echo "== corpus diff, 3 stages"; EXTRA="--num-stages 3" python3 bench/gpu_corpus_diff.py dist/tilevm > "$OUT/corpus_diff_stages3.log" 2>&1
  echo "corpus (3 stages) rc=$?"; tail -2 "$OUT/corpus_diff_stages3.log"
fi
if [ "${SCRIPTS:-1}" = 1 ]; then
echo "== python scripts under --device cuda"
PYTHON=$PY TILEVM_TEST_GPU=1 bash test/python/run_scripts.sh "$PWD/dist/py" > "$OUT/python_scripts_gpu.log" 2>&1
echo "scripts rc=$?"; grep -c '^ok' "$OUT/python_scripts_gpu.log"; grep -A12 '^FAIL' "$OUT/python_scripts_gpu.log" | head -60
echo "== launch overhead (us per launch, 4096-element vector add)"
for i in 1 2; do
  $PY bench/launch_overhead.py 5000 2>&1 | tee -a "$OUT/launch_overhead.log"
  PYTHONPATH=$PWD/dist/py $PY -m tilevm --device cuda bench/launch_overhead.py 5000 2>&1 | tee -a "$OUT/launch_overhead.log"
  PYTHONPATH=$PWD/dist/py $PY -m tilevm bench/launch_overhead.py 500 2>&1 | tee -a "$OUT/launch_overhead.log"
  PYTHONPATH=$PWD/dist/py $PY -m tilevm --check none bench/launch_overhead.py 500 2>&1 | tee -a "$OUT/launch_overhead.log"
done
fi
if [ -n "${TUTORIALS:-}" ]; then
  for t in "$TUTORIALS"/*.py; do
    name=$(basename "$t" .py)
    if [ -n "${ONLY:-}" ] && ! echo " $ONLY " | grep -q " ${name%%-*} "; then continue; fi
    for engine in ${ENGINES:-triton tilevm-cuda}; do
      log="$OUT/tutorial_${name}_${engine}.log"
      start=$(date +%s)
      if [ $engine = triton ]; then (cd "$(dirname "$t")" && timeout ${TUT_TIMEOUT:-240} $PY "$t") > "$log" 2>&1
      elif [ $engine = diff-triton ]; then
        record=(); [ "${RECORD:-0}" = 1 ] && record=(--diff-record "$OUT/fixtures_$name")
        (cd "$(dirname "$t")" && PYTHONPATH=$ROOT/dist/py timeout ${TUT_TIMEOUT:-240} $PY -m tilevm --diff triton \
          "${record[@]}" "$t") > "$log" 2>&1
      else
        device=cuda; [ $engine = tilevm-cpu ] && device=cpu
        (cd "$(dirname "$t")" && PYTHONPATH=$ROOT/dist/py timeout ${TUT_TIMEOUT:-240} $PY -m tilevm --device $device "$t") > "$log" 2>&1
      fi
      rc=$?
      echo "tutorial $name $engine: rc=$rc $(( $(date +%s) - start )) s; $(grep -v '^\s*$' "$log" | tail -1 | cut -c1-150)"
    done
  done
fi
