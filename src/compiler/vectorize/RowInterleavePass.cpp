// RowInterleavePass (see the header).
//
// For each function:
//   1. If an alloca of the function escapes (its address stored or passed
//      on), no loop is taken: a pointer loaded from memory could then be
//      one the rows share.
//   2. For each innermost row loop L: rowsFor checks L's shape and body and
//      gives U (0: L is left as it is).
//   3. Each taken loop is rewritten in place: its body's instructions are
//      moved, in order, to the end of the block, each followed by its
//      copies for rows %y + 1 .. %y + U - 1 (the copy's operands mapped to
//      the same copy's values); the counter steps by U and the exit test
//      becomes `%y.step == T`. The old step and test are deleted once dead.
#include "compiler/vectorize/RowInterleavePass.h"

#include "compiler/vectorize/ChainInterleavePass.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/CaptureTracking.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <memory>
#include <vector>

using namespace llvm;

namespace weft::compiler {

namespace {

/// Whether some alloca of F has its address stored or passed on.
bool stackEscapes(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (isa<AllocaInst>(I) &&
        PointerMayBeCaptured(&I, /*ReturnCaptures=*/false, /*StoreCaptures=*/true))
      return true;
  return false;
}

/// Whether Ptr may point into a stack object of the function.
bool mayBeStack(const Value *Ptr) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, nullptr, /*MaxLookup=*/0);
  return any_of(Objects, [](const Value *O) { return isa<AllocaInst>(O); });
}

/// Whether I may run for several rows in any order (see the header's limits).
bool rowsMayInterleave(const Instruction &I) {
  if (const auto *Load = dyn_cast<LoadInst>(&I))
    return Load->isSimple() && !mayBeStack(Load->getPointerOperand());
  if (const auto *Store = dyn_cast<StoreInst>(&I))
    return Store->isSimple() && !mayBeStack(Store->getPointerOperand());
  if (const auto *Call = dyn_cast<CallInst>(&I))
    return !isa<NoAliasScopeDeclInst>(Call) && Call->doesNotAccessMemory() && Call->willReturn() &&
           !Call->isConvergent() && !Call->isInlineAsm();
  return !I.mayReadOrWriteMemory() && !I.mayHaveSideEffects();
}

bool usedOnlyIn(const Instruction &I, const Loop &L) {
  return all_of(I.users(), [&](const User *U) { return L.contains(cast<Instruction>(U)); });
}

/// The values of floating-point or vector type defined before L and used
/// in it: what stays in vector registers across L's iterations.
unsigned invariantOperands(const Loop &L) {
  SmallPtrSet<const Value *, 32> Seen;
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      for (const Value *Op : I.operands()) {
        const Type *Ty = Op->getType();
        if (!Ty->isVectorTy() && !Ty->isFloatingPointTy())
          continue;
        const auto *OpI = dyn_cast<Instruction>(Op);
        if ((OpI && !L.contains(OpI)) || isa<Argument>(Op))
          Seen.insert(Op);
      }
  return unsigned(Seen.size());
}

/// Rewrites L (taken by rowsFor) to run U rows an iteration.
void interleave(Loop &L, unsigned U, uint64_t Trip) {
  BasicBlock *BB = L.getHeader();
  auto *Counter = cast<PHINode>(&BB->front());
  auto *Latch = cast<BranchInst>(BB->getTerminator());
  SmallVector<Instruction *, 64> Body;
  for (Instruction &I : make_range(BB->getFirstNonPHI()->getIterator(), Latch->getIterator()))
    Body.push_back(&I);

  Type *CounterTy = Counter->getType();
  IRBuilder<> B(BB->getFirstNonPHI());
  std::vector<std::unique_ptr<ValueToValueMapTy>> Rows(U);
  for (unsigned J = 1; J < U; ++J) {
    Rows[J] = std::make_unique<ValueToValueMapTy>();
    (*Rows[J])[Counter] = B.CreateAdd(Counter, ConstantInt::get(CounterTy, J),
                                      Counter->getName() + ".r" + Twine(J), /*HasNUW=*/true,
                                      /*HasNSW=*/true);
  }
  for (Instruction *I : Body) {
    I->moveBefore(Latch);
    for (unsigned J = 1; J < U; ++J) {
      Instruction *Copy = I->clone();
      if (I->hasName())
        Copy->setName(I->getName() + ".r" + Twine(J));
      Copy->insertBefore(Latch);
      RemapInstruction(Copy, *Rows[J], RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
      (*Rows[J])[I] = Copy;
    }
  }

  B.SetInsertPoint(Latch);
  Value *Step = B.CreateAdd(Counter, ConstantInt::get(CounterTy, U), Counter->getName() + ".step",
                            /*HasNUW=*/true, /*HasNSW=*/true);
  Counter->setIncomingValueForBlock(BB, Step);
  Value *End = ConstantInt::get(CounterTy, Trip);
  const bool ExitWhenTrue = !L.contains(Latch->getSuccessor(0));
  Latch->setCondition(ExitWhenTrue ? B.CreateICmpEQ(Step, End) : B.CreateICmpNE(Step, End));
  for (Instruction &I : make_early_inc_range(reverse(*BB)))
    if (isInstructionTriviallyDead(&I))
      I.eraseFromParent();
  addStringMetadataToLoop(&L, RowInterleavePass::InterleavedMD, U);
}

} // namespace

unsigned RowInterleavePass::rowsFor(Loop &L, LoopInfo &LI, ScalarEvolution &SE,
                                    const TargetTransformInfo &TTI) {
  if (!L.isInnermost() || !findOptionMDForLoop(&L, wi::WorkItemRowsMD) ||
      findOptionMDForLoop(&L, InterleavedMD) || L.getNumBlocks() != 1 || !L.getLoopPreheader() ||
      L.getExitingBlock() != L.getHeader() || !L.getUniqueExitBlock())
    return 0;
  BasicBlock *BB = L.getHeader();
  const auto *Latch = dyn_cast<BranchInst>(BB->getTerminator());
  if (!Latch || !Latch->isConditional())
    return 0;
  // The counter, from 0 by 1, is the only value carried between rows.
  auto Phis = BB->phis();
  if (Phis.empty() || std::next(Phis.begin()) != Phis.end())
    return 0;
  PHINode &Counter = *Phis.begin();
  const auto *Rec = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Counter));
  if (!Counter.getType()->isIntegerTy() || !Rec || Rec->getLoop() != &L || !Rec->isAffine() ||
      !Rec->getStart()->isZero() || !Rec->getStepRecurrence(SE)->isOne())
    return 0;
  const unsigned Trip = SE.getSmallConstantTripCount(&L);
  if (Trip < 2)
    return 0;
  for (const Instruction &I : *BB)
    if (&I != Latch && (!usedOnlyIn(I, L) || !rowsMayInterleave(I)))
      return 0;

  const ChainInterleavePass::Need N = ChainInterleavePass::interleaveFor(L, LI);
  if (N.Count < 2)
    return 0;
  // Each row keeps its chains and one temporary in vector registers, beside
  // the operands every row shares.
  const unsigned Registers = TTI.getNumberOfRegisters(TTI.getRegisterClassForType(true));
  const unsigned Shared = invariantOperands(L);
  const unsigned PerRow = (N.Ops + N.Chain - 1) / N.Chain + 1;
  const unsigned Fit = Registers > Shared ? (Registers - Shared) / PerRow : 0;
  unsigned Rows = unsigned(PowerOf2Floor(std::min(N.Count, Fit)));
  while (Rows >= 2 && Trip % Rows != 0)
    Rows /= 2;
  return Rows >= 2 ? Rows : 0;
}

PreservedAnalyses RowInterleavePass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || stackEscapes(F))
    return PreservedAnalyses::all();
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  const TargetTransformInfo &TTI = FAM.getResult<TargetIRAnalysis>(F);
  struct Taken {
    Loop *L;
    unsigned Rows;
    uint64_t Trip;
  };
  SmallVector<Taken, 4> Loops;
  for (Loop *L : LI.getLoopsInPreorder())
    if (unsigned Rows = rowsFor(*L, LI, SE, TTI))
      Loops.push_back({L, Rows, SE.getSmallConstantTripCount(L)});
  if (Loops.empty())
    return PreservedAnalyses::all();
  for (const Taken &T : Loops)
    interleave(*T.L, T.Rows, T.Trip);
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft::compiler
