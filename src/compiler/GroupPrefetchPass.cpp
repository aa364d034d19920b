#include "compiler/GroupPrefetchPass.h"

#include "compiler/AddressSpace.h"
#include "compiler/WorkGroupContextLayout.h"
#include "compiler/WorkItemFunction.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/ValueTracking.h>
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

/// The dimension of the group id (Ctx->GroupId[d]) that I loads, or -1.
int groupIdLoad(const Instruction &I, const Value *Ctx, const DataLayout &DL) {
  const auto *L = dyn_cast<LoadInst>(&I);
  if (!L)
    return -1;
  int64_t Offset = 0;
  const Value *Base = GetPointerBaseWithConstantOffset(L->getPointerOperand(), Offset, DL);
  const int64_t First = int64_t(ctx::GroupId);
  if (Base != Ctx || Offset < First || Offset >= First + 3 * 8 || (Offset - First) % 8)
    return -1;
  return int((Offset - First) / 8);
}

/// The dimensions whose group id V is computed from (bit d for d), through
/// any instructions but loads other than the group id's own.
unsigned groupDims(Value *V, const Value *Ctx, const DataLayout &DL) {
  unsigned Dims = 0;
  SmallPtrSet<const Value *, 32> Seen;
  SmallVector<const Value *, 32> Work{V};
  // A bound on the walk: an address is a few dozen instructions.
  constexpr unsigned MaxSteps = 512;
  for (unsigned Steps = 0; !Work.empty() && Steps < MaxSteps; ++Steps) {
    const auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Seen.insert(I).second)
      continue;
    if (int D = groupIdLoad(*I, Ctx, DL); D >= 0) {
      Dims |= 1u << D;
      continue;
    }
    if (isa<LoadInst>(I) || isa<CallBase>(I))
      continue;
    for (const Value *Op : I->operands())
      Work.push_back(Op);
  }
  return Dims;
}

} // namespace

PreservedAnalyses GroupPrefetchPass::run(Function &F, FunctionAnalysisManager &) {
  if (!F.getName().startswith(wi::WorkGroupPrefix) || wi::sizeAttr(F, wi::BarrierCountAttr) == 0)
    return PreservedAnalyses::all();
  const DataLayout &DL = F.getParent()->getDataLayout();
  const Value *Ctx = F.getArg(1);
  // The group id dimensions the kernel tells its groups apart by.
  unsigned Used = 0;
  for (Instruction &I : instructions(F))
    if (int D = groupIdLoad(I, Ctx, DL); D >= 0)
      Used |= 1u << D;
  // Only an address that moves with all of them: another group never reads
  // it again. One that moves with some (a matrix product's strip of rows or
  // columns) the groups along the others read again, from the caches.
  auto Streams = [&](Value *Ptr) { return Used && (groupDims(Ptr, Ctx, DL) & Used) == Used; };
  std::vector<std::pair<Instruction *, Value *>> Loads;
  std::vector<MemTransferInst *> Copies;
  for (Instruction &I : instructions(F)) {
    if (vectorLoadBytes(I, DL) >= MinBytes) {
      Value *Ptr = isa<LoadInst>(I) ? cast<LoadInst>(I).getPointerOperand()
                                    : cast<IntrinsicInst>(I).getArgOperand(0);
      if (Streams(Ptr))
        Loads.emplace_back(&I, Ptr);
    } else if (auto *Copy = dyn_cast<MemTransferInst>(&I)) {
      auto *Len = dyn_cast<ConstantInt>(Copy->getLength());
      if (Copy->getSourceAddressSpace() == addrspace::Global && !Copy->isVolatile() && Len &&
          Len->getZExtValue() <= MaxCopyBytes && Streams(Copy->getRawSource()))
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
