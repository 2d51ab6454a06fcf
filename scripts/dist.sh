#!/usr/bin/env bash
# dist.sh - release builds of tilevm and the GPU engine tests, stripped, with libtbb.so.12 beside them in dist/: what
# travels to the GPU machine (see shared/design/TOOLCHAIN.md).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-release --target tilevm tilevm_gpu_tests _tilevm
rm -rf dist && mkdir -p dist
cp build-release/tools/tilevm dist/tilevm
cp build-release/test/tilevm_gpu_tests dist/tilevm_gpu_tests
cp build-release/python/tilevm/_tilevm*.so dist/
strip dist/tilevm dist/tilevm_gpu_tests dist/_tilevm*.so
tbb=$(ldd dist/tilevm | awk '/libtbb.so/ {print $3}')
cp -L "$tbb" dist/
# Both binaries exceed what one device call carries (64 MiB): they also travel compressed, as
# dist.tar.xz (unpack there with `tar xJf dist.tar.xz`).
tar cJf dist.tar.xz dist/tilevm dist/tilevm_gpu_tests dist/libtbb.so.12  # the extension is for this Python only
ls -la dist dist.tar.xz
