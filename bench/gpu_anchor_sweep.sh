#!/usr/bin/env bash
# gpu_anchor_sweep.sh - on the GPU machine: issue 22's must-show for the package carried
# (distpy.tar.xz, scripts/distpy.sh), each part beside Triton (and cuBLAS/SDPA) in the same call,
# logs and JSON under $OUT/PART, then one table of every ratio against its bar (0.9x Triton for the
# tensor-core anchors, 0.98x for the memory-bound ones; each row's diff must be PASS). A device
# call is limited to 10 minutes: run the parts over two calls, e.g.
#   OUT=$OUT PARTS="check memory" bash bench/gpu_anchor_sweep.sh
#   OUT=$OUT PARTS="f16 bf16 tf32 attention" bash bench/gpu_anchor_sweep.sh
# Parts: check (tilevm_gpu_tests, the corpus through `tilevm diff` at 1 and 3 stages), memory
# (gpu_bench.py), f16 / bf16 (matmul at 4096^3 and 8192^3), tf32 (4096^3), attention (forward,
# D64 and D128). SIZES, CONFIGS and STAGES override the matmul sweeps.
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
PY=${PY:-python3}
if [ ! -x dist/tilevm ] || [ distpy.tar.xz -nt dist/tilevm ]; then
  tar xJf distpy.tar.xz && mkdir -p dist/py && rm -rf dist/py/tilevm && mv dist/pkg_tilevm dist/py/tilevm
fi
export LD_LIBRARY_PATH=$PWD/dist:${LD_LIBRARY_PATH:-} TILEVM_SOURCE_DIR=$PWD TILEVM=dist/tilevm
for part in ${PARTS:-check memory f16 bf16 tf32 attention}; do
  dir=$OUT/$part
  mkdir -p "$dir"
  start=$(date +%s)
  case $part in
    check)
      dist/tilevm_gpu_tests > "$dir/gpu_tests.log" 2>&1; echo "gpu tests rc=$? $(tail -1 "$dir/gpu_tests.log")"
      $PY bench/gpu_corpus_diff.py dist/tilevm > "$dir/corpus_diff.log" 2>&1; echo "corpus rc=$? $(tail -1 "$dir/corpus_diff.log")"
      EXTRA="--num-stages 3" $PY bench/gpu_corpus_diff.py dist/tilevm > "$dir/corpus_diff_stages3.log" 2>&1
      echo "corpus, 3 stages rc=$? $(tail -1 "$dir/corpus_diff_stages3.log")" ;;
    memory) OUT=$dir $PY bench/gpu_bench.py > "$dir/run.log" 2>&1 ;;
    f16 | bf16)
      dtype=$([ "$part" = f16 ] && echo float16 || echo bfloat16)
      OUT=$dir DTYPES=$dtype SIZES=${SIZES:-4096,8192} CONFIGS=${CONFIGS:-128,256,64,8} STAGES=${STAGES:-3,4} ATTN=0 \
        $PY bench/gpu_dot_bench.py > "$dir/run.log" 2>&1 ;;
    tf32) OUT=$dir DTYPES=float32 SIZES=4096 CONFIGS=128,256,32,8 STAGES=3,4 ATTN=0 $PY bench/gpu_dot_bench.py > "$dir/run.log" 2>&1 ;;
    attention) OUT=$dir DTYPES='' ATTN_D=64,128 ACFG="128,64,8;128,128,8" $PY bench/gpu_dot_bench.py > "$dir/run.log" 2>&1 ;;
    *) echo "unknown part '$part' (check memory f16 bf16 tf32 attention)"; continue ;;
  esac
  echo "part $part: rc=$? $(( $(date +%s) - start )) s"
done
$PY bench/anchor_summary.py "$OUT" | tee "$OUT/summary.md"
