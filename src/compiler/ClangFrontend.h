// ClangFrontend: OpenCL C source to an LLVM module, in process, with
// clang::CompilerInstance. The module targets spir64-unknown-unknown, which
// keeps the OpenCL address spaces (1 global, 2 constant, 3 local, 4 generic)
// and gives the simple SPIR argument ABI the later passes rely on.
#pragma once

#include "compiler/BuildOptions.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <string>

namespace weft::compiler {

class ClangFrontend {
public:
  /// Compiles Source; returns nullptr on error. Diagnostics (warnings too)
  /// are appended to Log.
  static std::unique_ptr<llvm::Module> compile(const std::string &Source, const BuildOptions &Opts,
                                               llvm::LLVMContext &Ctx, std::string &Log);
};

} // namespace weft::compiler
