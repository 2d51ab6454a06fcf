// DiffTriton.cpp - `tilevm diff K.py --engine triton`: the kernel's arguments made from run's
// specs here (seeded, as for the other engines), handed as .npy files and a manifest to
// `python3 -m tilevm.diff_kernel`, which launches the kernel with the real triton package on the
// GPU and compares it with the interpreter (python/tilevm/diff_kernel.py, docs/diff-triton.md).
#include "tools/DiffTriton.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "runtime/Launch.h"
#include "runtime/Npy.h"
#include "tools/ExitCodes.h"
#include "tools/Load.h"

namespace tilevm::tools {

namespace {

int fail(const std::string& message, int code = kExitBadInput) {
  std::cerr << "tilevm diff --engine triton: " << message << "\n";
  return code;
}

}  // namespace

int runDiffTriton(const DiffTritonRequest& r) {
  if (!rt::isPython(r.input)) return fail(r.input + ": --engine triton launches a Python kernel file (.py) with Triton");
  auto checked = rt::parseRunOptions(r.options);
  if (!checked) return std::cerr << render(checked.error()), kExitBadInput;
  SourceManager sources;
  auto args = rt::parseArgs(r.args, checked->seed);
  if (!args) return std::cerr << render(args.error()), kExitBadInput;
  rt::KernelRequest request{r.input, r.kernel, r.defines, r.includeDirs, {false, checked->launch.gpu.numWarps}};
  auto loaded = rt::loadKernel(request, *args, sources);
  if (!loaded) {
    report({loaded.error()}, sources);
    return kExitBadInput;
  }
  auto bound = rt::bindArgs(*loaded->kernel, *args, false);
  if (!bound) return std::cerr << render(bound.error()), kExitBadInput;
  if (!bound->addressTables.empty()) return fail("pointer tables (ptrs:...) are not supported with --engine triton");

  std::error_code ec;
  std::string dir = (std::filesystem::temp_directory_path(ec) / "tilevm-diff-triton-XXXXXX").string();
  if (ec || !mkdtemp(dir.data())) return fail("cannot make a temporary directory", kExitEnvironment);
  const ir::Kernel& k = *loaded->kernel;
  std::ostringstream m;
  m << "{\"file\": " << interp::jsonString(std::filesystem::absolute(r.input).string()) << ", \"kernel\": " << interp::jsonString(k.name)
    << ", \"grid\": [" << checked->launch.grid[0] << ", " << checked->launch.grid[1] << ", " << checked->launch.grid[2]
    << "], \"seed\": " << checked->seed << ", \"args\": [";
  for (size_t i = 0; i < k.params().size(); ++i) {
    const std::string& name = k.paramNames[i];
    if (name.find('.') != std::string::npos)
      return fail("parameter '" + name + "': tuple and descriptor arguments are not supported with --engine triton");
    const interp::Arg& a = bound->args[i];
    m << (i ? ", " : "") << "{\"name\": " << interp::jsonString(name);
    if (a.isBuffer) {
      const std::string path = dir + "/" + name + ".npy";
      std::string err;
      if (!rt::writeNpy(path, bound->buffers[a.buffer], bound->bufferUnsigned[name], err)) return fail(name + ": " + err);
      m << ", \"npy\": " << interp::jsonString(path) << "}";
    } else if (k.params()[i]->type.isFloat()) {
      std::ostringstream v;
      v.precision(17);
      v << a.f;
      m << ", \"float\": " << v.str() << "}";
    } else {
      m << ", \"int\": " << a.i << "}";
    }
  }
  m << "], \"defines\": {";
  bool first = true;
  for (const std::string& d : r.defines) {
    const size_t eq = d.find('=');
    m << (first ? "" : ", ") << interp::jsonString(d.substr(0, eq)) << ": " << interp::jsonString(d.substr(eq + 1));
    first = false;
  }
  m << "}, \"options\": {\"num_warps\": " << checked->launch.gpu.numWarps << ", \"num_stages\": " << checked->launch.gpu.numStages
    << "}}\n";
  const std::string manifest = dir + "/manifest.json";
  std::ofstream(manifest) << m.str();

  // The Python side's exit status is this command's (0 agree, 4 disagree, 2 no Triton or GPU).
  const char* python = std::getenv("TILEVM_PYTHON");
  std::string exe = python && *python ? python : "python3";
  std::cout.flush();
  pid_t pid = fork();
  if (pid == 0) {
    execlp(exe.c_str(), exe.c_str(), "-m", "tilevm.diff_kernel", manifest.c_str(), static_cast<char*>(nullptr));
    std::cerr << "tilevm diff --engine triton: cannot run " << exe << " (set TILEVM_PYTHON)\n";
    _exit(kExitEnvironment);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0) return fail("cannot start " + exe, kExitEnvironment);
  std::filesystem::remove_all(dir, ec);
  return WIFEXITED(status) ? WEXITSTATUS(status) : kExitEnvironment;
}

}  // namespace tilevm::tools
