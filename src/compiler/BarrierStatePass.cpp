// BarrierStatePass: barriers -> a resumable work-item function.
//
// Algorithm (per work-item function F, after everything is inlined into it):
//  1. Split the block of every barrier call k (k = 1..n) after the call; the
//     head now ends in `ret i32 k` instead of the barrier, the tail is the
//     resume point R_k.
//  2. A new entry block `dispatch` switches on the State argument:
//     0 -> the old entry, k -> R_k. Allocas of the old entry move up to it.
//  3. Delete blocks that became unreachable, then demote to memory every SSA
//     value (and PHI) with a use its definition no longer dominates, using
//     the dominator tree of the new CFG; repeat until none is left. Such a
//     value crosses a barrier, so it must survive the return.
//  4. Every alloca (the kernel's private variables and arrays, the demoted
//     values) becomes a fixed offset in Frame, the work-item's slice of
//     Ctx->PrivateMem; lifetime markers on them are dropped.
//  The work-group loop (WorkGroupLoopPass) calls F for every work-item with
//  State = 0, then again with the k they all returned, until they return -1.
//  Work-items reach the same barrier in the same order (OpenCL C 6.15.8), so
//  one State serves the whole group.
//
// Before:                          After:
//   entry:                           dispatch: switch %state [0 -> entry, 1 -> after1]
//     %a = alloca [4 x i32]          entry:  %x = ...; store %x, %x.reg  ; %x.reg in Frame
//     %x = ...                               ret i32 1
//     call @_Z7barrierj(i32 1)       after1: %x.r = load %x.reg  ; %a -> gep %frame, 0
//     use %x, %a                             use %x.r ... ret i32 -1
//     ret void
// Limits: frames hold every alloca of a barrier kernel, not only the ones
// live across a barrier; the CFG after dispatch is irreducible when a
// barrier sits in a loop, which LLVM handles but optimizes less. Work-items
// that return early while others still reach a barrier (undefined in OpenCL)
// are resumed with the others' state.
#include "compiler/BarrierStatePass.h"

#include "compiler/OpenClNames.h"
#include "compiler/WorkItemFunction.h"

#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>

using namespace llvm;

namespace weft::compiler {

namespace {

SmallVector<CallInst *, 8> findBarriers(Function &F) {
  SmallVector<CallInst *, 8> Barriers;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *Call = dyn_cast<CallInst>(&I))
        if (Function *Callee = Call->getCalledFunction())
          if (isBarrierName(Callee->getName()))
            Barriers.push_back(Call);
  return Barriers;
}

uint64_t allocaBytes(const AllocaInst &A, const DataLayout &DL) {
  auto *N = cast<ConstantInt>(A.getArraySize());
  return DL.getTypeAllocSize(A.getAllocatedType()) * N->getZExtValue();
}

/// Demotes values whose definition does not dominate all uses; returns the
/// number demoted.
unsigned demoteNonDominating(Function &F, Instruction *AllocaPoint) {
  DominatorTree DT(F);
  SmallVector<Instruction *, 32> ToDemote;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (isa<AllocaInst>(I))
        continue;
      for (Use &U : I.uses())
        if (!DT.dominates(&I, U)) {
          ToDemote.push_back(&I);
          break;
        }
    }
  for (Instruction *I : ToDemote) {
    if (auto *Phi = dyn_cast<PHINode>(I))
      DemotePHIToStack(Phi, AllocaPoint);
    else
      DemoteRegToStack(*I, false, AllocaPoint);
  }
  return static_cast<unsigned>(ToDemote.size());
}

void eraseLifetimeMarkers(AllocaInst *A) {
  SmallVector<Instruction *, 4> Dead;
  SmallVector<Value *, 4> Work = {A};
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    for (User *U : V->users()) {
      if (auto *II = dyn_cast<IntrinsicInst>(U)) {
        if (II->isLifetimeStartOrEnd())
          Dead.push_back(II);
      } else if (isa<BitCastInst>(U) || isa<AddrSpaceCastInst>(U)) {
        Work.push_back(U);
      }
    }
  }
  for (Instruction *I : Dead)
    I->eraseFromParent();
}

} // namespace

bool BarrierStatePass::transform(Function &F) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  LLVMContext &C = F.getContext();
  uint64_t PrivateBytes = 0;
  for (Instruction &I : instructions(F))
    if (auto *A = dyn_cast<AllocaInst>(&I)) {
      if (!isa<ConstantInt>(A->getArraySize()))
        return false;
      PrivateBytes += allocaBytes(*A, DL);
    }
  wi::setSizeAttr(F, wi::PrivateSizeAttr, PrivateBytes);

  SmallVector<CallInst *, 8> Barriers = findBarriers(F);
  if (Barriers.empty()) {
    wi::setSizeAttr(F, wi::FrameSizeAttr, 0);
    return true;
  }

  // 1. Split at barriers.
  Type *I32 = Type::getInt32Ty(C);
  SmallVector<BasicBlock *, 8> Resume;
  for (CallInst *Barrier : Barriers) {
    BasicBlock *BB = Barrier->getParent();
    BasicBlock *After = BB->splitBasicBlock(Barrier->getNextNode(), BB->getName() + ".resume");
    BB->getTerminator()->eraseFromParent();
    ReturnInst::Create(C, ConstantInt::get(I32, Resume.size() + 1), BB);
    Barrier->eraseFromParent();
    Resume.push_back(After);
  }

  // 2. Dispatch block.
  BasicBlock *OldEntry = &F.getEntryBlock();
  BasicBlock *Dispatch = BasicBlock::Create(C, "dispatch", &F, OldEntry);
  SwitchInst *Switch =
      SwitchInst::Create(wi::extraArg(F, wi::State), OldEntry, Resume.size(), Dispatch);
  for (size_t K = 0; K < Resume.size(); ++K)
    Switch->addCase(ConstantInt::get(cast<IntegerType>(I32), K + 1), Resume[K]);
  for (Instruction &I : make_early_inc_range(*OldEntry))
    if (isa<AllocaInst>(I))
      I.moveBefore(Switch);

  // 3. Demote what crosses a barrier.
  // (removeUnreachableBlocks may rewrite the switch; re-read the terminator.)
  removeUnreachableBlocks(F);
  while (demoteNonDominating(F, F.getEntryBlock().getTerminator()) != 0) {
  }

  // 4. Allocas -> frame offsets.
  SmallVector<AllocaInst *, 32> Allocas;
  for (Instruction &I : instructions(F))
    if (auto *A = dyn_cast<AllocaInst>(&I))
      Allocas.push_back(A);
  IRBuilder<> B(F.getEntryBlock().getTerminator());
  Value *Frame = wi::extraArg(F, wi::Frame);
  uint64_t Offset = 0;
  uint64_t MaxAlign = 16;
  for (AllocaInst *A : Allocas) {
    if (!isa<ConstantInt>(A->getArraySize()))
      return false;
    uint64_t Al = A->getAlign().value();
    MaxAlign = std::max(MaxAlign, Al);
    Offset = alignTo(Offset, Al);
    eraseLifetimeMarkers(A);
    Value *Slot = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Frame, Offset, A->getName() + ".frame");
    if (Slot->getType() != A->getType())
      Slot = B.CreateAddrSpaceCast(Slot, A->getType());
    A->replaceAllUsesWith(Slot);
    Offset += allocaBytes(*A, DL);
    A->eraseFromParent();
  }
  wi::setSizeAttr(F, wi::FrameSizeAttr, alignTo(std::max<uint64_t>(Offset, 1), MaxAlign));
  return true;
}

PreservedAnalyses BarrierStatePass::run(Module &M, ModuleAnalysisManager &) {
  for (Function &F : M)
    if (wi::isWorkItemFunction(F) && !F.isDeclaration())
      if (!transform(F))
        F.addFnAttr("weft-error", "a private array of dynamic size is not supported");
  return PreservedAnalyses::none();
}

} // namespace weft::compiler
