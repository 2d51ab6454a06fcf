// EmitPtx.cpp - LLVM IR to PTX: the NVPTX target machine, LLVM's O3 pipeline, assembly out.
// The arch is validated here (LLVM only warns on an unknown -mcpu and silently emits older PTX).
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>

#include "codegen/Libdevice.h"
#include "codegen/Lowerer.h"
#include "codegen/Lowering.h"
#include "codegen/Targets.h"

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();
extern "C" void LLVMInitializeNVPTXAsmPrinter();

namespace tilevm::codegen {

namespace {

void initNvptx() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

Result<std::unique_ptr<llvm::TargetMachine>> targetMachine(const Options& o) {
  if (!findTarget(o.arch)) return Diagnostic{"<command line>", 0, 0, "--arch " + o.arch + ": expected " + targetNames()};
  if (o.numWarps == 0 || o.numWarps > 32 || (o.numWarps & (o.numWarps - 1)))
    return Diagnostic{"<command line>", 0, 0, "--num-warps must be a power of two from 1 to 32"};
  if (o.numStages == 0 || o.numStages > 8) return Diagnostic{"<command line>", 0, 0, "--num-stages must be from 1 to 8"};
  initNvptx();
  std::string err;
  const llvm::Target* t = llvm::TargetRegistry::lookupTarget("nvptx64-nvidia-cuda", err);
  if (!t) return Diagnostic{"<codegen>", 0, 0, "no NVPTX target in this LLVM: " + err};
  llvm::TargetOptions opts;
  return std::unique_ptr<llvm::TargetMachine>(
      t->createTargetMachine("nvptx64-nvidia-cuda", o.arch, "+ptx85", opts, std::nullopt, std::nullopt,
                             llvm::CodeGenOptLevel::Aggressive));
}

// LLVM's O3 module pipeline.
void optimize(llvm::Module& m, llvm::TargetMachine& tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(m, mam);
}

Result<Lowered> lowered(const ir::Module& m, const ir::Kernel& k, const Options& o, llvm::LLVMContext& ctx,
                        llvm::TargetMachine& tm) {
  auto l = lowerToLLVM(m, k, o, ctx);
  if (!l) return l.error();
  l->module->setDataLayout(tm.createDataLayout());
  if (auto err = linkLibdevice(*l->module)) return *err;
  optimize(*l->module, tm);
  return std::move(*l);
}

}  // namespace

Result<std::string> emitLlvmIr(const ir::Module& m, const ir::Kernel& k, const Options& o) {
  auto tm = targetMachine(o);
  if (!tm) return tm.error();
  llvm::LLVMContext ctx;
  auto l = lowered(m, k, o, ctx, **tm);
  if (!l) return l.error();
  std::string out;
  llvm::raw_string_ostream os(out);
  l->module->print(os, nullptr);
  return os.str();
}

Result<CompiledPtx> emitPtx(const ir::Module& m, const ir::Kernel& k, const Options& o) {
  auto tm = targetMachine(o);
  if (!tm) return tm.error();
  llvm::LLVMContext ctx;
  auto l = lowered(m, k, o, ctx, **tm);
  if (!l) return l.error();
  std::unique_ptr<llvm::Module>& mod = l->module;
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager pm;
  if ((*tm)->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
    return Diagnostic{"<codegen>", 0, 0, "internal error: the NVPTX backend cannot emit assembly"};
  pm.run(*mod);
  CompiledPtx out;
  out.ptx = std::string(ptx.str());
  if (o.maxRegisters) out.ptx = withRegisterBudget(out.ptx, o.maxRegisters);
  out.launch.kernel = k.name;
  out.launch.arch = o.arch;
  out.launch.threads = threadsPerProgram(o);
  if (auto* flag = llvm::mdconst::extract_or_null<llvm::ConstantInt>(mod->getModuleFlag(Lowerer::kDynamicSharedFlag)))
    out.launch.dynamicSharedBytes = flag->getZExtValue();
  out.launch.tensorMaps = std::move(l->tensorMaps);
  out.launch.deviceTensorMaps = l->deviceTensorMaps;
  return out;
}

uint64_t maxDynamicSharedBytes(const Options& o) {
  const Target* t = findTarget(o.arch);
  uint64_t optIn = t ? uint64_t(t->sharedOptInKiB) * 1024 : 0;
  if (o.deviceSharedOptInBytes && (!optIn || o.deviceSharedOptInBytes < optIn)) optIn = o.deviceSharedOptInBytes;
  return optIn > kStaticSharedReserveBytes ? optIn - kStaticSharedReserveBytes : 0;
}

std::string withRegisterBudget(const std::string& ptx, unsigned n) {
  // The entry's performance directives follow its parameter list: `.reqntid X, Y, Z` (LowerToLLVM.cpp).
  size_t at = ptx.find("\n.reqntid");
  if (at == std::string::npos || ptx.find(".maxnreg") != std::string::npos) return ptx;
  size_t end = ptx.find('\n', at + 1);
  if (end == std::string::npos) return ptx;
  return ptx.substr(0, end) + "\n.maxnreg " + std::to_string(n) + ptx.substr(end);
}

}  // namespace tilevm::codegen
