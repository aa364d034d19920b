// SafeDivisionPass: integer division and remainder that cannot trap.
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class SafeDivisionPass : public llvm::PassInfoMixin<SafeDivisionPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

} // namespace weft::compiler
