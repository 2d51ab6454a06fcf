// Libdevice.cpp - links the embedded libdevice bitcode (see Libdevice.h). The bytes come from
// LibdeviceBlob.S, which CMake generates with .incbin when the CUDA toolkit is found.
#include "codegen/Libdevice.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>

#if TILEVM_HAVE_LIBDEVICE
extern "C" const char tilevm_libdevice_begin[];
extern "C" const char tilevm_libdevice_end[];
#endif

namespace tilevm::codegen {

bool haveLibdevice() { return TILEVM_HAVE_LIBDEVICE != 0; }

std::optional<Diagnostic> linkLibdevice(llvm::Module& m) {
  bool needed = false;
  for (const llvm::Function& f : m) needed = needed || (f.isDeclaration() && f.getName().starts_with("__nv_"));
  if (!needed) return std::nullopt;
#if TILEVM_HAVE_LIBDEVICE
  llvm::StringRef bytes(tilevm_libdevice_begin, size_t(tilevm_libdevice_end - tilevm_libdevice_begin));
  auto buffer = llvm::MemoryBuffer::getMemBuffer(bytes, "libdevice.10.bc", false);
  auto lib = llvm::parseBitcodeFile(buffer->getMemBufferRef(), m.getContext());
  if (!lib) {
    llvm::consumeError(lib.takeError());
    return Diagnostic{"<codegen>", 0, 0, "internal error: the embedded libdevice does not parse"};
  }
  (*lib)->setTargetTriple(m.getTargetTriple());
  (*lib)->setDataLayout(m.getDataLayout());
  if (llvm::Linker::linkModules(m, std::move(*lib), llvm::Linker::LinkOnlyNeeded))
    return Diagnostic{"<codegen>", 0, 0, "internal error: libdevice does not link"};
  for (llvm::Function& f : m)
    if (!f.isDeclaration() && f.getCallingConv() != llvm::CallingConv::PTX_Kernel) f.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable& g : m.globals())
    if (!g.isDeclaration()) g.setLinkage(llvm::GlobalValue::InternalLinkage);
  m.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(0));
  return std::nullopt;
#else
  return Diagnostic{"<codegen>", 0, 0,
                    "this kernel uses math from libdevice (log, sin, erf, ...), and this tilevm was built without the "
                    "CUDA toolkit's libdevice.10.bc"};
#endif
}

}  // namespace tilevm::codegen
