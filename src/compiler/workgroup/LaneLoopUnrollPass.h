// LaneLoopUnrollPass: unrolls the loops of the builtins over the lanes of a
// small vector where those loops would cost more than they give.
//
// A math builtin on a float4 is a loop over its four lanes through a stack
// array (BuiltinMacros.h), which the loop vectorizer widens when the kernel
// keeps its vectors. Two kinds of kernel must not keep the loop:
//  - one VectorTypeScalarizerPass splits into scalars, whose work-item loop
//    must be innermost to vectorize (that pass calls unrollAll);
//  - one with barriers, run before BarrierStatePass: that pass gives every
//    stack variable left a place in the work-items' frames, where SROA can
//    no longer make the lanes registers, and a split kernel then scattered
//    them to memory (a float4 atan kernel with a barrier ran 63 ms a launch
//    over 1 Mi items, against 5.3 with the vector literal).
// Unrolled, SROA makes the lanes' array registers: the vector literal the
// builtin would otherwise be.
#pragma once

#include "compiler/vectorize/VectorTypeScalarizerPass.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/PassManager.h>

#include <cstdint>

namespace llvm {
class Loop;
class LoopInfo;
class ScalarEvolution;
} // namespace llvm

namespace weft::compiler {

class LaneLoopUnrollPass : public llvm::PassInfoMixin<LaneLoopUnrollPass> {
public:
  /// Unrolls the lane loops of a function with barriers (and runs SROA on it).
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

  /// Whether L is a lane loop: innermost, kept rolled (unroll disabled), of
  /// at most MaxLanes iterations, reading and writing only stack arrays of
  /// at most MaxVectorBits (a double4's loop, in a kernel no pass splits,
  /// stays a loop the loop vectorizer widens, with barriers too).
  static bool isLaneLoop(const llvm::Loop &L, llvm::ScalarEvolution &SE);

  /// F's lane loops, from LoopInfo, in preorder.
  static llvm::SmallVector<llvm::Loop *, 4> laneLoops(const llvm::LoopInfo &LI,
                                                      llvm::ScalarEvolution &SE);

  /// Whether every sub-loop of L is one of Lanes (laneLoops): L is innermost
  /// once they are unrolled.
  static bool innermostButLanes(const llvm::Loop &L, llvm::ArrayRef<llvm::Loop *> Lanes);

  /// Unrolls every lane loop of F whole, then runs SROA; false if F has none.
  /// Invalidates F's analyses in FAM when it changes F.
  static bool unrollAll(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

  /// The most iterations and bits of a lane loop: VectorTypeScalarizerPass's.
  static constexpr unsigned MaxLanes = VectorTypeScalarizerPass::MaxLanes;
  static constexpr uint64_t MaxVectorBits = VectorTypeScalarizerPass::MaxVectorBits;
};

} // namespace weft::compiler
