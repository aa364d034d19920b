// VectorFremPass (see the header). For each frem on a vector of floats or
// doubles, in double (a float lane widens exactly, and its result is the
// double one, exact, so it narrows exactly):
//
//   Q = trunc(|x| / |y|)
//   R = fma(-Q, |y|, |x|); if R < 0: R += |y|;  result copysign(R, x)
//
// This is ExactFmod's first step, exact when Q < 2^52 (the proof is in
// ExactFmod.cpp). A lane is left to the scalar fmod when Q >= 2^52 or Q is
// NaN (x/y is huge, x is infinite or NaN, y is zero or NaN) or when y is
// infinite (the fused step would give NaN instead of x). Those are rare in
// real kernels (fmod(x, period)), so such a vector runs the original frem,
// lane by lane, on an unlikely branch:
//
// Before:                          After:
//   %r = frem <8 x float> %x, %y     %xd = fpext <8 x float> %x to <8 x double>
//                                    ...                    (the step above)
//                                    %fast = fptrunc <8 x double> %s to <8 x float>
//                                    %slow = or (Q uge 2^52), (|y| oeq inf)
//                                    br (reduce.or %slow), %frem.lanes, %frem.join
//                                  frem.lanes:
//                                    %l = frem <8 x float> %x, %y, !weft.frem.lane-by-lane
//                                  frem.join:
//                                    %r = phi [%fast, ...], [%l, %frem.lanes]
//
// Runs last in O3, after the loop and SLP vectorizers: the vectorizers then
// still see one frem per lane, and the new branch does not keep a loop
// from vectorizing.
//
// Limits: only with fused multiply-add in the target (KernelPipeline
// checks), since LLVM would emulate llvm.fma per lane; the cost model of
// the loop vectorizer still prices a vector frem as scalar calls; scalar
// frem stays a call to ExactFmod.
#include "compiler/vectorize/VectorFremPass.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

using namespace llvm;

namespace weft::compiler {

namespace {

bool isVectorFrem(const Instruction &I) {
  return I.getOpcode() == Instruction::FRem && isa<FixedVectorType>(I.getType()) &&
         !I.getMetadata(VectorFremPass::LaneByLaneMD) &&
         (I.getType()->getScalarType()->isFloatTy() || I.getType()->getScalarType()->isDoubleTy());
}

/// Replaces Frem with the one-step reduction, and the original frem on the
/// branch taken when some lane needs more.
void expand(Instruction &Frem) {
  auto *Ty = cast<FixedVectorType>(Frem.getType());
  auto *DoubleTy = FixedVectorType::get(Type::getDoubleTy(Frem.getContext()), Ty->getNumElements());
  const bool Widen = Ty != DoubleTy;
  // The new instructions carry no fast-math flags: the slow-lane test must
  // see the NaNs and infinities whatever the kernel's options promised.
  IRBuilder<> B(&Frem);
  Value *X = Frem.getOperand(0), *Y = Frem.getOperand(1);
  if (Widen) {
    X = B.CreateFPExt(X, DoubleTy, "frem.x");
    Y = B.CreateFPExt(Y, DoubleTy, "frem.y");
  }
  Value *Ax = B.CreateUnaryIntrinsic(Intrinsic::fabs, X, nullptr, "frem.ax");
  Value *Ay = B.CreateUnaryIntrinsic(Intrinsic::fabs, Y, nullptr, "frem.ay");
  Value *Q = B.CreateUnaryIntrinsic(Intrinsic::trunc, B.CreateFDiv(Ax, Ay), nullptr, "frem.q");
  Value *R =
      B.CreateIntrinsic(Intrinsic::fma, {DoubleTy}, {B.CreateFNeg(Q), Ay, Ax}, nullptr, "frem.r");
  Value *Negative = B.CreateFCmpOLT(R, ConstantFP::get(DoubleTy, 0.0));
  R = B.CreateSelect(Negative, B.CreateFAdd(R, Ay), R);
  Value *Fast = B.CreateBinaryIntrinsic(Intrinsic::copysign, R, X, nullptr, "frem.fast");
  if (Widen)
    Fast = B.CreateFPTrunc(Fast, Ty);
  Value *Slow = B.CreateOr(B.CreateFCmpUGE(Q, ConstantFP::get(DoubleTy, 0x1p52)),
                           B.CreateFCmpOEQ(Ay, ConstantFP::getInfinity(DoubleTy)), "frem.slow");
  Value *AnySlow = B.CreateOrReduce(Slow);

  BasicBlock *Head = Frem.getParent();
  Instruction *LanesEnd =
      SplitBlockAndInsertIfThen(AnySlow, &Frem, /*Unreachable=*/false,
                                MDBuilder(Frem.getContext()).createBranchWeights(1, 1000));
  BasicBlock *Lanes = LanesEnd->getParent(), *Join = Frem.getParent();
  Lanes->setName("frem.lanes");
  Join->setName("frem.join");
  Frem.moveBefore(LanesEnd);
  Frem.setMetadata(VectorFremPass::LaneByLaneMD, MDNode::get(Frem.getContext(), {}));
  PHINode *Result = PHINode::Create(Ty, 2, "frem", &Join->front());
  Frem.replaceUsesWithIf(Result, [&](Use &U) { return U.getUser() != Result; });
  Result->addIncoming(Fast, Head);
  Result->addIncoming(&Frem, Lanes);
}

} // namespace

PreservedAnalyses VectorFremPass::run(Function &F, FunctionAnalysisManager &) {
  SmallVector<Instruction *, 8> Frems;
  for (Instruction &I : instructions(F))
    if (isVectorFrem(I))
      Frems.push_back(&I);
  if (Frems.empty())
    return PreservedAnalyses::all();
  for (Instruction *Frem : Frems)
    expand(*Frem);
  return PreservedAnalyses::none();
}

} // namespace weft::compiler
