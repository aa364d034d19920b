// WorkGroupLoopPass: emits the work-group function __weft_wg_K, which runs
// every work-item of a work-group by calling the work-item function in a
// z/y/x loop nest (and around it a state loop for barriers).
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class WorkGroupLoopPass : public llvm::PassInfoMixin<WorkGroupLoopPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

} // namespace weft::compiler
