// ChainInterleavePass (see the header).
//
// For each innermost work-item loop L (WorkGroupLoopPass marks them; the
// edge loops BoundsCheckVersioningPass keeps unvectorized are left alone)
// without an interleave count of its own:
//   1. Walk L's blocks in reverse post-order. An instruction's depth is the
//      largest depth of its operands defined in L (a phi is 0: what it
//      carries comes from the previous iteration), plus one if it is a
//      floating-point operation (fadd, fsub, fmul, fdiv, frem, fneg,
//      fma/fmuladd).
//   2. Chain = the largest depth; Ops = the number of floating-point
//      operations. If Chain >= MinChain and Ops / Chain < TargetChains,
//      IC is the power of two at or above TargetChains * Chain / Ops, at
//      most MaxInterleave.
//   3. VF = the target's vector register width over the chain's element
//      width. A constant trip count T gives IC the largest power of two
//      with VF x IC <= T (none below 2); otherwise L is versioned on
//      `backedge-taken count >= VF x IC - 1`, and the copy for shorter
//      work-groups is marked and left as it was.
#include "compiler/vectorize/ChainInterleavePass.h"

#include "compiler/vectorize/LoopVersion.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/LoopIterator.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Support/MathExtras.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ScalarEvolutionExpander.h>

#include <algorithm>
#include <optional>
#include <string>

using namespace llvm;

namespace weft::compiler {

bool ChainInterleavePass::isFloatOp(const Instruction &I) {
  switch (I.getOpcode()) {
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FMul:
  case Instruction::FDiv:
  case Instruction::FRem:
  case Instruction::FNeg:
    return true;
  default:
    break;
  }
  if (const auto *II = dyn_cast<IntrinsicInst>(&I))
    return II->getIntrinsicID() == Intrinsic::fma || II->getIntrinsicID() == Intrinsic::fmuladd;
  return false;
}

namespace {

bool isCandidate(const Loop &L) {
  return isWorkItemLoop(L) && !findOptionMDForLoop(&L, ChainInterleavePass::ShortLoopMD) &&
         !findOptionMDForLoop(&L, "llvm.loop.interleave.count") && L.getLoopLatch() &&
         L.getExitingBlock() == L.getLoopLatch() && L.getUniqueExitBlock();
}

/// Makes L's copy for work-groups narrower than VF x IC (MinTrip), runs L
/// itself only for wider ones, and marks the copy. False if it could not
/// (nothing changed but L's simplified form).
bool version(Loop &L, unsigned MinTrip, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
             AssumptionCache &AC) {
  std::optional<SCEVExpander> Exp;
  Loop *Short = versionLoop(L, LI, DT, SE, AC, ".short", [&](Instruction *At) -> Value * {
    const SCEV *Taken = SE.getBackedgeTakenCount(&L);
    Exp.emplace(SE, At->getModule()->getDataLayout(), "chain");
    if (isa<SCEVCouldNotCompute>(Taken) || !Exp->isSafeToExpandAt(Taken, At))
      return nullptr;
    Value *TakenV = Exp->expandCodeFor(Taken, Taken->getType(), At);
    return IRBuilder<>(At).CreateICmpUGE(TakenV, ConstantInt::get(Taken->getType(), MinTrip - 1),
                                         "chain.wide");
  });
  if (!Short)
    return false;
  addStringMetadataToLoop(Short, ChainInterleavePass::ShortLoopMD);
  return true;
}

} // namespace

ChainInterleavePass::Need ChainInterleavePass::interleaveFor(Loop &L, LoopInfo &LI) {
  LoopBlocksRPO RPO(&L);
  RPO.perform(&LI);
  DenseMap<const Instruction *, unsigned> Depth;
  unsigned Chain = 0, Ops = 0;
  Type *Element = nullptr;
  for (BasicBlock *BB : RPO)
    for (Instruction &I : *BB) {
      if (isa<PHINode>(I))
        continue;
      unsigned D = 0;
      for (const Value *Op : I.operands())
        if (const auto *OpI = dyn_cast<Instruction>(Op))
          if (auto It = Depth.find(OpI); It != Depth.end())
            D = std::max(D, It->second);
      if (isFloatOp(I)) {
        ++D;
        ++Ops;
        if (D > Chain)
          Element = I.getType();
      }
      Depth[&I] = D;
      Chain = std::max(Chain, D);
    }
  Need N;
  N.Chain = Chain;
  N.Ops = Ops;
  if (Chain < MinChain || Ops >= TargetChains * Chain)
    return N;
  const unsigned Want = unsigned((uint64_t(TargetChains) * Chain + Ops - 1) / Ops);
  const unsigned Count = std::min<unsigned>(MaxInterleave, unsigned(PowerOf2Ceil(Want)));
  if (Count < 2)
    return N;
  N.Count = Count;
  N.Element = Element->getScalarType();
  N.Vector = Element->isVectorTy();
  return N;
}

namespace {

/// The widest vector register the function's target has, in bits, from
/// its target features (0 if unknown).
unsigned widestRegister(const Function &F) {
  const StringRef Features = F.getFnAttribute("target-features").getValueAsString();
  if (Features.contains("+avx512f"))
    return 512;
  if (Features.contains("+avx"))
    return 256;
  return 0;
}

} // namespace

bool ChainInterleavePass::preferFullWidth(Function &F, FunctionAnalysisManager &FAM) {
  const unsigned Widest = widestRegister(F);
  unsigned Preferred = 0;
  if (F.hasFnAttribute("prefer-vector-width") &&
      F.getFnAttribute("prefer-vector-width").getValueAsString().getAsInteger(10, Preferred))
    return false;
  if (Widest == 0 || (Preferred != 0 && Preferred >= Widest))
    return false;
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  const TargetLibraryInfo &TLI = FAM.getResult<TargetLibraryAnalysis>(F);
  bool Chains = false;
  for (Loop *L : LI.getLoopsInPreorder()) {
    // A loop inside a work-item loop that calls a math function with vector
    // forms: a builtin's loop over the lanes of a double8 or a float16
    // (BuiltinMacros.h), which the loop vectorizer widens to one call of
    // the vector form per builtin, as wide as the registers asked for (a
    // double8 kernel of seven transcendental functions called their 256-bit
    // forms twice each, and ran at a third of a double kernel's rate).
    if (L->isInnermost() && !isWorkItemLoop(*L)) {
      bool InWorkItems = false;
      for (Loop *P = L->getParentLoop(); P && !InWorkItems; P = P->getParentLoop())
        InWorkItems = findOptionMDForLoop(P, wi::WorkItemLoopMD) != nullptr;
      if (InWorkItems)
        for (BasicBlock *BB : L->blocks())
          for (Instruction &I : *BB)
            if (auto *Call = dyn_cast<CallInst>(&I))
              if (Function *Callee = Call->getCalledFunction())
                Chains |= TLI.isFunctionVectorizable(Callee->getName());
      continue;
    }
    if (isWorkItemLoop(*L)) {
      // A long chain, interleaved here or independent enough already (a
      // split float8 chain), with few memory accesses beside it: bound by
      // the FMA units, not by loads (a filter's taps are not).
      const Need N = interleaveFor(*L, LI);
      if (N.Chain < MinChain)
        continue;
      unsigned Accesses = 0;
      for (BasicBlock *BB : L->blocks())
        for (Instruction &I : *BB)
          Accesses += isa<LoadInst>(I) || isa<StoreInst>(I);
      // Or a loop of whole full-width vectors (a group width fixed at the
      // launch, JitExecutable::specialize): a tiled SGEMM's row of 16
      // floats is one 512-bit multiply-add per step, its tile operand a
      // broadcast folded into it, where 256 bits take two.
      const unsigned Lanes = N.Element && !N.Vector ? Widest / N.Element->getScalarSizeInBits() : 0;
      const unsigned Trips = SE.getSmallConstantTripCount(L);
      Chains |= N.Ops >= ComputeBound * std::max(Accesses, 1u) ||
                (Lanes != 0 && Trips != 0 && Trips % Lanes == 0);
    }
  }
  if (!Chains)
    return false;
  F.addFnAttr("prefer-vector-width", std::to_string(Widest));
  // TargetIRAnalysis results are never invalidated: the vectorizer would
  // keep the width of the attribute as it was.
  FAM.clear(F, F.getName());
  return true;
}

PreservedAnalyses ChainInterleavePass::run(Function &F, FunctionAnalysisManager &FAM) {
  bool Changed = false;
  if (preferFullWidth(F, FAM))
    Changed = true;
  const TargetTransformInfo &TTI = FAM.getResult<TargetIRAnalysis>(F);
  const uint64_t VectorBits =
      TTI.getRegisterBitWidth(TargetTransformInfo::RGK_FixedWidthVector).getFixedSize();
  // One loop a round, on fresh analyses: versioning changes the CFG.
  SmallPtrSet<const BasicBlock *, 8> Tried;
  for (bool Round = true; Round;) {
    Round = false;
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
    ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    AssumptionCache &AC = FAM.getResult<AssumptionAnalysis>(F);
    for (Loop *L : LI.getLoopsInPreorder()) {
      if (!isCandidate(*L) || !Tried.insert(L->getHeader()).second)
        continue;
      Need N = interleaveFor(*L, LI);
      if (N.Count == 0)
        continue;
      if (N.Vector) {
        // The loop vectorizer takes no loop that computes on vectors, nor
        // interleaves one: unrolled, the work-items' chains are side by
        // side all the same, and the remainder is the unroller's.
        addStringMetadataToLoop(L, "llvm.loop.unroll.count", N.Count);
        addStringMetadataToLoop(L, "llvm.loop.interleave.count", 1);
        Changed = true;
        continue;
      }
      const uint64_t Lanes = std::max<uint64_t>(
          1, VectorBits / std::max<uint64_t>(1, N.Element->getPrimitiveSizeInBits()));
      unsigned Count = N.Count;
      const SCEV *Taken = SE.getBackedgeTakenCount(L);
      if (const auto *Constant = dyn_cast<SCEVConstant>(Taken)) {
        // Only metadata changes: the analyses of this round still hold.
        const uint64_t Trip = Constant->getAPInt().getLimitedValue() + 1;
        while (Count >= 2 && Lanes * Count > Trip)
          Count /= 2;
        if (Count >= 2) {
          addStringMetadataToLoop(L, "llvm.loop.interleave.count", Count);
          Changed = true;
        }
        continue;
      }
      if (!version(*L, unsigned(Lanes * Count), LI, DT, SE, AC))
        continue;
      addStringMetadataToLoop(L, "llvm.loop.interleave.count", Count);
      Changed = Round = true;
      FAM.invalidate(F, PreservedAnalyses::none());
      break;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft::compiler
