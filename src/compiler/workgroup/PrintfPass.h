// PrintfPass: a work-item function's printf(format, ...) -> a call of the
// runtime's printf entry through the WorkGroupContext.
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class PrintfPass : public llvm::PassInfoMixin<PrintfPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

} // namespace weft::compiler
