#!/usr/bin/env bash
# pip_install.sh SOURCE BUILD_DIR WORK - `pip install --no-build-isolation .` of the repository into
# a fresh virtual environment (Debian's python3 with its site packages: NumPy, torch), offline,
# reusing the configured CMake build BUILD_DIR; then the installed `tilevm` command and
# `python -m tilevm` on a script must work from outside the source tree.
set -euo pipefail
src=$1 build=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
(cd "$src" && TILEVM_BUILD_DIR="$build" "$work/venv/bin/pip" install -q --no-build-isolation --no-index --no-deps .) \
  > "$work/pip.log" 2>&1 || { tail -20 "$work/pip.log"; exit 1; }
cd "$work"  # nothing of the source tree on the path
site=$("$work/venv/bin/python" -c "import tilevm, os; print(os.path.dirname(tilevm.__file__))")
case "$site" in "$work"/venv/*) ;; *) echo "tilevm imported from $site, not the venv"; exit 1 ;; esac
"$work/venv/bin/tilevm" --version | grep -q '^tilevm [0-9]'
"$work/venv/bin/python" -m tilevm "$src/test/python/vector_add.py"
echo "pip install: ok ($site)"
