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
# shellcheck source=anchor_runs.sh
source bench/anchor_runs.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for _ in $(seq "$ROUNDS"); do
  for name in $ORDER; do
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
