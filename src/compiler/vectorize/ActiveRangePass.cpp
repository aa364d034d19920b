// ActiveRangePass (see the header).
//
// A guard is a conditional branch in a work-item loop L (innermost), in a
// block that runs on every iteration, one of whose successors
// post-dominates the other: the other is the guarded region. Its condition
// is `icmp pred M, B` (either order, either successor), with B defined
// before L and M an affine recurrence of L with a constant start and a
// positive constant step that does not wrap in pred's signedness: the local
// id, or an index that grows with it. The work-items that enter the region
// are then the first k of the loop, for some k: those where M < B (or
// M <= B) in that signedness. When no instruction of L outside the region
// has an effect, and no value of L is used after it, the others do
// nothing, and L may run just the first k:
//
// Before:                                 After:
//   ph:                                     ph:
//     br %x.loop                              %enter = icmp ult i64 0, %k
//   x.loop:                                   br %enter, %x.loop, %exit
//     %x = phi [0, %ph], [%x.next, %latch]  x.loop:
//     br (icmp ult %x, %k), %then, %latch     %x = phi [0, %ph], [%x.next, %latch]
//   then:  s[x] += s[x + k]                   br %then
//   latch:                                  then:  s[x] += s[x + k]
//     %x.next = add %x, 1                   latch:
//     br (icmp ult %x.next, %n), %x.loop,     %x.next = add %x, 1
//        %exit                                %more = icmp ult (%x + 1), %k
//                                             br ((icmp ult %x.next, %n) & %more), %x.loop,
//                                                %x.exit
//                                           x.exit: br %exit
//
// ScalarEvolution takes the trip count as umin(n, k), and the vectorizer's
// overlap check between s[x] and s[x + k] over [0, umin(n, k)) passes.
// Limits: one guard per loop and round, in the x loop only (a check of the
// y id guards a whole x loop, which this does not skip); the M + step of
// the last iteration may wrap, which the and with the loop's own exit test
// (false there) makes harmless.
#include "compiler/vectorize/ActiveRangePass.h"

#include "compiler/vectorize/LoopVersion.h"

#include <llvm/Analysis/DomTreeUpdater.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include <optional>

using namespace llvm;

namespace weft::compiler {

namespace {

/// A guard of L: Branch enters Region for exactly the work-items where
/// Pred(Moving, Bound) holds, Pred one of ult, ule, slt, sle, Moving
/// growing by Step from Start.
struct Guard {
  BranchInst *Branch;
  BasicBlock *Region;
  Value *Moving;
  Value *Bound;
  CmpInst::Predicate Pred;
  APInt Start;
  APInt Step;
};

bool hasEffect(const Instruction &I) {
  return I.mayHaveSideEffects() && !I.isLifetimeStartOrEnd() && !isa<DbgInfoIntrinsic>(I) &&
         !isa<AssumeInst>(I);
}

bool isGrowingLessThan(CmpInst::Predicate P) {
  return P == CmpInst::ICMP_ULT || P == CmpInst::ICMP_ULE || P == CmpInst::ICMP_SLT ||
         P == CmpInst::ICMP_SLE;
}

/// Whether Rec, growing by Step from Start, takes every value of L's
/// iterations without wrapping in the given signedness: it is flagged so,
/// or its value at L's greatest trip count still fits (an `int` local id:
/// the local sizes are bounded, WorkGroupLoopPass).
bool growsWithoutWrapping(const SCEVAddRecExpr &Rec, const APInt &Start, const APInt &Step,
                          bool Signed, Loop &L, ScalarEvolution &SE) {
  if (Signed ? Rec.hasNoSignedWrap() : Rec.hasNoUnsignedWrap())
    return true;
  const auto *Max = dyn_cast<SCEVConstant>(SE.getConstantMaxBackedgeTakenCount(&L));
  if (!Max)
    return false;
  const unsigned Width = Start.getBitWidth();
  const unsigned Wide = 2 * std::max(Width, Max->getAPInt().getBitWidth()) + 2;
  const APInt Last =
      (Signed ? Start.sext(Wide) : Start.zext(Wide)) + Step.zext(Wide) * Max->getAPInt().zext(Wide);
  return Signed ? Last.sle(APInt::getSignedMaxValue(Width).sext(Wide))
                : Last.ule(APInt::getMaxValue(Width).zext(Wide));
}

/// The guard's condition, if it is a comparison of a growing recurrence of
/// L with a bound from before L that holds for the first work-items only.
std::optional<Guard> asGuard(Loop &L, ScalarEvolution &SE, BranchInst &Br, bool ToRegion) {
  auto *Cmp = dyn_cast<ICmpInst>(Br.getCondition());
  if (!Cmp || Cmp->isEquality() || !Cmp->getOperand(0)->getType()->isIntegerTy())
    return std::nullopt;
  Value *Moving = Cmp->getOperand(0), *Bound = Cmp->getOperand(1);
  CmpInst::Predicate Pred = Cmp->getPredicate();
  if (L.isLoopInvariant(Moving)) {
    std::swap(Moving, Bound);
    Pred = CmpInst::getSwappedPredicate(Pred);
  }
  if (!L.isLoopInvariant(Bound))
    return std::nullopt;
  if (!ToRegion)
    Pred = CmpInst::getInversePredicate(Pred);
  if (!isGrowingLessThan(Pred))
    return std::nullopt;
  const auto *Rec = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Moving));
  if (!Rec || Rec->getLoop() != &L || !Rec->isAffine())
    return std::nullopt;
  const auto *Start = dyn_cast<SCEVConstant>(Rec->getStart());
  const auto *Step = dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE));
  if (!Start || !Step || !Step->getAPInt().isStrictlyPositive())
    return std::nullopt;
  if (!growsWithoutWrapping(*Rec, Start->getAPInt(), Step->getAPInt(), CmpInst::isSigned(Pred), L,
                            SE))
    return std::nullopt;
  return Guard{&Br,
               Br.getSuccessor(ToRegion ? 0 : 1),
               Moving,
               Bound,
               Pred,
               Start->getAPInt(),
               Step->getAPInt()};
}

/// L's guard, if all that L does is behind it.
std::optional<Guard> findGuard(Loop &L, LoopInfo &LI, ScalarEvolution &SE, DominatorTree &DT,
                               PostDominatorTree &PDT) {
  BasicBlock *Latch = L.getLoopLatch();
  for (BasicBlock *BB : L.blocks()) {
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || !Br->isConditional() || LI.getLoopFor(BB) != &L || !DT.dominates(BB, Latch))
      continue;
    BasicBlock *S0 = Br->getSuccessor(0), *S1 = Br->getSuccessor(1);
    if (S0 == S1 || !L.contains(S0) || !L.contains(S1))
      continue;
    std::optional<Guard> G;
    if (PDT.dominates(S1, S0))
      G = asGuard(L, SE, *Br, /*ToRegion=*/true);
    else if (PDT.dominates(S0, S1))
      G = asGuard(L, SE, *Br, /*ToRegion=*/false);
    if (!G)
      continue;
    // Everything with an effect is in the region, which does something;
    // nothing leaves the loop.
    const BasicBlockEdge Enter(BB, G->Region);
    bool Acts = false, Clean = true;
    for (BasicBlock *In : L.blocks()) {
      const bool Guarded = DT.dominates(Enter, In);
      for (Instruction &I : *In) {
        if (any_of(I.users(), [&](User *U) { return !L.contains(cast<Instruction>(U)); }))
          Clean = false;
        if (hasEffect(I) || I.mayReadOrWriteMemory()) {
          if (!Guarded && hasEffect(I))
            Clean = false;
          Acts |= Guarded;
        }
      }
    }
    if (Clean && Acts)
      return G;
  }
  return std::nullopt;
}

/// Makes L run only the work-items that enter G's region (see the sketch
/// above). False if L's shape does not allow it (nothing changed).
bool narrow(Loop &L, const Guard &G, LoopInfo &LI, DominatorTree &DT) {
  BasicBlock *Pre = L.getLoopPreheader(), *Latch = L.getLoopLatch(), *Exit = L.getUniqueExitBlock();
  if (!Pre || !Latch || !Exit || L.getExitingBlock() != Latch || !L.hasDedicatedExits() ||
      !Exit->phis().empty())
    return false;
  auto *LatchBr = dyn_cast<BranchInst>(Latch->getTerminator());
  auto *PreBr = dyn_cast<BranchInst>(Pre->getTerminator());
  if (!LatchBr || !LatchBr->isConditional() || !PreBr || PreBr->isConditional())
    return false;
  LLVMContext &C = Pre->getContext();
  Type *Ty = G.Moving->getType();

  // Leave after the last work-item that enters: the next one would not.
  IRBuilder<> B(LatchBr);
  Value *Next = B.CreateAdd(G.Moving, ConstantInt::get(Ty, G.Step), "active.next");
  Value *NextEnters = B.CreateICmp(G.Pred, Next, G.Bound, "active.more");
  // In the form "continue while both hold": ScalarEvolution counts the
  // trips of an and of two tests, not of an or that exits on an equality.
  Value *Continue = LatchBr->getCondition();
  if (LatchBr->getSuccessor(0) != L.getHeader()) {
    auto *Cmp = dyn_cast<CmpInst>(Continue);
    if (Cmp && Cmp->hasOneUse())
      Cmp->setPredicate(Cmp->getInversePredicate());
    else
      Continue = B.CreateNot(Continue);
    LatchBr->swapSuccessors();
  }
  LatchBr->setCondition(B.CreateAnd(Continue, NextEnters));

  // Enter only if the first work-item does: the exit gets a predecessor
  // outside L, so L gets an exit block of its own first.
  SplitEdge(Latch, Exit, &DT, &LI);
  B.SetInsertPoint(PreBr);
  Value *Enters = B.CreateICmp(G.Pred, ConstantInt::get(Ty, G.Start), G.Bound, "active.enter");
  BranchInst::Create(L.getHeader(), Exit, Enters, PreBr);
  PreBr->eraseFromParent();
  DT.changeImmediateDominator(Exit, Pre);

  // Every work-item that runs now enters the region.
  DomTreeUpdater DTU(DT, DomTreeUpdater::UpdateStrategy::Eager);
  BasicBlock *Home = G.Branch->getParent();
  G.Branch->setCondition(ConstantInt::getBool(C, G.Branch->getSuccessor(0) == G.Region));
  ConstantFoldTerminator(Home, /*DeleteDeadConditions=*/true, nullptr, &DTU);
  // It runs k work-items, fewer than the vectorizer's several vectors an
  // iteration in a tree's later steps (32 and 16 of 256 against 64): one
  // vector an iteration keeps them vector down to k = VF.
  addStringMetadataToLoop(&L, "llvm.loop.interleave.count", 1);
  return true;
}

} // namespace

PreservedAnalyses ActiveRangePass::run(Function &F, FunctionAnalysisManager &FAM) {
  const bool Changed = tryEachLoopOnce(F, FAM, [&](Loop &L) {
    if (!isWorkItemLoop(L))
      return false;
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
    ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    PostDominatorTree &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
    std::optional<Guard> G = findGuard(L, LI, SE, DT, PDT);
    return G && narrow(L, *G, LI, DT);
  });
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft::compiler
