// BarrierStatePass: turns a work-item function with barriers into a
// resumable state machine whose cross-barrier state lives in the per-work-
// item frame (see BarrierStatePass.cpp for the algorithm).
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class BarrierStatePass : public llvm::PassInfoMixin<BarrierStatePass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  /// Transforms one work-item function; returns false if it cannot (a
  /// dynamically sized alloca). Sets the frame/private size attributes.
  static bool transform(llvm::Function &F);
};

} // namespace weft::compiler
