// LaneLoopUnrollPass (see the header). A lane loop after inlining:
//
// Before:                                 After (unrolled, then SROA):
//   store <4 x float> %x, ptr %x.addr       %x0 = extractelement <4 x float> %x, i64 0
//   br label %lane                          %r0 = call float @atanf(float %x0)
// lane:                                     ... lanes 1 to 3 ...
//   %J = phi i32 [0, %pre], [%J1, %lane]    %r = insertelement ... %r3, i64 3
//   %p = getelementptr float, ptr %x.addr, i32 %J
//   %r = call float @atanf(float (load %p))
//   store %r to R[J]; %J1 = add %J, 1
//   br (%J1 < 4), %lane, %exit              ; !llvm.loop unroll.disable
//
// Limits: only loops whose trip count ScalarEvolution knows; a user's own
// loop of at most four iterations with unroll(disable) is unrolled too in
// the kernels above (the pragma is a hint).
#include "compiler/workgroup/LaneLoopUnrollPass.h"

#include "compiler/OpenClNames.h"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/OptimizationRemarkEmitter.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/UnrollLoop.h>

using namespace llvm;

namespace weft::compiler {

bool LaneLoopUnrollPass::isLaneLoop(const Loop &L, ScalarEvolution &SE) {
  if (!L.isInnermost() || !findOptionMDForLoop(&L, "llvm.loop.unroll.disable"))
    return false;
  const unsigned Trips = SE.getSmallConstantTripCount(&L);
  if (Trips < 1 || Trips > MaxLanes)
    return false;
  // Its vectors are small ones (a float4, not a double4) on the stack.
  const DataLayout &DL = L.getHeader()->getModule()->getDataLayout();
  bool OnStack = false;
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      if (const Value *Ptr = getLoadStorePointerOperand(&I)) {
        const auto *A = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
        if (!A || DL.getTypeAllocSizeInBits(A->getAllocatedType()) > MaxVectorBits)
          return false;
        OnStack = true;
      }
  return OnStack;
}

SmallVector<Loop *, 4> LaneLoopUnrollPass::laneLoops(const LoopInfo &LI, ScalarEvolution &SE) {
  SmallVector<Loop *, 4> Lanes;
  for (Loop *L : LI.getLoopsInPreorder())
    if (isLaneLoop(*L, SE))
      Lanes.push_back(L);
  return Lanes;
}

bool LaneLoopUnrollPass::innermostButLanes(const Loop &L, ArrayRef<Loop *> Lanes) {
  return all_of(L.getSubLoops(), [&](const Loop *Sub) { return is_contained(Lanes, Sub); });
}

bool LaneLoopUnrollPass::unrollAll(Function &F, FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  AssumptionCache &AC = FAM.getResult<AssumptionAnalysis>(F);
  const TargetTransformInfo &TTI = FAM.getResult<TargetIRAnalysis>(F);
  OptimizationRemarkEmitter &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  const SmallVector<Loop *, 4> Lanes = laneLoops(LI, SE);
  if (Lanes.empty())
    return false;
  for (Loop *L : Lanes) {
    simplifyLoop(L, &DT, &LI, &SE, &AC, nullptr, /*PreserveLCSSA=*/false);
    UnrollLoopOptions ULO;
    ULO.Count = SE.getSmallConstantTripCount(L);
    ULO.Force = true;
    ULO.Runtime = false;
    ULO.AllowExpensiveTripCount = false;
    ULO.UnrollRemainder = false;
    ULO.ForgetAllSCEV = false;
    UnrollLoop(L, ULO, &LI, &SE, &DT, &AC, &TTI, &ORE, L->isLCSSAForm(DT));
  }
  FAM.invalidate(F, PreservedAnalyses::none());
  FAM.invalidate(F, SROAPass().run(F, FAM));
  return true;
}

PreservedAnalyses LaneLoopUnrollPass::run(Function &F, FunctionAnalysisManager &FAM) {
  const bool HasBarrier = any_of(instructions(F), [](const Instruction &I) {
    const auto *Call = dyn_cast<CallInst>(&I);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    return Callee && isBarrierName(Callee->getName());
  });
  if (!HasBarrier || !unrollAll(F, FAM))
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}

} // namespace weft::compiler
