# lit.cfg.py - lit configuration for tilevm's golden tests (FileCheck).
import os
import lit.formats

config.name = "tilevm"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".tile", ".test", ".py"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "Inputs", "inputs"]
# Keep lit's Output/ folders in the build tree, not beside the sources.
config.test_exec_root = lit_config.params.get("exec_root", os.path.join(os.path.dirname(__file__), "Output"))

tilevm = lit_config.params.get("tilevm")
llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-19/bin")
if not tilevm:
    lit_config.fatal("pass --param tilevm=/path/to/tilevm")
config.substitutions.append(("%tilevm", tilevm))
config.substitutions.append(("%repo", os.path.abspath(os.path.join(config.test_source_root, "..", ".."))))
config.environment["PATH"] = os.pathsep.join([llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))])
config.substitutions.append(("%python", "python3"))
# The GPU code generator is optional (LLVM 19); ptxas (the CUDA toolkit's) proves its PTX.
import shutil
import subprocess
if subprocess.run([tilevm, "ptx", "--help"], capture_output=True).returncode == 0 and \
        "no GPU code generator" not in subprocess.run([tilevm, "ptx", os.path.join(config.test_source_root, "..", "..", "examples", "vadd.tile")],
                                                       capture_output=True, text=True).stderr:
    config.available_features.add("codegen")
ptxas = shutil.which("ptxas") or ("/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
# Sanitized builds (Debug, ASan + UBSan) run 10-50x slower: tests that bound wall time say
# `UNSUPPORTED: sanitized` (the release suite runs them).
if lit_config.params.get("sanitized", "0") in ("1", "ON", "TRUE", "true"):
    config.available_features.add("sanitized")
# Sanitized builds: Graphviz's own leaks (viz) are suppressed by library (test/lsan.supp).
config.environment["LSAN_OPTIONS"] = "suppressions=" + os.path.abspath(os.path.join(config.test_source_root, "..", "lsan.supp"))
