#include "compiler/vectorize/VectorTypeScalarizerPass.h"

#include "compiler/vectorize/BoundsCheckVersioningPass.h"
#include "compiler/vectorize/ChainInterleavePass.h"
#include "compiler/workgroup/LaneLoopUnrollPass.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Scalar/ADCE.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include <algorithm>

using namespace llvm;

namespace weft::compiler {

namespace {

// The widest vector I computes on or with, in bits, and the most lanes of
// one: both 0 if I computes on none.
struct VectorExtent {
  uint64_t Bits = 0;
  unsigned Lanes = 0;
};
VectorExtent vectorExtent(const Instruction &I, const DataLayout &DL) {
  VectorExtent E;
  auto note = [&](Type *T) {
    if (auto *V = dyn_cast<FixedVectorType>(T)) {
      E.Bits = std::max<uint64_t>(E.Bits, DL.getTypeSizeInBits(V).getFixedSize());
      E.Lanes = std::max(E.Lanes, V->getNumElements());
    }
  };
  note(I.getType());
  for (const Value *Op : I.operands())
    note(Op->getType());
  return E;
}

// The stack arrays of F's lane loops: each lane loop reads and writes its
// vectors through them (a private array indexed by the lane), and the SROA
// after unrolling them makes them registers (LaneLoopUnrollPass).
SmallPtrSet<const Value *, 8> laneArrays(ArrayRef<Loop *> LaneLoops) {
  SmallPtrSet<const Value *, 8> Arrays;
  for (const Loop *L : LaneLoops)
    for (const BasicBlock *BB : L->blocks())
      for (const Instruction &I : *BB)
        if (const Value *Ptr = getLoadStorePointerOperand(&I))
          Arrays.insert(getUnderlyingObject(Ptr));
  return Arrays;
}

// Whether every iteration of L runs each of its memory accesses: L has one
// latch and one exit, and every block that touches memory dominates the
// latch. Branches that only choose a value (an if in the kernel, the
// branches of an inlined builtin) the vectorizer turns into selects,
// computing both sides; a load or store under a condition it would have to
// predicate. Lane arrays and lifetime markers do not count: they become
// registers.
bool accessesMemoryEveryIteration(const Loop &L, const DominatorTree &DT,
                                  const SmallPtrSetImpl<const Value *> &LaneArrays) {
  const BasicBlock *Latch = L.getLoopLatch();
  if (!Latch || !L.getExitingBlock())
    return false;
  auto TouchesMemory = [&](const Instruction &I) {
    if (!I.mayReadOrWriteMemory() || I.isLifetimeStartOrEnd())
      return false;
    const Value *Ptr = getLoadStorePointerOperand(&I);
    return !Ptr || !LaneArrays.contains(getUnderlyingObject(Ptr));
  };
  for (const BasicBlock *BB : L.blocks()) {
    if (DT.dominates(BB, Latch))
      continue;
    if (any_of(*BB, TouchesMemory))
      return false;
  }
  return true;
}

// Whether L is a work-item loop whose body is a long dependent chain on
// vectors (ChainInterleavePass): split, it has one chain per lane, and
// vectorized across work-items, one vector chain per lane, which is what
// the FMA units need, however wide the vectors were.
bool isVectorChainLoop(Loop &L, LoopInfo &LI) {
  if (!L.isInnermost() || !findOptionMDForLoop(&L, wi::WorkItemLoopMD))
    return false;
  return ChainInterleavePass::interleaveFor(L, LI).Vector;
}

// Whether F computes on vectors in loops, only in innermost ones (but for
// lane loops) that access memory on every iteration and on vectors of at
// most MaxVectorBits and MaxLanes, or in chain loops (isVectorChainLoop),
// whose vectorization is then forced: the functions run() splits.
bool worthScalarizing(Function &F, FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  const DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  const DataLayout &DL = F.getParent()->getDataLayout();
  const SmallVector<Loop *, 4> LaneLoops = LaneLoopUnrollPass::laneLoops(LI, SE);
  const SmallPtrSet<const Value *, 8> LaneArrays = laneArrays(LaneLoops);
  SmallPtrSet<const Loop *, 4> Checked;
  SmallPtrSet<Loop *, 4> Chains;
  bool InLoop = false;
  for (Instruction &I : instructions(F)) {
    const VectorExtent E = vectorExtent(I, DL);
    if (!E.Bits)
      continue;
    Loop *L = LI.getLoopFor(I.getParent());
    if (L && is_contained(LaneLoops, L))
      L = L->getParentLoop();
    if (!L)
      continue;
    if (!LaneLoopUnrollPass::innermostButLanes(*L, LaneLoops))
      return false;
    if (E.Bits > VectorTypeScalarizerPass::MaxVectorBits ||
        E.Lanes > VectorTypeScalarizerPass::MaxLanes) {
      if (!Chains.contains(L) && !isVectorChainLoop(*L, LI))
        return false;
      Chains.insert(L);
    }
    // An edge loop runs only where a bounds check fails in the work-group:
    // there the split accesses are predicated lane by lane, as is.
    if (Checked.insert(L).second && !BoundsCheckVersioningPass::isEdgeLoop(*L) &&
        !accessesMemoryEveryIteration(*L, DT, LaneArrays))
      return false;
    InLoop = true;
  }
  if (InLoop)
    for (Loop *L : Chains)
      addStringMetadataToLoop(L, "llvm.loop.vectorize.enable", 1);
  return InLoop;
}

PreservedAnalyses scalarize(Function &F, FunctionAnalysisManager &FAM) {
  ScalarizerPass Scalarizer;
  Scalarizer.setScalarizeLoadStore(true);
  return Scalarizer.run(F, FAM);
}

} // namespace

PreservedAnalyses VectorTypeScalarizerPass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (!worthScalarizing(F, FAM))
    return PreservedAnalyses::all();
  if (!LaneLoopUnrollPass::unrollAll(F, FAM))
    return scalarize(F, FAM);
  // A lane loop under a condition leaves its result array, which each lane
  // writes, a vector carried around the work-item loop (its value where the
  // condition fails), split into cycles of phis that nothing reads, which
  // the loop vectorizer would take for recurrences it cannot widen.
  FAM.invalidate(F, scalarize(F, FAM));
  ADCEPass().run(F, FAM);
  return PreservedAnalyses::none();
}

} // namespace weft::compiler
