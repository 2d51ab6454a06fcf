#!/usr/bin/env bash
# Installs the Debian 12 packages tilevm builds and tests with (see docs/building.md).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  cmake ninja-build g++ python3 python3-numpy python3-torch python3-dev pybind11-dev \
  python3-venv python3-pip python3-setuptools python3-wheel python3-pytest python3-tabulate \
  llvm-19-dev llvm-19-tools libzstd-dev zlib1g-dev \
  clang-19 libclang-rt-19-dev \
  libtbb-dev catch2 libcli11-dev graphviz libgraphviz-dev >/dev/null
echo "install-deps: ok"
