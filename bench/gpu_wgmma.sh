#!/usr/bin/env bash
# gpu_wgmma.sh - on the GPU machine (H200, sm_90a): the wgmma dot path and its cp.async ring
# through `tilevm diff` (f16/bf16 matmul at partial tiles and a K tail, 1 stage = operands staged
# from registers, 3/4 stages = the ring; K = 500, a prefix of a copy; fp8 (FP8="" skips); attention; f32 at tf32 precision over the 32-, 64- and
# 128-byte swizzles and B contiguous along N or along K). Binaries from build-wg/dist.tar.xz
# (or dist/). Logs under $OUT. TYPES="f16 bf16 f32" and ATTN=0 select a part.
#   OUT=dir bash bench/gpu_wgmma.sh
set -u
[ -f build-wg/dist.tar.xz ] && { tar xJf build-wg/dist.tar.xz -C build-wg && mkdir -p dist && cp build-wg/dist/* dist/; }
export LD_LIBRARY_PATH=$PWD/dist${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
T=$PWD/dist/tilevm; K=bench/anchors/triton_gpu_kernels.py; OUT=${OUT:-.}
mm() {  # S dtype BM BN BK warps stages
  local S=$1 t=$2
  local sbk=${SBK:-$S} sbn=${SBN:-1}  # SBK=1 SBN=S: B contiguous along K
  local k=${KT:-$S}                     # KT=500: K short of the arrays' rows (a prefix of a copy)
  local ct=${CT:-$t}                    # CT=f16: the output's type (fp8 inputs)
  echo "$T diff $K -k matmul_k -D BM=$3 -D BN=$4 -D BK=$5 -D GM=8 --num-warps $6 --num-stages $7 --grid $(( ((S + $3 - 1) / $3) * ((S + $4 - 1) / $4) )) --arg a=randn:$t:${S}x$S --arg b=randn:$t:${S}x$S --arg c=empty:$ct:${S}x$S --arg M=$S --arg N=$S --arg K=$k --arg sam=$S --arg sak=1 --arg sbk=$sbk --arg sbn=$sbn --arg scm=$S --arg scn=1"
}
for t in ${TYPES:-f16 bf16}; do
  cfgs=("128 256 64 8" "128 128 64 4" "128 128 32 4" "64 128 64 4")
  [ "$t" = f32 ] && cfgs=("128 128 32 4" "128 256 32 8" "64 128 64 4" "128 128 16 4" "128 64 8 4")
  for cfg in "${cfgs[@]}"; do
    for ns in 1 4; do
      for S in 512 528; do
        cmd=$(mm $S $t $cfg $ns); r=$($cmd 2>&1 | tail -1); echo "matmul $t S=$S cfg=($cfg) stages=$ns: $r" | tee -a $OUT/wgmma_diffs.log
      done
    done
  done
done
case " ${TYPES:-f16 bf16} " in *" f32 "*)
  for ns in 1 3; do
    cmd=$(SBK=1 SBN=528 mm 528 f32 128 128 32 4 $ns); r=$($cmd 2>&1 | tail -1)
    echo "matmul f32 S=528 B K-contiguous cfg=(128 128 32 4) stages=$ns: $r" | tee -a $OUT/wgmma_diffs.log
  done;;
esac
# K = 500 under strides of 512: each row's last 16-byte copy holds 4 elements inside K.
case " ${TYPES:-f16 bf16} " in *" f16 "*)
  for ns in 1 3; do
    for sb in "512 1" "1 512"; do
      set -- $sb
      cmd=$(KT=500 SBK=$1 SBN=$2 mm 512 f16 128 128 64 8 $ns); r=$($cmd 2>&1 | tail -1)
      echo "matmul f16 S=512 K=500 sbk=$1 sbn=$2 cfg=(128 128 64 8) stages=$ns: $r" | tee -a $OUT/wgmma_diffs.log
    done
  done;;
esac
# fp8 (e5m2, e4m3) as tutorial 03 passes it: B contiguous along K through a carried pointer.
for t in ${FP8:-fp8e5 fp8e4nv}; do
  for ns in 1 3; do
    cmd=$(CT=f16 SBK=1 SBN=512 mm 512 $t 128 256 128 8 $ns); r=$($cmd 2>&1 | tail -1)
    echo "matmul $t S=512 B K-contiguous cfg=(128 256 128 8) stages=$ns: $r" | tee -a $OUT/wgmma_diffs.log
  done
done
[ "${ATTN:-1}" = 1 ] && for ns in 1 3; do
  r=$($T diff $K -k attn_k -D N_CTX=512 -D HEAD=64 -D BM=128 -D BN=64 --num-warps 8 --num-stages $ns --grid 4,2 --arg Q=randn:f16:2x512x64 --arg K=randn:f16:2x512x64 --arg V=randn:f16:2x512x64 --arg O=empty:f16:2x512x64 --arg sm_scale=0.125 2>&1 | tail -1)
  echo "attn D64 stages=$ns: $r" | tee -a $OUT/wgmma_diffs.log
done
