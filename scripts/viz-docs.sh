#!/usr/bin/env bash
# viz-docs.sh [TILEVM] - regenerates docs/viz/: every example and anchor kernel drawn by
# `tilevm viz` (the anchors with an interpreter run's counters), flash attention folded
# (--collapse), the planted race with its access map.
set -euo pipefail
cd "$(dirname "$0")/.."
T=${1:-build/tools/tilevm}
K=bench/anchors/triton_gpu_kernels.py
D=docs/viz
mkdir -p $D
for e in vadd softmax matmul; do $T viz examples/$e.tile -o $D/example-$e.svg; done
$T viz $K -k vadd_k -D BLOCK=1024 --run --grid 4 --arg x=randn:f32:4000 --arg y=randn:f32:4000 --arg o=empty:f32:4000 --arg n=4000 -o $D/anchor-vadd.svg 2>/dev/null
$T viz $K -k softmax_k -D BLOCK=1024 --run --grid 8 --arg out=empty:f32:8x781 --arg inp=randn:f32:8x781 --arg in_stride=781 --arg out_stride=781 --arg n_cols=781 -o $D/anchor-softmax.svg 2>/dev/null
$T viz $K -k layernorm_k -D BLOCK=1024 --run --grid 8 --arg X=randn:f16:8x1000 --arg Y=empty:f16:8x1000 --arg W=rand:f16:1000 --arg B=rand:f16:1000 --arg stride=1000 --arg N=1000 --arg eps=1e-5 -o $D/anchor-layernorm.svg 2>/dev/null
$T viz $K -k matmul_k -D BM=64 -D BN=64 -D BK=32 -D GM=8 --run --grid 16 --arg a=randn:f16:256x256 --arg b=randn:f16:256x256 --arg c=empty:f16:256x256 --arg M=256 --arg N=256 --arg K=256 --arg sam=256 --arg sak=1 --arg sbk=256 --arg sbn=1 --arg scm=256 --arg scn=1 -o $D/anchor-matmul.svg 2>/dev/null
ATTN=(-k attn_k -D N_CTX=256 -D HEAD=64 -D BM=64 -D BN=64 --run --grid 4,2 --arg Q=randn:f16:2x256x64 --arg K=randn:f16:2x256x64 --arg V=randn:f16:2x256x64 --arg O=empty:f16:2x256x64 --arg sm_scale=0.125)
$T viz $K "${ATTN[@]}" -o $D/anchor-attention.svg 2>/dev/null
$T viz $K "${ATTN[@]}" --collapse -o $D/anchor-attention-collapsed.svg 2>/dev/null
$T viz test/checks/planted.py -k same_row -D BLOCK=8 --run --grid 4 --arg x=randn:f32:4x8 --arg y=zeros:f32:4x8 --arg stride=8 --access y -o $D/planted-race.svg 2>/dev/null
ls -la $D
