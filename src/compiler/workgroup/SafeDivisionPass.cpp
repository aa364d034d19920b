// SafeDivisionPass: integer division and remainder that cannot trap.
//
// OpenCL C leaves x / 0, x % 0 and INT_MIN / -1 undefined in value only: a
// kernel doing it gets some value, the host process must not die. On x86
// the divide instruction raises SIGFPE for both, for scalars and for the
// scalarized lanes of vector divisions alike. So every sdiv, udiv, srem
// and urem whose divisor is not a constant known to be safe gets a divisor
// of 1 in the lanes where it would trap.
//
// Before:                          After:
//   %q = sdiv i32 %n, %d             %z = icmp eq i32 %d, 0
//                                    %m1 = icmp eq i32 %d, -1
//                                    %mn = icmp eq i32 %n, -2147483648
//                                    %o = and i1 %m1, %mn
//                                    %bad = or i1 %z, %o
//                                    %d1 = select i1 %bad, i32 1, i32 %d
//                                    %q = sdiv i32 %n, %d1
// INT_MIN / -1 then yields INT_MIN (the two's-complement wrap) and
// INT_MIN % -1 yields 0, the mathematically right answers.
//
// Limits: the select costs a compare per division; divisions by constants
// (the common case in index arithmetic) are left alone.
#include "compiler/workgroup/SafeDivisionPass.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

using namespace llvm;

namespace weft::compiler {

namespace {

bool isSigned(unsigned Op) { return Op == Instruction::SDiv || Op == Instruction::SRem; }

/// Whether a constant divisor can never trap: no zero lane and, for a
/// signed division, no all-ones lane.
bool isSafeConstant(Value *Divisor, bool Signed) {
  auto *C = dyn_cast<Constant>(Divisor);
  if (!C)
    return false;
  auto LaneSafe = [&](Constant *Lane) {
    auto *CI = dyn_cast_or_null<ConstantInt>(Lane);
    return CI && !CI->isZero() && !(Signed && CI->isMinusOne());
  };
  if (auto *VT = dyn_cast<FixedVectorType>(C->getType())) {
    for (unsigned I = 0; I < VT->getNumElements(); ++I)
      if (!LaneSafe(C->getAggregateElement(I)))
        return false;
    return true;
  }
  return LaneSafe(C);
}

} // namespace

PreservedAnalyses SafeDivisionPass::run(Function &F, FunctionAnalysisManager &) {
  SmallVector<BinaryOperator *, 16> Divisions;
  for (Instruction &I : instructions(F))
    if (auto *BO = dyn_cast<BinaryOperator>(&I))
      if (BO->getOpcode() == Instruction::SDiv || BO->getOpcode() == Instruction::UDiv ||
          BO->getOpcode() == Instruction::SRem || BO->getOpcode() == Instruction::URem)
        if (!isSafeConstant(BO->getOperand(1), isSigned(BO->getOpcode())))
          Divisions.push_back(BO);
  if (Divisions.empty())
    return PreservedAnalyses::all();

  for (BinaryOperator *BO : Divisions) {
    IRBuilder<> B(BO);
    Value *N = BO->getOperand(0), *D = BO->getOperand(1);
    Type *Ty = D->getType();
    Value *Bad = B.CreateICmpEQ(D, Constant::getNullValue(Ty), "div.zero");
    if (isSigned(BO->getOpcode())) {
      unsigned Bits = Ty->getScalarSizeInBits();
      Value *MinusOne = B.CreateICmpEQ(D, Constant::getAllOnesValue(Ty), "div.m1");
      Value *Min = B.CreateICmpEQ(N, ConstantInt::get(Ty, APInt::getSignedMinValue(Bits)),
                                  "div.min");
      Bad = B.CreateOr(Bad, B.CreateAnd(MinusOne, Min), "div.overflow");
    }
    BO->setOperand(1, B.CreateSelect(Bad, ConstantInt::get(Ty, 1), D, "div.safe"));
  }
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft::compiler
