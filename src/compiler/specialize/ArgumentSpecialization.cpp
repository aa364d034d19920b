#include "compiler/specialize/ArgumentSpecialization.h"

#include "compiler/workgroup/WorkGroupLoopPass.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

using namespace llvm;

namespace weft::compiler {

namespace {

/// Whether a comparison decides whether a loop of LI goes on: it is the
/// condition of a branch that leaves the loop.
bool exitsALoop(const ICmpInst &Cmp, const LoopInfo &LI) {
  for (const User *U : Cmp.users()) {
    const auto *Br = dyn_cast<BranchInst>(U);
    if (!Br || !Br->isConditional())
      continue;
    if (const Loop *L = LI.getLoopFor(Br->getParent()); L && L->isLoopExiting(Br->getParent()))
      return true;
  }
  return false;
}

/// Whether V, an integer, reaches a loop's exit condition or a divisor
/// through the instructions that carry an integer's value on.
bool boundsALoopOrDivides(Value *V, const LoopInfo &LI) {
  SmallVector<Value *, 16> Work{V};
  SmallPtrSet<Value *, 32> Seen{V};
  while (!Work.empty()) {
    Value *Cur = Work.pop_back_val();
    for (Use &U : Cur->uses()) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      if (!I)
        continue;
      if (auto *Cmp = dyn_cast<ICmpInst>(I)) {
        if (exitsALoop(*Cmp, LI))
          return true;
        continue;
      }
      switch (I->getOpcode()) {
      case Instruction::UDiv:
      case Instruction::SDiv:
      case Instruction::URem:
      case Instruction::SRem:
        if (U.getOperandNo() == 1)
          return true;
        break;
      default:
        break;
      }
      const bool CarriesValue = isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<PHINode>(I) ||
                                isa<MinMaxIntrinsic>(I) ||
                                (isa<SelectInst>(I) && U.getOperandNo() != 0);
      if (CarriesValue && I->getType()->isIntegerTy() && Seen.insert(I).second)
        Work.push_back(I);
    }
  }
  return false;
}

} // namespace

void markConditionArguments(Function &WI) {
  DominatorTree DT(WI);
  LoopInfo LI(DT);
  uint64_t Mask = 0;
  for (unsigned I = 0; I < wi::numKernelArgs(WI) && I < 64; ++I) {
    Argument *A = WI.getArg(I);
    if (A->getType()->isIntegerTy() && A->getType()->getIntegerBitWidth() <= 64 &&
        boundsALoopOrDivides(A, LI))
      Mask |= uint64_t(1) << I;
  }
  if (Mask)
    wi::setSizeAttr(WI, wi::ConditionArgsAttr, Mask);
}

uint64_t conditionArguments(const Function &WG) { return wi::sizeAttr(WG, wi::ConditionArgsAttr); }

unsigned specializeArguments(Function &WG, ArrayRef<std::pair<uint32_t, uint64_t>> Values) {
  unsigned Replaced = 0;
  for (const auto &[Index, Bits] : Values) {
    LoadInst *Value = WorkGroupLoopPass::argumentValue(WG, Index);
    if (!Value || !Value->getType()->isIntegerTy() || Value->getType()->getIntegerBitWidth() > 64)
      continue;
    Value->replaceAllUsesWith(ConstantInt::get(Value->getType(), Bits));
    Value->eraseFromParent();
    ++Replaced;
  }
  return Replaced;
}

} // namespace weft::compiler
