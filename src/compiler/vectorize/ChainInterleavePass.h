// ChainInterleavePass: a work-item loop whose body is a long chain of
// dependent floating-point operations (GPU code's `for (k...) v = v * a + b`,
// unrolled) interleaves, so that several vectors of work-items have their
// chains in flight at once and the FMA units stay busy; and it does so only
// where the work-group is wide enough for it.
//
// The loop vectorizer packs work-items into lanes, but it interleaves (runs
// several vector iterations side by side) only small loops: a body of 128
// dependent multiply-adds got one vector chain, and every multiply-add
// waited for the one before, four cycles on a unit that could start two a
// cycle: an eighth of the FMA peak. This pass measures the body's
// instruction-level parallelism in floating-point operations (their count
// over the longest chain of them) and, where the chain is long and the
// parallelism low, gives the loop an interleave count IC (TargetChains over
// the parallelism, a power of two, at most MaxInterleave).
//
// An interleaved vector loop needs VF x IC work-items (VF: the lanes of a
// vector register of the chain's type) or it does not run at all: the
// vectorizer's minimum-iteration check sends a shorter loop to the scalar
// remainder. The trip count of a work-item loop is the work-group's width,
// known only at the launch (a tiled SGEMM's 16 against the 64 that 8 float
// lanes x 8 need), so the loop is versioned on it:
//
// Before:                                 After:
//   x.ph:                                   x.ph:
//                                             %wide = icmp uge i64 %taken, VF*IC-1
//                                             br %wide, %x.loop.ph, %x.loop.short.ph
//   x.loop:                                 x.loop:                 (interleave.count IC)
//     %v1 = fma(%v0, a, b)                    %v1 = fma(%v0, a, b) ...
//     ...  %v128 = fma(%v127, a, b)         x.loop.short:           (as before, the
//     br %c, %x.loop, %exit                   ...                    vectorizer's choice)
//
// A loop whose trip count is a constant is not versioned: it gets the
// largest count its trip count allows, or none.
//
// Full width: LLVM prefers 256-bit vectors on AVX-512 CPUs (a core that
// runs 512-bit instructions may lower its clock), which halves what a
// compute-bound loop can reach. A function with a long chain (at least
// MinChain, interleaved here or independent enough already, as a split
// float8 chain is) and ComputeBound floating-point operations or more per
// load or store asks for the target's full width:
//
//   define void @__weft_wg_mad(...)            ; before
//   define void @__weft_wg_mad(...) #1         ; after
//   attributes #1 = { ... "prefer-vector-width"="512" }
//
// (The dependent-mad figures: 32-37 % of the FMA peak at 256 bits, 73-90 %
// at 512; a 17-tap filter, two loads per multiply-add, is left at 256.)
//
// Limits: the work-item loop must be innermost but for its builtins' lane
// loops (its inner loops unrolled) and have one exit at its latch; a body
// with enough independent operations, or with a chain shorter than
// MinChain, is left to the vectorizer's own choice; integer chains are not
// measured. The short copy doubles the loop's code (and its compile time).
// A chain carried by a loop inside the work-item loop keeps the work-item
// loop from being innermost: neither interleaved nor widened, unless
// InnerChainUnrollPass had that loop unrolled (a double16 chain of 128).
#pragma once

#include <llvm/IR/PassManager.h>

namespace llvm {
class Instruction;
class Loop;
class LoopInfo;
class Type;
} // namespace llvm

namespace weft::compiler {

class ChainInterleavePass : public llvm::PassInfoMixin<ChainInterleavePass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

  /// What L's body asks for: an interleave count (0: none) and the
  /// floating-point type of its longest chain; and, whatever the count,
  /// that chain's length.
  struct Need {
    unsigned Count = 0;
    llvm::Type *Element = nullptr;
    bool Vector = false; ///< the chain computes on vectors
    unsigned Chain = 0;
    unsigned Ops = 0; ///< floating-point operations in the body
  };
  static Need interleaveFor(llvm::Loop &L, llvm::LoopInfo &LI);

  /// The floating-point operations a chain is measured in: fadd, fsub,
  /// fmul, fdiv, frem, fneg, fma and fmuladd (InnerChainUnrollPass too).
  static bool isFloatOp(const llvm::Instruction &I);

  /// Where F has a compute-bound chain loop (a chain of MinChain or more,
  /// ComputeBound floating-point operations or more per memory access) and
  /// its target vector registers wider than F prefers: asks for the full
  /// width (prefer-vector-width), clears F's analyses, and returns true.
  static bool preferFullWidth(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

  /// Independent floating-point operations asked of a chain loop's step:
  /// twice what keeps a core's FMA units busy (two units, four cycles of
  /// latency). With eight, every cycle the chains lose to the loop's loads,
  /// stores and shuffles (one of the two units' ports runs the shuffles)
  /// is lost to the units as well: a float8 chain, eight already, ran at
  /// 75 % of the FMA peak, interleaved by two at 88 % (docs/compiler.md).
  static constexpr unsigned TargetChains = 16;
  static constexpr unsigned MaxInterleave = 8;
  /// Shorter chains are the vectorizer's business.
  static constexpr unsigned MinChain = 16;
  /// Floating-point operations per memory access above which a chain loop
  /// is bound by the FMA units (preferFullWidth).
  static constexpr unsigned ComputeBound = 4;
  /// The loop attribute that marks the short copy of a versioned loop.
  static constexpr const char *ShortLoopMD = "weft.chain.short";
};

} // namespace weft::compiler
