#!/usr/bin/env bash
# gpu_edge_diffs.sh - on the GPU machine: tilevm diff at edge shapes (partial blocks, masks that
# change inside a run, odd strides), through both the vector and the per-element access paths.
T=$PWD/dist/tilevm; K=bench/anchors/triton_gpu_kernels.py
for n in 2000 98432 1000000 1; do $T diff examples/vadd.tile --grid $(( (n + 1023) / 1024 )) --arg x=randn:f32:$n --arg y=randn:f32:$n --arg o=empty:f32:$n --arg n=$n | tail -1 | sed "s/^/vadd $n: /"; done
for shape in 1823x781 4x1000 64x1024 3x5 1x1024; do R=${shape%x*}; C=${shape#*x}; $T diff examples/softmax.tile --grid $R --arg out=empty:f32:$shape --arg inp=randn:f32:$shape --arg in_stride=$C --arg out_stride=$C --arg n_cols=$C | tail -1 | sed "s/^/softmax.tile $shape: /"; done
for shape in 100x1000 7x8192 33x4093; do R=${shape%x*}; C=${shape#*x}; B=$(python3 -c "import triton;print(triton.next_power_of_2($C))"); for nw in 4 8; do $T diff $K -k layernorm_k -D BLOCK=$B --num-warps $nw --grid $R --arg X=randn:f16:$shape --arg Y=empty:f16:$shape --arg W=rand:f16:$C --arg B=rand:f16:$C --arg stride=$C --arg N=$C --arg eps=1e-5 | tail -1 | sed "s/^/layernorm $shape nw$nw: /"; $T diff $K -k softmax_k -D BLOCK=$B --num-warps $nw --grid $R --arg out=empty:f32:$shape --arg inp=randn:f32:$shape --arg in_stride=$C --arg out_stride=$C --arg n_cols=$C | tail -1 | sed "s/^/softmax_k $shape nw$nw: /"; done; done
