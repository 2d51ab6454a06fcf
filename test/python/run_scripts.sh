#!/usr/bin/env bash
# run_scripts.sh PYTHONPATH_DIR - each script here, unmodified Triton-style code, run under
# `python3 -m tilevm` (Debian's /usr/bin/python3 with NumPy): each must pass its own checks.
# TILEVM_TEST_GPU=1 (the GPU machine) runs them on the GPU engine too.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export PYTHONPATH="$1"
PYTHON=${PYTHON:-/usr/bin/python3}
failed=0
run() {
  if out=$("$PYTHON" -m tilevm "$@" 2>&1); then
    echo "ok   $*: $(echo "$out" | tail -n 1)"
  else
    echo "FAIL $*"
    echo "$out" | tail -n 20
    failed=1
  fi
}
for script in "$here"/*.py; do run "$script"; done
# The module-level `if os.environ.get(...)` branch Python takes is the one the kernel sees
# (env_switch.py ran above without the variable).
TILEVM_TEST_SWITCH=1 run "$here/env_switch.py"
# Every configuration timed, state reset and restored between trials.
run --autotune "$here/autotune_timed.py"
run --autotune "$here/matmul_autotune.py"
run --autotune "$here/autotune_api.py"
run --no-autotune "$here/autotune_timed.py"
# `-m MODULE` runs as `python3 -m MODULE` would (here from test/python), tilevm's options before
# it; the programs it starts with sys.executable get tilevm's triton and options. pytest itself
# runs so, as Triton's unit tests do (docs/python.md).
cd "$here"
run --schedule reverse -m modules.run_as_module first -m --second
run -m pytest -q -p no:cacheprovider modules/test_host_pieces.py
cd - > /dev/null
# A module that does not exist: Python's own words and exit status, no traceback.
rc=0; out=$("$PYTHON" -m tilevm -m tilevm_no_such_module 2>&1) || rc=$?
exe=$("$PYTHON" -c 'import sys; print(sys.executable)')  # Python names itself so (a venv's full path)
if [ $rc -ne 1 ] || [ "$out" != "$exe: No module named tilevm_no_such_module" ]; then
  echo "FAIL -m tilevm_no_such_module (exit $rc):"; echo "$out" | tail -5; failed=1
else
  echo "ok   -m tilevm_no_such_module: exit 1, Python's message"
fi
# A bad launch option: the message `tilevm run` gives for it, exit 1, no traceback.
rc=0; out=$("$PYTHON" -m tilevm --schedule random:abc "$here/vector_add.py" 2>&1) || rc=$?
expected="python3 -m tilevm: error: --schedule random:abc: expected parallel, serial, reverse or random:SEED (SEED an integer from 0 to 18446744073709551615)"
if [ $rc -ne 1 ] || [ "$out" != "$expected" ]; then
  echo "FAIL --schedule random:abc (exit $rc):"; echo "$out" | tail -5; failed=1
else
  echo "ok   --schedule random:abc: exit 1, the CLI's message"
fi
# --diff triton without the triton package: one line saying why, exit 2 (where triton is absent).
if ! "$PYTHON" -c "import triton" 2> /dev/null; then
  rc=0; out=$("$PYTHON" -m tilevm --diff triton "$here/vector_add.py" 2>&1) || rc=$?
  expected="tilevm: --diff triton needs the triton package and a CUDA GPU (import triton failed: ModuleNotFoundError: No module named 'triton')"
  if [ $rc -ne 2 ] || [ "$out" != "$expected" ]; then
    echo "FAIL --diff triton without triton (exit $rc):"; echo "$out" | tail -5; failed=1
  else
    echo "ok   --diff triton without triton: exit 2, one line"
  fi
fi
# No GPU here: --device cuda must say so plainly (exit 1, no traceback).
if [ "${TILEVM_TEST_GPU:-0}" != 1 ]; then
  if out=$("$PYTHON" -m tilevm --device cuda "$here/vector_add.py" 2>&1); then
    echo "FAIL --device cuda ran without a GPU"; failed=1
  elif echo "$out" | grep -q "Traceback"; then
    echo "FAIL --device cuda without a GPU gave a traceback:"; echo "$out" | tail -5; failed=1
  else
    echo "ok   --device cuda without a GPU: $(echo "$out" | tail -n 1)"
  fi
else
  for script in vector_add.py fused_softmax.py matmul_autotune.py layer_norm.py attention_fwd.py torch_tensors.py \
                driver_api.py dot3d.py sort_topk.py gather_histogram.py warmup_compiled.py tensor_descriptors.py \
                bench_report.py pointer_tables.py fp8_dtypes.py launch_asm.py const_pointers.py tuple_ops.py \
                dot_precisions.py atomic_float_minmax.py dot_scaled.py dot_f16_accumulate.py map_elementwise.py \
                dot_epilogues.py fp_fusion.py static_print.py fp8_imprecise_acc.py assignment_lifting.py \
                num_warps_builtins.py value_hints.py combine_rewrites.py; do
    run --device cuda "$here/$script"
  done
  run --device cuda "$here/autotune_timed.py"  # timed by default on the GPU engine
  run --device cuda --no-autotune "$here/autotune_timed.py"
  for script in "$here"/gpu/*.py; do run --device cuda "$script"; done
fi
exit $failed
