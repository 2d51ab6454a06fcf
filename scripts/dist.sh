#!/usr/bin/env bash
# dist.sh - a release build of tilevm, stripped, with libtbb.so.12 beside it in dist/: what
# travels to the GPU machine (see shared/design/TOOLCHAIN.md).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-release --target tilevm
rm -rf dist && mkdir -p dist
cp build-release/tools/tilevm dist/tilevm
strip dist/tilevm
tbb=$(ldd dist/tilevm | awk '/libtbb.so/ {print $3}')
cp -L "$tbb" dist/
ls -la dist
