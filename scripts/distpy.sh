#!/usr/bin/env bash
# distpy.sh [BUILD_DIR] - what the Python door needs on the GPU machine (Python 3.12 there): the
# CLI, the GPU engine tests, libtbb and the tilevm package with its extension built for that
# Python, stripped, as distpy.tar.xz (bench/gpu_python_sweep.sh unpacks it). BUILD_DIR (default
# build-py312) is configured with -DTILEVM_PYTHON=<a Python 3.12> -DCMAKE_BUILD_TYPE=Release.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-py312}
cmake --build "$build" --target tilevm tilevm_gpu_tests _tilevm tilevm_python_files
stage=$(mktemp -d)
mkdir -p "$stage/dist"
cp "$build/tools/tilevm" "$build/test/tilevm_gpu_tests" "$stage/dist/"
cp -r "$build/python/tilevm" "$stage/dist/pkg_tilevm"
find "$stage/dist" -name __pycache__ -prune -exec rm -rf {} +
strip "$stage/dist/tilevm" "$stage/dist/tilevm_gpu_tests" "$stage/dist"/pkg_tilevm/_tilevm*.so
cp -L "$(ldd "$build/tools/tilevm" | awk '/libtbb.so/ {print $3}')" "$stage/dist/"
tar cJf distpy.tar.xz -C "$stage" dist
xz -t distpy.tar.xz
rm -rf "$stage"
ls -la distpy.tar.xz
