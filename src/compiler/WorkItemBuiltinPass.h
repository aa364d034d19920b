// WorkItemBuiltinPass: work-item functions (get_global_id, ...) and memory
// fences -> IR over the local ids and the WorkGroupContext.
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class WorkItemBuiltinPass : public llvm::PassInfoMixin<WorkItemBuiltinPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

} // namespace weft::compiler
