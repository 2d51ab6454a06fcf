// Launch.cpp - loading kernels and binding arguments (see Launch.h). Pointer tables are filled
// with the addresses of the arrays they name once those are in place; a tensor descriptor
// parameter's NAME.base / NAME.shapeK / NAME.strideK come from the array it describes.
#include "runtime/Launch.h"

#include <cstring>

#include "frontend/Compile.h"
#include "ir/Verifier.h"
#include "ir/bytecode/Bytecode.h"
#include "ir/text/Text.h"
#include "runtime/Files.h"
#include "runtime/LaunchCache.h"

namespace tilevm::rt {

namespace {

Diagnostic commandLine(const std::string& msg) { return Diagnostic{"<command line>", 0, 0, msg}; }

bool looksLikeBytecode(const std::string& path, const std::string& bytes) {
  auto endsWith = [&](const char* ext) { return path.size() >= 4 && path.compare(path.size() - 4, 4, ext) == 0; };
  if (endsWith(".tbc")) return true;
  if (endsWith("tile")) return false;
  return !bytes.empty() && static_cast<uint8_t>(bytes[0]) == ir::kBytecodeMagic[0];
}

}  // namespace

bool isPython(const std::string& path) { return path.size() > 3 && path.compare(path.size() - 3, 3, ".py") == 0; }

Result<std::vector<ArgValue>> parseArgs(const std::vector<std::string>& specs, uint64_t seed) {
  std::vector<ArgValue> args;
  std::map<std::string, size_t> byName;
  for (size_t i = 0; i < specs.size(); ++i) {
    auto a = parseArg(specs[i], seed, unsigned(i));
    if (!a) return a.error();
    if (byName.count(a->name)) return commandLine("--arg " + a->name + " is given twice");
    byName[a->name] = args.size();
    args.push_back(std::move(*a));
  }
  return args;
}

Result<std::unique_ptr<ir::Module>> loadModule(const std::string& path, SourceManager& sources,
                                               std::vector<Diagnostic>* allErrors) {
  auto contents = readFile(path);
  if (!contents) return contents.error();
  Result<std::unique_ptr<ir::Module>> m = Diagnostic{};
  if (looksLikeBytecode(path, *contents)) {
    const auto* p = reinterpret_cast<const uint8_t*>(contents->data());
    m = ir::read(std::span<const uint8_t>(p, contents->size()), path);
  } else {
    sources.add(path, *contents);
    m = ir::parse(*contents, path);
  }
  if (!m) return m.error();
  auto diags = ir::verify(**m);
  if (!diags.empty()) {
    for (auto& d : diags)
      if (d.file.empty()) d.file = path;  // no locations in the module: at least the file
    if (allErrors) *allErrors = diags;
    return diags[0];
  }
  return std::move(*m);
}

Result<LoadedKernel> loadKernel(const KernelRequest& r, std::vector<ArgValue>& args, SourceManager& sources) {
  std::map<std::string, size_t> byName;
  for (size_t i = 0; i < args.size(); ++i) byName[args[i].name] = i;
  std::unique_ptr<ir::Module> module;
  const std::string& kernelName = r.kernel;
  if (isPython(r.input)) {
    auto text = readFile(r.input);
    if (!text) return text.error();
    sources.add(r.input, *text);
    if (kernelName.empty()) return commandLine("name the kernel with -k NAME");
    frontend::KernelSource file(*text, r.input, r.includeDirs);  // parsed once for both questions
    auto params = file.params(kernelName);
    if (!params) return params.error();
    frontend::CompileOptions copts;
    copts.kernel = kernelName;
    for (const auto& d : r.defines) {
      size_t eq = d.find('=');
      if (eq == std::string::npos || eq == 0) return commandLine("-D " + d + ": expected NAME=VALUE");
      copts.defines[d.substr(0, eq)] = d.substr(eq + 1);
    }
    for (auto& a : args)
      if (a.isDescriptor) {
        auto ref = byName.find(a.refs[0]);
        if (ref == byName.end() || !args[ref->second].isBuffer)
          return commandLine("--arg " + a.name + "=" + a.spec + ": '" + a.refs[0] + "' is not an array argument");
        a.dtype = args[ref->second].dtype;
      }
    std::string sig;
    for (const auto& p : *params) {
      // A tuple argument's elements: --arg PARAM.PATH each (frontend's tuplePathValid).
      for (auto e = byName.lower_bound(p.name + "."); e != byName.end() && e->first.rfind(p.name + ".", 0) == 0; ++e)
        sig += (sig.empty() ? "" : ", ") + e->first + ": " + signatureType(args[e->second]);
      auto it = byName.find(p.name);
      if (it == byName.end()) continue;
      const ArgValue& a = args[it->second];
      if (p.constexpr_ && !a.isBuffer) {
        copts.defines[p.name] = a.spec.substr(0, a.spec.find(':'));  // a constexpr given as --arg
        continue;
      }
      sig += (sig.empty() ? "" : ", ") + p.name + ": " + signatureType(a);
    }
    copts.signature = sig;
    copts.includeDirs = r.includeDirs;
    copts.flags = r.flags;
    copts.sources = &sources;
    auto compiled = file.compile(copts);
    if (!compiled) return compiled.error();
    module = std::move(*compiled);
  } else {
    auto loaded = loadModule(r.input, sources);
    if (!loaded) return loaded.error();
    module = std::move(*loaded);
  }
  const ir::Kernel* kernel = nullptr;
  if (kernelName.empty()) {
    if (module->kernels.size() != 1)
      return commandLine(r.input + " has " + std::to_string(module->kernels.size()) + " kernels: name one with -k");
    kernel = module->kernels[0].get();
  } else {
    kernel = module->findKernel(kernelName);
    if (!kernel) return commandLine(r.input + " has no kernel named '" + kernelName + "'");
  }

  std::string key = kernelKey(*module, *kernel);
  return LoadedKernel{std::move(module), kernel, std::move(key)};
}

Result<BoundArgs> bindArgs(const ir::Kernel& k, std::vector<ArgValue>& args, bool strict) {
  // Bind arguments to the kernel's parameters by name. An array argument becomes one buffer,
  // however many parameters (or pointer tables, or descriptors) refer to it.
  BoundArgs bound;
  std::vector<interp::Buffer>& buffers = bound.buffers;
  std::vector<interp::Arg>& launchArgs = bound.args;
  std::map<std::string, size_t>& bufferOf = bound.bufferOf;
  std::map<std::string, bool>& bufferUnsigned = bound.bufferUnsigned;
  std::map<std::string, size_t> byName;
  for (size_t i = 0; i < args.size(); ++i) byName[args[i].name] = i;
  std::vector<bool> used(args.size(), false);
  uint64_t memoryBudget = arrayMemoryBudget();
  std::string materializeError;
  auto bufferIndex = [&](ArgValue& a) -> size_t {
    if (auto it = bufferOf.find(a.name); it != bufferOf.end()) return it->second;
    std::string err = materialize(a, memoryBudget);
    if (!err.empty() && materializeError.empty()) materializeError = err;
    bufferOf[a.name] = buffers.size();
    bufferUnsigned[a.name] = a.dtype.isUnsigned;
    buffers.push_back(std::move(a.buffer));
    return buffers.size() - 1;
  };
  for (size_t i = 0; i < k.params().size(); ++i) {
    const std::string& name = k.paramNames[i];
    const ir::Type& t = k.params()[i]->type;
    // A tuple argument's element is its own parameter, NAME.PATH, given as --arg NAME.PATH; a
    // tensor descriptor parameter arrives as NAME.base, NAME.shapeK and NAME.strideK of --arg NAME.
    auto it = byName.find(name);
    size_t dot = it != byName.end() ? std::string::npos : name.find('.');
    if (dot != std::string::npos) it = byName.find(name.substr(0, dot));
    if (it == byName.end()) return commandLine("missing --arg " + name + "=SPEC for parameter '" + name + "' (" + t.str() + ")");
    used[it->second] = true;
    interp::Arg arg;
    if (dot != std::string::npos) {
      ArgValue& d = args[it->second];
      if (!d.isDescriptor) return commandLine("--arg " + d.name + ": parameter '" + d.name + "' is a tensor descriptor: give desc:ARRAY:BLOCK");
      auto ref = byName.find(d.refs[0]);
      if (ref == byName.end() || !args[ref->second].isBuffer || !args[ref->second].refs.empty())
        return commandLine("--arg " + d.name + "=" + d.spec + ": '" + d.refs[0] + "' is not an array argument");
      used[ref->second] = true;
      size_t bi = bufferIndex(args[ref->second]);
      bool isBase = false;
      std::string err = descriptorField(d, name.substr(dot + 1), t, buffers[bi], isBase, arg.i);
      if (!err.empty()) return commandLine("--arg " + d.name + "=" + d.spec + ": " + err);
      arg.isBuffer = isBase;
      arg.buffer = bi;
      arg.f = double(arg.i);
      launchArgs.push_back(arg);
      continue;
    }
    ArgValue& a = args[it->second];
    if (t.isPtr()) {
      if (!a.isBuffer) return commandLine("--arg " + name + ": parameter '" + name + "' is " + t.str() + ", so it needs an array spec");
      if (a.buffer.elem != t.elem().pointee && bufferOf.count(name) == 0)
        return commandLine("--arg " + name + ": an array of " + a.dtype.name() + " for parameter '" + name + "' of type " + t.str());
      arg.isBuffer = true;
      arg.buffer = bufferIndex(a);
    } else {
      if (a.isBuffer || a.isDescriptor) return commandLine("--arg " + name + "=" + a.spec + ": parameter '" + name + "' is a scalar " + t.str());
      if (t.isInt() && a.isFloat) return commandLine("--arg " + name + ": parameter '" + name + "' is " + t.str() + ", got a float");
      if (t.isInt()) {
        frontend::DType pt = frontend::DType::of(t.elem().kind, a.dtype.isUnsigned && a.dtype.kind == t.elem().kind);
        std::string err = checkIntFits(a.i, a.isUnsignedLiteral, pt);
        if (!err.empty()) return commandLine("--arg " + name + "=" + a.spec + ": parameter '" + name + "' is " + t.str() + ": " + err);
      }
      arg.i = a.i;
      arg.f = a.isFloat ? a.f : double(a.i);
    }
    launchArgs.push_back(arg);
  }
  // Pointer tables: the arrays they name join the launch, and the table holds their addresses.
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].refs.empty() || args[i].isDescriptor || !bufferOf.count(args[i].name)) continue;
    std::vector<uint64_t> addresses;
    std::vector<size_t> referenced;
    for (const std::string& r : args[i].refs) {
      auto ref = byName.find(r);
      if (ref == byName.end() || !(args[ref->second].isBuffer || bufferOf.count(r)) || !args[ref->second].refs.empty())
        return commandLine("--arg " + args[i].name + "=" + args[i].spec + ": '" + r + "' is not an array argument");
      used[ref->second] = true;
      size_t target = bufferIndex(args[ref->second]);
      referenced.push_back(target);
      addresses.push_back(reinterpret_cast<uint64_t>(buffers[target].bytes.data()));
    }
    bound.addressTables.push_back({bufferOf.at(args[i].name), referenced});
    std::memcpy(buffers[bufferOf.at(args[i].name)].bytes.data(), addresses.data(), addresses.size() * 8);
  }
  if (!materializeError.empty()) return commandLine(materializeError);
  for (size_t i = 0; i < args.size(); ++i)
    if (!used[i] && strict)
      return commandLine("--arg " + args[i].name + ": kernel @" + k.name + " has no parameter named '" + args[i].name + "'");
  return bound;
}

}  // namespace tilevm::rt
