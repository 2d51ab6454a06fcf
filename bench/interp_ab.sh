#!/usr/bin/env bash
# interp_ab.sh OLD NEW - two tilevm binaries on the anchor kernels, interleaved (ROUNDS rounds,
# checks off, THREADS threads), so machine noise hits both alike; prints each run and the
# medians. On the GPU machine: carry both binaries in dist/ and run it there.
#   THREADS=16 ROUNDS=3 bench/interp_ab.sh dist/old/tilevm dist/tilevm
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=$1 NEW=$2
THREADS=${THREADS:-$(nproc)}
ROUNDS=${ROUNDS:-3}
K=bench/anchors/triton_gpu_kernels.py
declare -A CMD
CMD[attention]="$K -k attn_k -D N_CTX=512 -D HEAD=64 -D BM=64 -D BN=64 --grid 8,4 --arg Q=randn:f32:4x512x64 --arg K=randn:f32:4x512x64 --arg V=randn:f32:4x512x64 --arg O=empty:f32:4x512x64 --arg sm_scale=0.125"
CMD[matmul]="$K -k matmul_interp_k -D BM=64 -D BN=64 -D BK=32 -D GM=8 -D K=512 --grid 64 --arg a=randn:f32:512x512 --arg b=randn:f32:512x512 --arg c=empty:f32:512x512 --arg M=512 --arg N=512 --arg sam=512 --arg sak=1 --arg sbk=512 --arg sbn=1 --arg scm=512 --arg scn=1"
CMD[vadd]="$K -k vadd_k -D BLOCK=1024 --grid 1024 --arg x=randn:f32:1048576 --arg y=randn:f32:1048576 --arg o=empty:f32:1048576 --arg n=1048576"
CMD[softmax]="$K -k softmax_k -D BLOCK=1024 --grid 1024 --arg out=empty:f32:1024x1024 --arg inp=randn:f32:1024x1024 --arg in_stride=1024 --arg out_stride=1024 --arg n_cols=1024"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for _ in $(seq "$ROUNDS"); do
  for name in attention matmul vadd softmax; do
    for which in old new; do
      exe=$OLD
      [ "$which" = new ] && exe=$NEW
      # shellcheck disable=SC2086
      "$exe" run ${CMD[$name]} --check none --threads "$THREADS" --repeat 15 --json "$tmp/r.json" -q >/dev/null 2>&1
      python3 -c "import json;print('$name $which', round(json.load(open('$tmp/r.json'))['seconds']*1e6,1), 'us')"
    done
  done
done | tee "$tmp/log"
python3 - "$tmp/log" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, which, us, _ = line.split()
    runs[(name, which)].append(float(us))
for (name, which), v in sorted(runs.items()):
    print(f"{name} {which}: median {statistics.median(v):.0f} us of {v}")
PY
