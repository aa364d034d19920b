#include "compiler/GroupPrefetchPass.h"

#include "compiler/AddressSpace.h"
#include "compiler/WorkItemFunction.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <vector>

using namespace llvm;

namespace weft::compiler {

namespace {

/// Bytes P reads from __global memory as one whole vector, or 0.
uint64_t vectorLoadBytes(const Instruction &I, const DataLayout &DL) {
  Type *T = nullptr;
  unsigned AS = 0;
  if (const auto *L = dyn_cast<LoadInst>(&I)) {
    if (!L->isSimple())
      return 0;
    T = L->getType();
    AS = L->getPointerAddressSpace();
  } else if (const auto *II = dyn_cast<IntrinsicInst>(&I);
             II && II->getIntrinsicID() == Intrinsic::masked_load) {
    T = II->getType();
    AS = II->getArgOperand(0)->getType()->getPointerAddressSpace();
  }
  if (!T || !T->isVectorTy() || AS != addrspace::Global)
    return 0;
  const TypeSize Size = DL.getTypeStoreSize(T);
  return Size.isScalable() ? 0 : Size.getFixedSize();
}

void prefetch(IRBuilder<> &B, Value *Ptr, int64_t Ahead) {
  Value *At = B.CreateConstGEP1_64(B.getInt8Ty(), Ptr, Ahead, "ahead");
  Function *Decl = Intrinsic::getDeclaration(B.GetInsertBlock()->getModule(), Intrinsic::prefetch,
                                             {At->getType()});
  B.CreateCall(Decl, {At, B.getInt32(0), B.getInt32(GroupPrefetchPass::Locality), B.getInt32(1)});
}

} // namespace

PreservedAnalyses GroupPrefetchPass::run(Function &F, FunctionAnalysisManager &) {
  if (!F.getName().startswith(wi::WorkGroupPrefix) || wi::sizeAttr(F, wi::BarrierCountAttr) == 0)
    return PreservedAnalyses::all();
  const DataLayout &DL = F.getParent()->getDataLayout();
  std::vector<std::pair<Instruction *, Value *>> Loads;
  std::vector<MemTransferInst *> Copies;
  for (Instruction &I : instructions(F)) {
    if (vectorLoadBytes(I, DL) >= MinBytes) {
      Value *Ptr = isa<LoadInst>(I) ? cast<LoadInst>(I).getPointerOperand()
                                    : cast<IntrinsicInst>(I).getArgOperand(0);
      Loads.emplace_back(&I, Ptr);
    } else if (auto *Copy = dyn_cast<MemTransferInst>(&I)) {
      auto *Len = dyn_cast<ConstantInt>(Copy->getLength());
      if (Copy->getSourceAddressSpace() == addrspace::Global && !Copy->isVolatile() && Len &&
          Len->getZExtValue() <= MaxCopyBytes)
        Copies.push_back(Copy);
    }
  }
  if (Loads.empty() && Copies.empty())
    return PreservedAnalyses::all();
  IRBuilder<> B(F.getContext());
  for (auto [I, Ptr] : Loads) {
    B.SetInsertPoint(I);
    prefetch(B, Ptr, Distance);
  }
  for (MemTransferInst *Copy : Copies) {
    B.SetInsertPoint(Copy);
    const uint64_t Len = cast<ConstantInt>(Copy->getLength())->getZExtValue();
    for (uint64_t Off = 0; Off < Len; Off += LineBytes)
      prefetch(B, Copy->getRawSource(), Distance + int64_t(Off));
  }
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft::compiler
