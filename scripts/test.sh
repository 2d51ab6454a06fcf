#!/usr/bin/env bash
# test.sh [--quick] - the whole test suite (README's test command; .ci/run runs it):
#   1. release build + ctest (Catch2 units, lit goldens, round trips, demo)
#   2. ASan + UBSan build + the same ctest suite          (skipped with --quick)
#   3. libFuzzer over the bytecode reader + verifier, 60 s (skipped with --quick)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && quick=1
jobs=$(nproc)
passed=0
failed=0

run_suite() {  # run_suite BUILD_DIR CMAKE_ARGS...
  local dir=$1
  shift
  echo "== build $dir"
  cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
  echo "== ctest $dir"
  if (cd "$dir" && ctest --output-on-failure -j "$jobs"); then
    passed=$((passed + $(cd "$dir" && ctest -N | awk '/Total Tests:/ {print $3}')))
  else
    failed=$((failed + 1))
  fi
}

run_suite build -DCMAKE_BUILD_TYPE=RelWithDebInfo
if [ "$quick" = 0 ]; then
  # The code generator is left out under the sanitizers: LLVM's static archives are not
  # instrumented, and linking them twice more would cost minutes of the suite's budget.
  run_suite build-asan -DCMAKE_BUILD_TYPE=Debug -DTILEVM_SANITIZE=ON -DTILEVM_CODEGEN=OFF
  echo "== fuzz"
  if scripts/fuzz.sh 30; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
fi
echo
echo "tests: $passed passed, $failed failed"
[ "$failed" = 0 ]
