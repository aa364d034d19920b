// InnerChainUnrollPass (see the header).
//
// A loop L qualifies when it is innermost, its parent is a work-item loop
// (wi::WorkItemLoopMD), it has no unroll attribute of its own (a pragma
// in the kernel wins), its trip count is a constant, at least one of its
// header's PHIs is floating-point (a scalar or a vector) and carries a
// floating-point operation around the loop (the chain), and its
// instructions times its trip count are at most MaxUnrolledInstructions.
//
// Before:                                  After:
//   x.loop:                                  x.loop:
//     for.body:  %v = phi <16 x double>        for.body:  (same, and the latch's loop
//       %v1 = fmuladd(%v, %a, %b) ... x8                    attributes name
//       br (%k < 128), %for.body, %exit                     llvm.loop.unroll.full)
// and the full unroller then leaves the x loop with the 128 steps.
#include "compiler/vectorize/InnerChainUnrollPass.h"

#include "compiler/vectorize/ChainInterleavePass.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

using namespace llvm;

namespace weft::compiler {

namespace {

bool hasUnrollAttribute(const Loop &L) {
  MDNode *ID = L.getLoopID();
  if (!ID)
    return false;
  for (const MDOperand &Op : drop_begin(ID->operands()))
    if (const auto *Node = dyn_cast<MDNode>(Op))
      if (const auto *Name = dyn_cast_or_null<MDString>(Node->getOperand(0)))
        if (Name->getString().startswith("llvm.loop.unroll"))
          return true;
  return false;
}

/// Whether a floating-point PHI of L's header carries a floating-point
/// operation of L around it.
bool carriesChain(const Loop &L) {
  const BasicBlock *Latch = L.getLoopLatch();
  if (!Latch)
    return false;
  for (const PHINode &Phi : L.getHeader()->phis()) {
    if (!Phi.getType()->isFPOrFPVectorTy())
      continue;
    const Value *Carried = Phi.getIncomingValueForBlock(Latch);
    const auto *Step = dyn_cast<Instruction>(Carried);
    if (Step && L.contains(Step) && ChainInterleavePass::isFloatOp(*Step))
      return true;
  }
  return false;
}

} // namespace

PreservedAnalyses InnerChainUnrollPass::run(Loop &L, LoopAnalysisManager &,
                                            LoopStandardAnalysisResults &AR, LPMUpdater &) {
  const Loop *Parent = L.getParentLoop();
  if (!L.isInnermost() || !Parent || !findOptionMDForLoop(Parent, wi::WorkItemLoopMD) ||
      hasUnrollAttribute(L) || !carriesChain(L))
    return PreservedAnalyses::all();
  const unsigned Trips = AR.SE.getSmallConstantTripCount(&L);
  if (Trips == 0)
    return PreservedAnalyses::all();
  uint64_t Size = 0;
  for (const BasicBlock *BB : L.blocks())
    Size += BB->size();
  if (Size > MaxBodyInstructions || Size * Trips > MaxUnrolledInstructions)
    return PreservedAnalyses::all();
  addStringMetadataToLoop(&L, "llvm.loop.unroll.full");
  // Only the loop's attributes changed.
  return PreservedAnalyses::all();
}

} // namespace weft::compiler
