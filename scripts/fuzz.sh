#!/usr/bin/env bash
# fuzz.sh [SECONDS] - builds the libFuzzer target (clang-19, ASan+UBSan) and runs it over a
# seed corpus of the examples' bytecode and the hand-made invalid files. Fails on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
build=build-fuzz
CXX=clang++-19 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTILEVM_FUZZ=ON -DTILEVM_SANITIZE=ON >/dev/null
cmake --build "$build" --target tilevm_reader_fuzz >/dev/null
# Seeds come from any tilevm binary: reuse the release build when there is one.
tilevm=${TILEVM:-build/tools/tilevm}
if [ ! -x "$tilevm" ]; then
  cmake --build "$build" --target tilevm >/dev/null
  tilevm="$build/tools/tilevm"
fi
corpus="$build/corpus"
seeds="$build/seeds"
mkdir -p "$corpus" "$seeds"
for f in examples/*.tile; do
  "$tilevm" asm "$f" -o "$seeds/$(basename "$f" .tile).tbc"
  "$tilevm" asm --no-locations "$f" -o "$seeds/$(basename "$f" .tile)-bare.tbc"
done
cp test/bytecode/invalid/*.tbc "$seeds/"
echo "fuzzing the bytecode reader + verifier for ${seconds}s ($(ls "$seeds" | wc -l) seeds)"
"$build/test/tilevm_reader_fuzz" "$corpus" "$seeds" -max_total_time="$seconds" -max_len=8192 \
  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 2>&1 | tail -n 12
echo "fuzz: no finding in ${seconds}s"
