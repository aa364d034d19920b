// WorkItemFunctionPass: gives every kernel a work-item function (see
// WorkItemFunction.h) and prepares everything else to be inlined into it.
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class WorkItemFunctionPass : public llvm::PassInfoMixin<WorkItemFunctionPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  /// True if F is an OpenCL kernel (clang attaches kernel_arg_* metadata).
  static bool isKernel(const llvm::Function &F);
};

} // namespace weft::compiler
