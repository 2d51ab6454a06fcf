# anchor_runs.sh - sourced by the interpreter benchmarks: the `tilevm run` arguments of each
# anchor kernel at the interpreter sizes of shared/design/ANCHORS.md (CMD, keyed by the names
# Triton's anchor script uses) and their order (ORDER).
K=bench/anchors/triton_gpu_kernels.py
declare -A CMD
CMD[vadd_f32_2^20_B1024]="$K -k vadd_k -D BLOCK=1024 --grid 1024 --arg x=randn:f32:1048576 --arg y=randn:f32:1048576 --arg o=empty:f32:1048576 --arg n=1048576"
CMD[softmax_f32_1024x1024]="$K -k softmax_k -D BLOCK=1024 --grid 1024 --arg out=empty:f32:1024x1024 --arg inp=randn:f32:1024x1024 --arg in_stride=1024 --arg out_stride=1024 --arg n_cols=1024"
CMD[matmul_f32_512_B64x64x32]="$K -k matmul_interp_k -D BM=64 -D BN=64 -D BK=32 -D GM=8 -D K=512 --grid 64 --arg a=randn:f32:512x512 --arg b=randn:f32:512x512 --arg c=empty:f32:512x512 --arg M=512 --arg N=512 --arg sam=512 --arg sak=1 --arg sbk=512 --arg sbn=1 --arg scm=512 --arg scn=1"
CMD[attn_f32_bh4_n512_d64]="$K -k attn_k -D N_CTX=512 -D HEAD=64 -D BM=64 -D BN=64 --grid 8,4 --arg Q=randn:f32:4x512x64 --arg K=randn:f32:4x512x64 --arg V=randn:f32:4x512x64 --arg O=empty:f32:4x512x64 --arg sm_scale=0.125"
ORDER="vadd_f32_2^20_B1024 softmax_f32_1024x1024 matmul_f32_512_B64x64x32 attn_f32_bh4_n512_d64"
