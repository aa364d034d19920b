// LaneCallPackingPass: one call of a math function's vector form where a
// builtin on a small vector calls the scalar form on each lane.
//
// The math builtins on a double2 (and up to 3 lanes) are a vector literal of
// per-lane calls (BuiltinMacros.h). In a kernel that keeps its vectors (a
// store under a condition on data), the SLP vectorizer widens those calls where they are LLVM
// intrinsics (sin) but not where they are libm calls (atan, erf): LLVM 15's
// cost model prices the vector form no cheaper. This pass, run after it,
// packs them into one call of the form VectorMath registered for that
// function and width.
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class LaneCallPackingPass : public llvm::PassInfoMixin<LaneCallPackingPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

} // namespace weft::compiler
