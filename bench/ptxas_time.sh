#!/usr/bin/env bash
# ptxas_time.sh TILEVM - on the GPU machine: how much of a cold compile is ptxas, for Triton's and
# tilevm's PTX of the same anchor kernels. Triton compiles them cold (bench/anchors/triton_compile.py,
# its cache under a fresh TMPDIR); then ptxas (Triton's bundled one and the toolkit's, -O3, sm_90a,
# best of 3) times each .ptx Triton cached and tilevm's PTX of the kernel (`tilevm ptx`, the
# compile_time.sh arguments; its own wall time is LLVM plus process start). One line per kernel.
set -uo pipefail
T=${1:-dist/tilevm}
A=bench/anchors/triton_gpu_kernels.py
work=$(mktemp -d)
TMPDIR=$work OUT=$work python3 bench/anchors/triton_compile.py > "$work/triton_compile.log" 2>&1
bundled=$(python3 -c "import os, triton; print(os.path.join(os.path.dirname(triton.__file__), 'backends/nvidia/bin/ptxas'))")
toolkit=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
best_ms() {  # best of 3 wall times of a command, in ms
  local best=999999 s e
  for _ in 1 2 3; do
    s=$(date +%s%N); "$@" > /dev/null 2>&1 || { echo fail; return; }; e=$(( ($(date +%s%N) - s) / 1000000 ))
    [ "$e" -lt "$best" ] && best=$e
  done
  echo "$best"
}
declare -A ARGS=(
  [softmax_k]="-k softmax_k -D BLOCK=1024 --arg out=empty:f32:1024x1024 --arg inp=randn:f32:1024x1024 --arg in_stride=1024 --arg out_stride=1024 --arg n_cols=1024"
  [matmul_k]="-k matmul_k -D BM=128 -D BN=128 -D BK=64 -D GM=8 --num-warps 4 --num-stages 3 --arg a=randn:f16:1024x1024 --arg b=randn:f16:1024x1024 --arg c=empty:f16:1024x1024 --arg M=1024 --arg N=1024 --arg K=1024 --arg sam=1024 --arg sak=1 --arg sbk=1024 --arg sbn=1 --arg scm=1024 --arg scn=1"
  [attn_k]="-k attn_k -D N_CTX=1024 -D HEAD=64 -D BM=128 -D BN=64 --num-warps 8 --num-stages 3 --arg Q=randn:f16:8x1024x64 --arg K=randn:f16:8x1024x64 --arg V=randn:f16:8x1024x64 --arg O=empty:f16:8x1024x64 --arg sm_scale=0.125"
)
echo "Triton cold compile (s): $(grep -h compile_s "$work/triton_compile.log" | tr '\n' ' ')"
echo "ptxas: bundled $("$bundled" --version | tail -n 1); toolkit $("$toolkit" --version | tail -n 1)"
for k in softmax_k matmul_k attn_k; do
  tp=$(find "$work" -name "$k.ptx" | head -n 1)
  # shellcheck disable=SC2086
  llvm=$(best_ms "$T" ptx $A ${ARGS[$k]} --arch sm_90a -o "$work/tilevm_$k.ptx")
  for who in triton tilevm; do
    p=$tp; [ $who = tilevm ] && p=$work/tilevm_$k.ptx
    [ -f "$p" ] || { echo "$k $who: no PTX"; continue; }
    echo "$k $who: $(wc -l < "$p") PTX lines; ptxas bundled $(best_ms "$bundled" -O3 --gpu-name sm_90a "$p" -o "$work/x.cubin") ms," \
         "toolkit $(best_ms "$toolkit" -O3 -arch=sm_90a "$p" -o "$work/x.cubin") ms$([ $who = tilevm ] && echo ", tilevm ptx (LLVM + start) $llvm ms")"
  done
done
rm -rf "$work"
