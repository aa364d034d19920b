// VectorFremPass: fmod on vectors in vector registers.
//
// OpenCL C's fmod, remainder and remquo (Math.cl, MathShared.h) and
// SPIR-V's OpFRem are LLVM frem. The back end splits a vector frem into
// one scalar fmod call per lane (ExactFmod.h), so a vectorized work-item
// loop or a float8 kernel spent most of its time moving lanes in and out
// of registers around those calls. This pass, run after the vectorizers,
// computes each vector frem with ExactFmod's one-step reduction in vector
// registers, and keeps the lane-by-lane frem only for the vectors where
// some lane needs more (see the .cpp).
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class VectorFremPass : public llvm::PassInfoMixin<VectorFremPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

  /// The metadata that marks the frem the pass keeps for the rare vectors,
  /// so that running the pass again leaves it alone.
  static constexpr const char *LaneByLaneMD = "weft.frem.lane-by-lane";
};

} // namespace weft::compiler
