// IndexWideningPass (see the header).
//
// For each work-item loop L (wi::WorkItemLoopMD) and each sign extension S
// in it (in L or a loop inside it) of a value that L computes:
//   widen(V), at S:
//     - V an add, sub, mul or shl of L with `nsw`: the same operation, `nsw`,
//       on widen() of its operands;
//     - V a trunc of L from S's type whose operand ScalarEvolution bounds to
//       V's signed range: that operand;
//     - anything else: a sign extension of V.
//   S's uses take widen(S's operand), if that is not a plain extension of
//   it, and if no truncation of a value that varies with the work-item is
//   left to extend (Widener::widens). Values are widened once per
//   extension (a map), to a depth of MaxDepth operations.
#include "compiler/vectorize/IndexWideningPass.h"

#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

using namespace llvm;

namespace weft::compiler {

namespace {

/// Operations deeper than this in an index are extended where they are.
constexpr unsigned MaxDepth = 8;

bool distributesExtension(const Instruction &I) {
  switch (I.getOpcode()) {
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Mul:
  case Instruction::Shl:
    return cast<BinaryOperator>(I).hasNoSignedWrap();
  default:
    return false;
  }
}

class Widener {
public:
  Widener(const Loop &L, ScalarEvolution &SE, Instruction *At, Type *Wide)
      : L(L), SE(SE), B(At), Wide(Wide) {}

  /// Whether widen(V) leaves no truncation of a value that steps with the
  /// work-item (`int col = get_global_id(0)` with no bound on the ids):
  /// its sign extension would hide from the vectorizer the induction it
  /// can check for itself, once per vector.
  bool widens(Value *V, unsigned Depth = 0) {
    auto *I = dyn_cast<Instruction>(V);
    if (!I || !L.contains(I) || Depth >= MaxDepth)
      return true;
    if (distributesExtension(*I))
      return widens(I->getOperand(0), Depth + 1) && widens(I->getOperand(1), Depth + 1);
    auto *T = dyn_cast<TruncInst>(I);
    if (!T || !SE.isSCEVable(T->getSrcTy()))
      return true;
    Value *From = T->getOperand(0);
    const bool Varies = SCEVExprContains(SE.getSCEV(From), [&](const SCEV *E) {
      const auto *Rec = dyn_cast<SCEVAddRecExpr>(E);
      return Rec && Rec->getLoop() == &L;
    });
    return !Varies || (T->getSrcTy() == Wide && fitsIn(From, T->getDestTy()));
  }

  Value *widen(Value *V, unsigned Depth = 0) {
    if (Value *Done = Widened.lookup(V))
      return Done;
    Value *W = nullptr;
    auto *I = dyn_cast<Instruction>(V);
    if (I && L.contains(I) && Depth < MaxDepth) {
      if (distributesExtension(*I)) {
        Value *A = widen(I->getOperand(0), Depth + 1);
        Value *C = widen(I->getOperand(1), Depth + 1);
        W = B.CreateBinOp(static_cast<Instruction::BinaryOps>(I->getOpcode()), A, C,
                          I->getName() + ".w");
        if (auto *Op = dyn_cast<BinaryOperator>(W))
          Op->setHasNoSignedWrap(true);
      } else if (auto *T = dyn_cast<TruncInst>(I);
                 T && T->getSrcTy() == Wide && fitsIn(T->getOperand(0), T->getDestTy())) {
        W = T->getOperand(0);
      }
    }
    if (!W)
      W = B.CreateSExt(V, Wide, V->getName() + ".w");
    Widened[V] = W;
    return W;
  }

private:
  /// Whether ScalarEvolution bounds V to Narrow's signed range.
  bool fitsIn(Value *V, Type *Narrow) {
    if (!SE.isSCEVable(V->getType()))
      return false;
    const ConstantRange R = SE.getSignedRange(SE.getSCEV(V));
    const unsigned Bits = Narrow->getIntegerBitWidth();
    const unsigned WideBits = R.getBitWidth();
    return R.getSignedMin().sge(APInt::getSignedMinValue(Bits).sext(WideBits)) &&
           R.getSignedMax().sle(APInt::getSignedMaxValue(Bits).sext(WideBits));
  }

  const Loop &L;
  ScalarEvolution &SE;
  IRBuilder<> B;
  Type *Wide;
  DenseMap<Value *, Value *> Widened;
};

} // namespace

PreservedAnalyses IndexWideningPass::run(Function &F, FunctionAnalysisManager &FAM) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  bool Changed = false;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!findOptionMDForLoop(L, wi::WorkItemLoopMD))
      continue;
    bool LoopChanged = false;
    SmallVector<SExtInst *, 16> Extensions;
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB)
        if (auto *S = dyn_cast<SExtInst>(&I); S && S->getType()->isIntegerTy())
          if (auto *Op = dyn_cast<Instruction>(S->getOperand(0)); Op && L->contains(Op))
            Extensions.push_back(S);
    for (SExtInst *S : Extensions) {
      auto *Op = cast<Instruction>(S->getOperand(0));
      const bool Truncated = isa<TruncInst>(Op) && Op->getOperand(0)->getType() == S->getType();
      if (!distributesExtension(*Op) && !Truncated)
        continue;
      Widener Wid(*L, SE, S, S->getType());
      if (!Wid.widens(Op))
        continue;
      Value *W = Wid.widen(Op);
      if (auto *Ext = dyn_cast<SExtInst>(W); Ext && Ext->getOperand(0) == Op) {
        Ext->eraseFromParent();
        continue;
      }
      S->replaceAllUsesWith(W);
      S->eraseFromParent();
      LoopChanged = true;
    }
    if (LoopChanged)
      SE.forgetLoop(L);
    Changed |= LoopChanged;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft::compiler
