// LocalMemoryPass: static __local variables become slices of the worker's
// local-memory arena.
//
// Algorithm (per work-item function F):
//  1. Rewrite every constant expression in F that refers to an addrspace(3)
//     global (GEPs, casts of @lds) into instructions, so each use of a
//     __local global is an instruction operand inside F.
//  2. Lay out the __local globals F uses, in module order, each at the next
//     offset aligned to its alignment; the total goes to the
//     weft-local-size attribute (KernelDesc::StaticLocalSize).
//  3. At F's entry load Ctx->LocalMem and replace each global inside F by
//     `addrspacecast (gep i8, LocalMem, offset) to ptr addrspace(3)`.
//  Each worker thread has its own arena and runs one work-group at a time,
//  so the arena is the work-group's shared __local memory; __local kernel
//  arguments are placed by the runtime after StaticLocalSize.
//
// Before:                                   After:
//   @k.tile = internal addrspace(3) global    %lm = load ptr, ptr (gep %ctx, 152)
//             [64 x float] undef              %t = gep i8, %lm, 0
//   store float %v, ptr addrspace(3)          %t3 = addrspacecast ptr %t to ptr addrspace(3)
//     getelementptr (@k.tile, 0, 5)           %g = getelementptr [64 x float], %t3, 0, 5
//                                             store float %v, ptr addrspace(3) %g
// Limits: __local variables used by constant initializers of other globals
// are not rewritten (OpenCL C does not allow taking their address there).
#include "compiler/workgroup/LocalMemoryPass.h"

#include "compiler/AddressSpace.h"
#include "compiler/workgroup/WorkGroupContextLayout.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace weft::compiler {

namespace {

bool refersToLocal(Constant *C, SmallPtrSetImpl<Constant *> &Seen) {
  if (auto *GV = dyn_cast<GlobalVariable>(C))
    return GV->getAddressSpace() == addrspace::Local;
  if (!isa<ConstantExpr>(C) || !Seen.insert(C).second)
    return false;
  for (Use &Op : C->operands())
    if (auto *OpC = dyn_cast<Constant>(Op.get()))
      if (refersToLocal(OpC, Seen))
        return true;
  return false;
}

/// Step 1: constant expressions over __local globals -> instructions.
void expandLocalConstantExprs(Function &F) {
  SmallVector<Instruction *, 64> Work;
  for (Instruction &I : instructions(F))
    Work.push_back(&I);
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    for (unsigned OpNo = 0; OpNo < I->getNumOperands(); ++OpNo) {
      auto *CE = dyn_cast<ConstantExpr>(I->getOperand(OpNo));
      SmallPtrSet<Constant *, 8> Seen;
      if (!CE || !refersToLocal(CE, Seen))
        continue;
      Instruction *InsertBefore = I;
      if (auto *Phi = dyn_cast<PHINode>(I))
        InsertBefore = Phi->getIncomingBlock(OpNo)->getTerminator();
      Instruction *NewI = CE->getAsInstruction(InsertBefore);
      I->setOperand(OpNo, NewI);
      Work.push_back(NewI);
    }
  }
}

void layOutLocals(Function &F) {
  Module &M = *F.getParent();
  const DataLayout &DL = M.getDataLayout();
  expandLocalConstantExprs(F);

  SmallVector<GlobalVariable *, 8> Used;
  for (GlobalVariable &GV : M.globals()) {
    if (GV.getAddressSpace() != addrspace::Local)
      continue;
    for (User *U : GV.users())
      if (auto *I = dyn_cast<Instruction>(U); I && I->getFunction() == &F) {
        Used.push_back(&GV);
        break;
      }
  }
  if (Used.empty()) {
    wi::setSizeAttr(F, wi::LocalSizeAttr, 0);
    return;
  }

  BasicBlock &Entry = F.getEntryBlock();
  IRBuilder<> B(&*Entry.getFirstInsertionPt());
  Value *CtxArg = wi::extraArg(F, wi::Ctx);
  Value *LocalMem = B.CreateLoad(B.getPtrTy(), B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), CtxArg, ctx::LocalMem),
                                 "local.mem");
  uint64_t Offset = 0;
  for (GlobalVariable *GV : Used) {
    Align Al = DL.getValueOrABITypeAlignment(GV->getAlign(), GV->getValueType());
    Offset = alignTo(Offset, Al);
    Value *Slot = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), LocalMem, Offset);
    Value *Local = B.CreateAddrSpaceCast(Slot, GV->getType(), GV->getName() + ".local");
    GV->replaceUsesWithIf(Local, [&](Use &U) {
      auto *I = dyn_cast<Instruction>(U.getUser());
      return I && I->getFunction() == &F;
    });
    Offset += DL.getTypeAllocSize(GV->getValueType());
  }
  wi::setSizeAttr(F, wi::LocalSizeAttr, Offset);
}

} // namespace

PreservedAnalyses LocalMemoryPass::run(Module &M, ModuleAnalysisManager &) {
  for (Function &F : M)
    if (wi::isWorkItemFunction(F) && !F.isDeclaration())
      layOutLocals(F);
  return PreservedAnalyses::none();
}

} // namespace weft::compiler
