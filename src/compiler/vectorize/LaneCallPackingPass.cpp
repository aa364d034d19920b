// LaneCallPackingPass (see the header). For each vector built lane by lane
// (insertelement into poison, every lane once) from calls of one function
// whose every argument is the same lane of one vector per argument:
//
// Before:                                   After:
//   %a0 = extractelement <2 x double> %x, 0   %r = call <2 x double> @_ZGVbN2v_atan(<2 x double> %x)
//   %c0 = call double @atan(double %a0)
//   %v0 = insertelement <2 x double> poison, double %c0, 0
//   %a1 = extractelement <2 x double> %x, 1
//   %c1 = call double @atan(double %a1)
//   %r  = insertelement <2 x double> %v0, double %c1, 1
//
// when the target library info (VectorMath) has a vector form of the
// function at that width. The scalar calls must not touch memory, so that
// one call in the last one's place computes the same.
//
// Limits: whole vectors only (all lanes, each argument one vector); LLVM
// intrinsics are left to the SLP vectorizer, which takes them.
#include "compiler/vectorize/LaneCallPackingPass.h"

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>

using namespace llvm;

namespace weft::compiler {

namespace {

/// The per-lane calls Last completes, lane by lane, or none: Last must be
/// the end of a chain of insertelements into poison or undef that sets
/// every lane once, each to a call.
SmallVector<CallInst *, 4> laneCalls(InsertElementInst &Last) {
  auto *Ty = cast<FixedVectorType>(Last.getType());
  const unsigned N = Ty->getNumElements();
  SmallVector<CallInst *, 4> Calls(N, nullptr);
  Value *V = &Last;
  while (auto *IE = dyn_cast<InsertElementInst>(V)) {
    if (IE != &Last && !IE->hasOneUse())
      return {};
    auto *Lane = dyn_cast<ConstantInt>(IE->getOperand(2));
    auto *Call = dyn_cast<CallInst>(IE->getOperand(1));
    if (!Lane || Lane->getZExtValue() >= N || Calls[Lane->getZExtValue()] || !Call)
      return {};
    Calls[Lane->getZExtValue()] = Call;
    V = IE->getOperand(0);
  }
  if (!isa<PoisonValue>(V) && !isa<UndefValue>(V))
    return {};
  if (is_contained(Calls, nullptr))
    return {};
  return Calls;
}

/// The vectors whose lanes Calls take as arguments, one per argument, if
/// every call is to the same plain function that does not touch memory and
/// argument j of call i is lane i of vector j.
SmallVector<Value *, 3> laneArguments(ArrayRef<CallInst *> Calls, Type *VecTy) {
  Function *Callee = Calls[0]->getCalledFunction();
  if (!Callee || Callee->isIntrinsic() || Calls[0]->getType() != VecTy->getScalarType())
    return {};
  const unsigned NumArgs = Calls[0]->arg_size();
  SmallVector<Value *, 3> Vectors(NumArgs, nullptr);
  for (unsigned I = 0; I < Calls.size(); ++I) {
    CallInst *Call = Calls[I];
    if (Call->getCalledFunction() != Callee || !Call->doesNotAccessMemory() ||
        !Call->hasOneUse() || Call->arg_size() != NumArgs)
      return {};
    for (unsigned J = 0; J < NumArgs; ++J) {
      auto *EE = dyn_cast<ExtractElementInst>(Call->getArgOperand(J));
      auto *Lane = EE ? dyn_cast<ConstantInt>(EE->getIndexOperand()) : nullptr;
      auto *SrcTy = EE ? dyn_cast<FixedVectorType>(EE->getVectorOperandType()) : nullptr;
      if (!Lane || Lane->getZExtValue() != I || !SrcTy ||
          SrcTy->getNumElements() != Calls.size() ||
          (Vectors[J] && Vectors[J] != EE->getVectorOperand()))
        return {};
      Vectors[J] = EE->getVectorOperand();
    }
  }
  return Vectors;
}

} // namespace

PreservedAnalyses LaneCallPackingPass::run(Function &F, FunctionAnalysisManager &FAM) {
  const TargetLibraryInfo &TLI = FAM.getResult<TargetLibraryAnalysis>(F);
  SmallVector<InsertElementInst *, 8> Candidates;
  for (Instruction &I : instructions(F))
    if (auto *IE = dyn_cast<InsertElementInst>(&I))
      if (!(IE->hasOneUse() && isa<InsertElementInst>(IE->user_back())))
        Candidates.push_back(IE);
  bool Changed = false;
  for (InsertElementInst *Last : Candidates) {
    SmallVector<CallInst *, 4> Calls = laneCalls(*Last);
    if (Calls.empty())
      continue;
    SmallVector<Value *, 3> Vectors = laneArguments(Calls, Last->getType());
    if (Vectors.empty())
      continue;
    Function *Callee = Calls[0]->getCalledFunction();
    StringRef Name = TLI.getVectorizedFunction(Callee->getName(),
                                               ElementCount::getFixed(Calls.size()));
    if (Name.empty())
      continue;
    SmallVector<Type *, 3> Params;
    for (Value *V : Vectors)
      Params.push_back(V->getType());
    FunctionCallee Vector = F.getParent()->getOrInsertFunction(
        Name, FunctionType::get(Last->getType(), Params, false));
    if (auto *VF = dyn_cast<Function>(Vector.getCallee())) {
      VF->setDoesNotAccessMemory();
      VF->setDoesNotThrow();
      VF->setWillReturn();
    }
    CallInst *Packed = CallInst::Create(Vector, Vectors, Callee->getName() + ".lanes", Last);
    Packed->setDoesNotAccessMemory();
    Last->replaceAllUsesWith(Packed);
    RecursivelyDeleteTriviallyDeadInstructions(Last);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft::compiler
