// InnerChainUnrollPass: a loop inside a work-item loop that carries a
// floating-point chain and runs a constant number of times is unrolled
// whole, so that the work-item loop is innermost and its work-items can be
// vectorized side by side.
//
// GPU code's `for (k = 0; k < 128; ++k) v = v * a + b;` on a double16 is
// one chain of 128 steps per lane, in a loop of its own. LLVM's full
// unroller weighs the body by its cost, and a double16 multiply-add costs
// twice a float16's: the float16 loop was unrolled, the double16 one only
// by 8, which left it a loop inside the work-item loop; the work-items
// then ran one after the other, each lane's chain waiting on its own
// multiply-adds (39 % of the FMA peak, against 70 % for float16). This pass
// marks such a loop `llvm.loop.unroll.full` before the full unroller runs
// (LLVM's late loop optimizations), when its unrolled body stays within
// MaxUnrolledInstructions. ChainInterleavePass and VectorTypeScalarizerPass
// then see the chain in the work-item loop itself.
#pragma once

#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/PassManager.h>

namespace llvm {
class LPMUpdater;
class Loop;
} // namespace llvm

namespace weft::compiler {

class InnerChainUnrollPass : public llvm::PassInfoMixin<InnerChainUnrollPass> {
public:
  llvm::PreservedAnalyses run(llvm::Loop &L, llvm::LoopAnalysisManager &AM,
                              llvm::LoopStandardAnalysisResults &AR, llvm::LPMUpdater &U);

  /// The most instructions the unrolled loop may have.
  static constexpr unsigned MaxUnrolledInstructions = 4096;
  /// The most instructions of the loop itself: a chain's step is a few
  /// (the double16 loop has six); a bigger body has parallelism of its own
  /// and only costs compile time unrolled (a loop of 50 instructions in
  /// weft_bench's build program took the build from 291-326 to 321-362 ms).
  static constexpr unsigned MaxBodyInstructions = 16;
};

} // namespace weft::compiler
