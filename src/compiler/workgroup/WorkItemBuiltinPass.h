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
  /// The area of sub-group Sg (an i64) in the collective scratch Scratch of
  /// a group of Items work-items in sub-groups of N
  /// (runtime/program/CollectiveScratch.h), as an i8 pointer: what
  /// __weft_sub_group_area() becomes, and where WorkGroupLoopPass tells the
  /// built-ins which work-items run.
  static llvm::Value *subGroupArea(llvm::IRBuilder<> &B, llvm::Value *Scratch, llvm::Value *Items,
                                   llvm::Value *Sg, uint64_t N);
};

} // namespace weft::compiler
