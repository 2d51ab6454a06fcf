#!/usr/bin/env bash
# fuzz.sh [SECONDS] - builds the libFuzzer targets (clang-19, ASan+UBSan) and runs each for
# SECONDS (default 40) over its seed corpus. Fails on any finding:
#   tilevm_reader_fuzz  bytecode reader + verifier (seeds: the examples' bytecode, invalid files)
#   tilevm_python_fuzz  Python frontend, then each kernel that compiles run on the interpreter
#                       with drawn bindings: aliased arrays, views, the kernels' pointer casts
#                       (test/fuzz/ExecuteKernel.h; seeds: the repository's kernel files,
#                       test/fuzz/seeds, test/fuzz/regressions; a dictionary)
#   tilevm_args_fuzz    argument specs + .npy reader (seeds: specs, .npy files, test/fuzz/regressions/args)
# Then the executing fuzzer with a shadow-indexing bug planted (TILEVM_FUZZ_PLANT=1 sets
# LaunchOptions::testPlantShadowBug) must find it within SECONDS (at most 30): proof that it can.
# FUZZ_BUILD names the build directory (default build-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-40}
build=${FUZZ_BUILD:-build-fuzz}
CXX=clang++-19 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTILEVM_FUZZ=ON -DTILEVM_SANITIZE=ON >/dev/null
cmake --build "$build" --target tilevm_reader_fuzz tilevm_python_fuzz tilevm_args_fuzz >/dev/null
# Seeds come from any tilevm binary: reuse the release build when there is one.
tilevm=${TILEVM:-build/tools/tilevm}
if [ ! -x "$tilevm" ]; then
  cmake --build "$build" --target tilevm >/dev/null
  tilevm="$build/tools/tilevm"
fi

run_fuzzer() {  # run_fuzzer NAME SEEDS_DIR EXTRA_ARGS...
  local name=$1 seeds=$2
  shift 2
  local corpus="$build/corpus-$name"
  mkdir -p "$corpus"
  echo "fuzzing $name for ${seconds}s ($(ls "$seeds" | wc -l) seeds)"
  "$build/test/tilevm_${name}_fuzz" "$corpus" "$seeds" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 "$@" 2>&1 | tail -n 6
}

seeds="$build/seeds-reader"
mkdir -p "$seeds"
for f in examples/*.tile; do
  "$tilevm" asm "$f" -o "$seeds/$(basename "$f" .tile).tbc"
  "$tilevm" asm --no-locations "$f" -o "$seeds/$(basename "$f" .tile)-bare.tbc"
done
cp test/bytecode/invalid/*.tbc "$seeds/"
run_fuzzer reader "$seeds" -max_len=8192

seeds="$build/seeds-python"
mkdir -p "$seeds"
i=0
for f in $(find test/fuzz/seeds test/corpus test/lit/frontend bench/anchors test/fuzz/regressions -name '*.py' | sort); do
  i=$((i + 1))
  cp "$f" "$seeds/$i.py"
done
run_fuzzer python "$seeds" -max_len=16384 -dict=test/fuzz/python.dict

# The plant: the same target and seeds (a fresh corpus), every launch with the planted bug; here
# a finding is success.
plant_seconds=$((seconds < 30 ? seconds : 30))
echo "fuzzing python with a planted shadow-indexing bug for at most ${plant_seconds}s (it must be found)"
rm -rf "$build/corpus-plant" && mkdir -p "$build/corpus-plant"
start=$(date +%s)
TILEVM_FUZZ_PLANT=1 "$build/test/tilevm_python_fuzz" "$build/corpus-plant" "$seeds" -max_total_time="$plant_seconds" \
  -timeout=10 -rss_limit_mb=2048 -max_len=16384 -dict=test/fuzz/python.dict -artifact_prefix="$build/plant-" \
  > "$build/plant.log" 2>&1 || true
if grep -q "tilevm fuzz: invariant violated" "$build/plant.log"; then
  grep -m1 -A2 "tilevm fuzz: invariant violated" "$build/plant.log"
  echo "planted bug found in $(($(date +%s) - start))s"
else
  tail -n 20 "$build/plant.log"
  echo "fuzz: the executing fuzzer did not find the planted shadow-indexing bug in ${plant_seconds}s"
  exit 1
fi

seeds="$build/seeds-args"
mkdir -p "$seeds"
n=0
for spec in "x=randn:f32:16x8" "x=full=3:i32:4" "x=ptrs:a,b" "x=desc:a:16x16" "x=7:i64" "x=0.5:f64" \
            "x=empty:bf16:3" "x=randint:u8:9" "x=1e-5" "x=full=nan:f16:2"; do
  n=$((n + 1))
  printf '%s\n' "$spec" > "$seeds/spec$n"
done
"$tilevm" run examples/vadd.tile --grid 1 --arg x=arange:f32:5 --arg y=zeros:f32:5 --arg o=empty:f32:5 --arg n=5 \
  --save o="$build/o.npy" -q
printf 'x=@o.npy\n' | cat - "$build/o.npy" > "$seeds/npy1"
cp test/fuzz/regressions/args/* "$seeds/"
run_fuzzer args "$seeds" -max_len=4096
echo "fuzz: no finding in 3 x ${seconds}s"
