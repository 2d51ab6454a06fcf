#!/usr/bin/env bash
# gpu_dynamic_shared.sh - on the GPU machine: kernels whose shared scratch passes 48 KiB (dynamic
# shared memory, codegen/LowerShape.cpp scratch()) through `tilevm diff`, and one with --stats.
T=$PWD/dist/tilevm; L=test/lit/codegen/Inputs; K=bench/anchors/triton_gpu_kernels.py
$T diff $L/big_transpose.py -k big_transpose -D N=128 --grid 1 --arg x=randn:f32:128x128 --arg y=empty:f32:128x128 | tail -1 | sed "s/^/transpose 128x128 f32 (64 KiB): /"
$T diff $L/tf32x3.py -k dot_tf32 -D N=128 --grid 1 --arg a=randn:f32:128x128 --arg b=randn:f32:128x128 --arg c=empty:f32:128x128 | tail -1 | sed "s/^/dot tf32 128x128x128 (128 KiB): /"
S=512; $T diff $K -k matmul_k -D BM=128 -D BN=128 -D BK=64 -D GM=8 --grid 16 --arg a=randn:f32:${S}x$S --arg b=randn:f32:${S}x$S --arg c=empty:f32:${S}x$S --arg M=$S --arg N=$S --arg K=$S --arg sam=$S --arg sak=1 --arg sbk=$S --arg sbn=1 --arg scm=$S --arg scn=1 | tail -1 | sed "s/^/matmul f32 128x128x64 (64 KiB): /"
$T run $L/big_transpose.py -k big_transpose -D N=128 --grid 1 --arg x=randn:f32:128x128 --arg y=empty:f32:128x128 --device cuda --stats 2>&1 | tail -1
