#!/usr/bin/env bash
# compile_time.sh TILEVM - on the GPU machine: the anchor kernels' compile time on tilevm's GPU
# engine in three cache states, beside Triton's cold compile (bench/anchors/triton_compile.py) in
# the same call: cold (empty kernel cache, the driver's JIT cache off: frontend, LLVM and the
# driver's JIT), PTX cached (the driver JITs again), both cached (the driver's compute cache
# serves the cubin). "compiled in" is tilevm's own count (to a loaded module); wall is the
# process, start to exit. One line per kernel and state, then Triton's numbers.
set -uo pipefail
T=${1:-dist/tilevm}
A=bench/anchors/triton_gpu_kernels.py
declare -A ARGS=(
  [softmax]="-k softmax_k -D BLOCK=1024 --grid 1024 --arg out=empty:f32:1024x1024 --arg inp=randn:f32:1024x1024 --arg in_stride=1024 --arg out_stride=1024 --arg n_cols=1024"
  [matmul]="-k matmul_k -D BM=128 -D BN=128 -D BK=64 -D GM=8 --num-warps 4 --num-stages 3 --grid 64 --arg a=randn:f16:1024x1024 --arg b=randn:f16:1024x1024 --arg c=empty:f16:1024x1024 --arg M=1024 --arg N=1024 --arg K=1024 --arg sam=1024 --arg sak=1 --arg sbk=1024 --arg sbn=1 --arg scm=1024 --arg scn=1"
  [attention]="-k attn_k -D N_CTX=1024 -D HEAD=64 -D BM=128 -D BN=64 --num-warps 8 --num-stages 3 --grid 8,8 --arg Q=randn:f16:8x1024x64 --arg K=randn:f16:8x1024x64 --arg V=randn:f16:8x1024x64 --arg O=empty:f16:8x1024x64 --arg sm_scale=0.125"
)
for name in softmax matmul attention; do
  cache=$(mktemp -d) nv=$(mktemp -d)
  for state in cold ptx-cached both-cached; do
    env=(TILEVM_CACHE_DIR=$cache CUDA_CACHE_PATH=$nv)
    [ $state = both-cached ] || env+=(CUDA_CACHE_DISABLE=1)
    s=$(date +%s%N)
    out=$(env "${env[@]}" $T run $A ${ARGS[$name]} --device cuda --stats 2>&1)
    rc=$? wall=$(( ($(date +%s%N) - s) / 1000000 ))
    [ $state = ptx-cached ] && env TILEVM_CACHE_DIR=$cache CUDA_CACHE_PATH=$nv $T run $A ${ARGS[$name]} --device cuda > /dev/null 2>&1  # fills the driver's cache
    echo "tilevm $name $state: rc=$rc $(echo "$out" | grep -o 'compiled in [0-9.]* ms'), wall $wall ms"
  done
  rm -rf "$cache" "$nv"
done
OUT=${OUT:-.} python3 bench/anchors/triton_compile.py 2>&1 | sed 's/^/triton /'
