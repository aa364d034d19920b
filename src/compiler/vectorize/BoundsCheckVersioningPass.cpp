// BoundsCheckVersioningPass (see the header).
//
// A bounds check is a conditional branch inside a loop L (innermost but
// for its builtins' lane loops) whose one successor post-dominates the
// other: the other is the guarded region, and the check passes when the
// branch enters it. Its condition is a tree of and, or and not whose
// leaves are either invariant in L or moving comparisons: `icmp pred M, B`
// with B invariant in L and M an affine recurrence of L with a constant
// step and a start that is not a constant (the global id, whose start
// moves with the work-group; not the local id, whose comparisons with a
// bound, `lid < s` in a reduction, hold for part of every group). While M
// does not wrap in pred's signedness, it is monotonic over L's iterations,
// and so is the comparison: if it has one value at the first and at the
// last iteration, it has that value at every one.
//
// Before:                               After:
//   preheader:                            preheader:
//                                           %f = icmp ult i64 %base, %n
//                                           %l = icmp ult i64 %base+%last, %n
//                                           br (%f & %l & !wraps), %x.ph, %x.ph.edge
//   x.loop:                               x.loop:               (the fast loop)
//     %i = add i64 %base, %x                br label %then
//     br (icmp ult %i, %n), %then, %latch   ...
//   ...                                   x.loop.edge:          (the original)
//                                           br (icmp ult %i, %n), %then.edge, %latch.edge
//
// The wrap test is ScalarEvolution's own predicate check (a wider index
// truncated to an int, say). A loop is versioned only when one of its
// checks guards a load, a store or a call that touches memory: a region
// without one the loop vectorizer turns into selects as it is.
#include "compiler/vectorize/BoundsCheckVersioningPass.h"

#include "compiler/vectorize/LoopVersion.h"
#include "compiler/workgroup/LaneLoopUnrollPass.h"

#include <llvm/Analysis/AssumptionCache.h>
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
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <memory>
#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;

namespace weft::compiler {

namespace {

/// A leaf of a check's condition, with the value it must have for the
/// check to pass: a value defined outside the loop (Cond), or a comparison
/// `Pred(Side, Bound)`, Side at the first and the last iteration First and
/// Last (the same where Side is invariant too; Moving where it is not).
struct Leaf {
  Value *Cond;
  bool Want;
  CmpInst::Predicate Pred = CmpInst::BAD_ICMP_PREDICATE;
  const SCEV *First = nullptr;
  const SCEV *Last = nullptr;
  const SCEV *Bound = nullptr;
  bool Moving = false;
};

/// A branch to fold in the fast loop, to the successor that Want takes.
struct Check {
  BranchInst *Branch;
  bool Want;
};

/// What versioning one loop takes: its checks, their leaves, and the
/// no-wrap predicates the leaves assume (held by PSE).
struct Plan {
  Loop *L;
  std::unique_ptr<PredicatedScalarEvolution> PSE;
  SmallVector<Check, 2> Checks;
  SmallVector<Leaf, 4> Leaves;
};

bool touchesMemory(const Instruction &I) {
  return I.mayReadOrWriteMemory() && !I.isLifetimeStartOrEnd() && !isa<DbgInfoIntrinsic>(I) &&
         !isa<AssumeInst>(I);
}

class Planner {
public:
  Planner(Loop &L, const LoopInfo &LI, ScalarEvolution &SE, const DominatorTree &DT,
          const PostDominatorTree &PDT)
      : L(L), LI(LI), SE(SE), DT(DT), PDT(PDT),
        PSE(std::make_unique<PredicatedScalarEvolution>(SE, L)) {}

  /// The plan for L, if it has a check that guards memory.
  std::optional<Plan> plan() {
    const SCEV *Taken = SE.getBackedgeTakenCount(&L);
    if (isa<SCEVCouldNotCompute>(Taken) || !L.getExitingBlock() ||
        L.getExitingBlock() != L.getLoopLatch() || !L.getUniqueExitBlock())
      return std::nullopt;
    BackedgeTaken = Taken;
    Plan P{&L, nullptr, {}, {}};
    bool GuardsMemory = false;
    for (BasicBlock *BB : L.blocks()) {
      auto *Branch = dyn_cast<BranchInst>(BB->getTerminator());
      if (!Branch || !Branch->isConditional() || !L.contains(Branch->getSuccessor(0)) ||
          !L.contains(Branch->getSuccessor(1)) || LI.getLoopFor(BB) != &L)
        continue;
      BasicBlock *Region = nullptr;
      bool Want = true;
      if (PDT.dominates(Branch->getSuccessor(1), Branch->getSuccessor(0)))
        Region = Branch->getSuccessor(0);
      else if (PDT.dominates(Branch->getSuccessor(0), Branch->getSuccessor(1))) {
        Region = Branch->getSuccessor(1);
        Want = false;
      } else
        continue;
      // A branch that turns out not to be a check leaves no no-wrap
      // predicate behind.
      auto Before = std::make_unique<PredicatedScalarEvolution>(*PSE);
      SmallVector<Leaf, 4> Leaves;
      if (!addLeaves(Branch->getCondition(), Want, Leaves) ||
          none_of(Leaves, [](const Leaf &Lf) { return Lf.Moving; })) {
        PSE = std::move(Before);
        continue;
      }
      P.Checks.push_back({Branch, Want});
      P.Leaves.append(Leaves.begin(), Leaves.end());
      GuardsMemory |= guardsMemory(*Region);
    }
    if (!GuardsMemory)
      return std::nullopt;
    P.PSE = std::move(PSE);
    return P;
  }

private:
  // Whether a block of L that Region dominates touches memory.
  bool guardsMemory(const BasicBlock &Region) const {
    for (const BasicBlock *BB : L.blocks())
      if (DT.dominates(&Region, BB) && any_of(*BB, touchesMemory))
        return true;
    return false;
  }

  // Appends C's leaves, each with the value that gives C the value Want;
  // false if C is not a tree of invariant leaves and moving comparisons.
  bool addLeaves(Value *C, bool Want, SmallVectorImpl<Leaf> &Leaves) {
    Value *A, *B;
    if (L.isLoopInvariant(C)) {
      Leaves.push_back({C, Want});
      return true;
    }
    if (match(C, m_Not(m_Value(A))))
      return addLeaves(A, !Want, Leaves);
    if (Want && match(C, m_LogicalAnd(m_Value(A), m_Value(B))))
      return addLeaves(A, true, Leaves) && addLeaves(B, true, Leaves);
    if (!Want && match(C, m_LogicalOr(m_Value(A), m_Value(B))))
      return addLeaves(A, false, Leaves) && addLeaves(B, false, Leaves);
    auto *Cmp = dyn_cast<ICmpInst>(C);
    return Cmp && addComparison(*Cmp, Want, Leaves);
  }

  // A comparison in L: invariant in it (computed there all the same), or
  // moving.
  bool addComparison(ICmpInst &Cmp, bool Want, SmallVectorImpl<Leaf> &Leaves) {
    if (!Cmp.getOperand(0)->getType()->isIntegerTy())
      return false;
    const SCEV *Lhs = SE.getSCEV(Cmp.getOperand(0));
    const SCEV *Rhs = SE.getSCEV(Cmp.getOperand(1));
    if (SE.isLoopInvariant(Lhs, &L) && SE.isLoopInvariant(Rhs, &L)) {
      Leaves.push_back({&Cmp, Want, Cmp.getPredicate(), Lhs, Lhs, Rhs});
      return true;
    }
    if (Cmp.isEquality())
      return false;
    Value *Moving = Cmp.getOperand(0);
    const SCEV *Bound = Rhs;
    CmpInst::Predicate Pred = Cmp.getPredicate();
    if (SE.isLoopInvariant(Lhs, &L)) {
      Moving = Cmp.getOperand(1);
      Bound = Lhs;
      Pred = CmpInst::getSwappedPredicate(Pred);
    }
    if (!SE.isLoopInvariant(Bound, &L))
      return false;
    const SCEVAddRecExpr *Rec = PSE->getAsAddRec(Moving);
    if (!Rec || Rec->getLoop() != &L || !Rec->isAffine() || isa<SCEVConstant>(Rec->getStart()))
      return false;
    const auto *Step = dyn_cast<SCEVConstant>(Rec->getStepRecurrence(SE));
    if (!Step || Step->isZero())
      return false;
    const bool Signed = CmpInst::isSigned(Pred);
    if (!(Signed ? Rec->hasNoSignedWrap() : Rec->hasNoUnsignedWrap()))
      PSE->setNoOverflow(Moving, Signed ? SCEVWrapPredicate::IncrementNSSW
                                        : SCEVWrapPredicate::IncrementNUSW);
    Leaves.push_back({&Cmp, Want, Pred, Rec->getStart(),
                      Rec->evaluateAtIteration(BackedgeTaken, SE), Bound, /*Moving=*/true});
    return true;
  }

  Loop &L;
  const LoopInfo &LI;
  ScalarEvolution &SE;
  const DominatorTree &DT;
  const PostDominatorTree &PDT;
  std::unique_ptr<PredicatedScalarEvolution> PSE;
  const SCEV *BackedgeTaken = nullptr;
};

/// The loops worth a plan: innermost but for lane loops, not edge loops.
SmallVector<Loop *, 8> candidateLoops(LoopInfo &LI, ScalarEvolution &SE) {
  const SmallVector<Loop *, 4> Lanes = LaneLoopUnrollPass::laneLoops(LI, SE);
  SmallVector<Loop *, 8> Loops;
  for (Loop *L : LI.getLoopsInPreorder())
    if (!is_contained(Lanes, L) && !BoundsCheckVersioningPass::isEdgeLoop(*L) &&
        LaneLoopUnrollPass::innermostButLanes(*L, Lanes))
      Loops.push_back(L);
  return Loops;
}

/// The condition, computed before the loop, under which every check of P
/// passes on every iteration; null if ScalarEvolution cannot expand it there.
Value *fastCondition(Plan &P, SCEVExpander &Exp, Instruction *At) {
  for (const Leaf &Lf : P.Leaves)
    if (Lf.First && (!Exp.isSafeToExpandAt(Lf.First, At) || !Exp.isSafeToExpandAt(Lf.Last, At) ||
                     !Exp.isSafeToExpandAt(Lf.Bound, At)))
      return nullptr;
  // Selects rather than ands: where a no-wrap predicate fails, a bound
  // expanded under it may be poison, which an and would pass on.
  IRBuilder<> B(At);
  Value *Holds = B.getTrue();
  for (const Leaf &Lf : P.Leaves) {
    if (!Lf.First) {
      // Frozen: a poison condition was undefined behaviour at the branch.
      Value *Cond = B.CreateFreeze(Lf.Cond);
      Holds = B.CreateLogicalAnd(Holds, Lf.Want ? Cond : B.CreateNot(Cond));
      continue;
    }
    Type *Ty = Lf.First->getType();
    Value *Bound = Exp.expandCodeFor(Lf.Bound, Ty, At);
    Value *AtFirst = B.CreateICmp(Lf.Pred, Exp.expandCodeFor(Lf.First, Ty, At), Bound);
    Value *AtLast = B.CreateICmp(Lf.Pred, Exp.expandCodeFor(Lf.Last, Ty, At), Bound);
    if (!Lf.Want) {
      AtFirst = B.CreateNot(AtFirst);
      AtLast = B.CreateNot(AtLast);
    }
    Holds = B.CreateLogicalAnd(Holds, B.CreateLogicalAnd(AtFirst, AtLast));
  }
  Value *MayWrap = Exp.expandCodeForPredicate(&P.PSE->getPredicate(), At);
  return B.CreateSelect(MayWrap, B.getFalse(), Holds, "bounds.hold");
}

/// Versions P's loop: the original, marked, runs when fastCondition fails;
/// a copy with P's checks folded runs when it holds. False if nothing
/// changed but the loop's simplified form.
bool version(Plan &P, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE, AssumptionCache &AC) {
  Loop &L = *P.L;
  std::optional<SCEVExpander> Exp;
  Loop *Edge = versionLoop(L, LI, DT, SE, AC, ".edge", [&](Instruction *At) {
    Exp.emplace(SE, At->getModule()->getDataLayout(), "bounds");
    return fastCondition(P, *Exp, At);
  });
  if (!Edge)
    return false;
  // Run by a group or two per launch: not worth the compile time of a
  // vectorized or unrolled copy.
  addStringMetadataToLoop(Edge, BoundsCheckVersioningPass::EdgeLoopMD);
  addStringMetadataToLoop(Edge, "llvm.loop.vectorize.enable", 0);
  addStringMetadataToLoop(Edge, "llvm.loop.unroll.disable");

  DomTreeUpdater DTU(DT, DomTreeUpdater::UpdateStrategy::Eager);
  LLVMContext &C = L.getHeader()->getContext();
  for (const Check &Ch : P.Checks) {
    BasicBlock *BB = Ch.Branch->getParent();
    Ch.Branch->setCondition(ConstantInt::getBool(C, Ch.Want));
    ConstantFoldTerminator(BB, /*DeleteDeadConditions=*/true, nullptr, &DTU);
  }
  return true;
}

} // namespace

bool BoundsCheckVersioningPass::isEdgeLoop(const Loop &L) {
  return findOptionMDForLoop(&L, EdgeLoopMD) != nullptr;
}

PreservedAnalyses BoundsCheckVersioningPass::run(Function &F, FunctionAnalysisManager &FAM) {
  // A loop is planned for once: the fast loop keeps the original's header,
  // the edge loop is marked.
  const bool Changed = tryEachLoopOnce(F, FAM, [&](Loop &L) {
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
    ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    if (!is_contained(candidateLoops(LI, SE), &L))
      return false;
    DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    const PostDominatorTree &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
    AssumptionCache &AC = FAM.getResult<AssumptionAnalysis>(F);
    std::optional<Plan> P = Planner(L, LI, SE, DT, PDT).plan();
    if (!P)
      return false;
    version(*P, LI, DT, SE, AC);
    return true;
  });
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft::compiler
