// AtomicPass: Clang's OpenCL atomic library calls become LLVM atomic
// instructions with the order the program asked for.
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class AtomicPass : public llvm::PassInfoMixin<AtomicPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

} // namespace weft::compiler
