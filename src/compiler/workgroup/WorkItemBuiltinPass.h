// WorkItemBuiltinPass: work-item functions (get_global_id, ...) and memory
// fences -> IR over the local ids and the WorkGroupContext.
#pragma once

#include "compiler/OpenClNames.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class WorkItemBuiltinPass : public llvm::PassInfoMixin<WorkItemBuiltinPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);

  /// What the pass replaces a call of work-item function Kind with, built at
  /// B's position in work-item function F; Dim is the call's dimension
  /// argument (null for the functions without one).
  static llvm::Value *query(llvm::Function &F, llvm::IRBuilder<> &B, WorkItemFn Kind,
                            llvm::Value *Dim = nullptr);
};

} // namespace weft::compiler
