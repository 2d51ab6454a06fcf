#!/usr/bin/env bash
# gpu_examples_diff.sh - on the GPU machine: every example (examples/*.tile) through `tilevm diff`
# (interpreter vs GPU), at shapes with partial tiles and at aligned ones.
T=${TILEVM:-$PWD/dist/tilevm}
for n in 1000 4096; do $T diff examples/vadd.tile --grid $(( (n + 1023) / 1024 )) --arg x=randn:f32:$n --arg y=randn:f32:$n --arg o=empty:f32:$n --arg n=$n | tail -1 | sed "s/^/vadd.tile n=$n: /"; done
for shape in 100x781 64x1024; do R=${shape%x*}; C=${shape#*x}; $T diff examples/softmax.tile --grid $R --arg out=empty:f32:$shape --arg inp=randn:f32:$shape --arg in_stride=$C --arg out_stride=$C --arg n_cols=$C | tail -1 | sed "s/^/softmax.tile $shape: /"; done
# M and N in whole 64-tiles: the example masks only K.
for mnk in 128x128x96 256x192x128 128x64x50; do IFS=x read M N K <<< "$mnk"; $T diff examples/matmul.tile --grid $(( (M + 63) / 64 )),$(( (N + 63) / 64 )) --arg a=randn:f16:${M}x$K --arg b=randn:f16:${K}x$N --arg c=empty:f16:${M}x$N --arg M=$M --arg N=$N --arg K=$K --arg sam=$K --arg sak=1 --arg sbk=$N --arg sbn=1 --arg scm=$N --arg scn=1 | tail -1 | sed "s/^/matmul.tile $mnk: /"; done
