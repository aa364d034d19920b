#include "compiler/vectorize/GroupPrefetchPass.h"

#include "compiler/AddressSpace.h"
#include "compiler/specialize/LocalSizeSpecialization.h"
#include "compiler/workgroup/WorkGroupContextLayout.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <vector>

using namespace llvm;

namespace weft::compiler {

namespace {

/// The address of I if it reads a whole vector of at least
/// GroupPrefetchPass::MinBytes from __global memory (a simple or masked
/// load), or nullptr.
Value *wholeVectorLoad(Instruction &I, const DataLayout &DL) {
  Value *Ptr = nullptr;
  if (auto *L = dyn_cast<LoadInst>(&I); L && L->isSimple())
    Ptr = L->getPointerOperand();
  else if (auto *II = dyn_cast<IntrinsicInst>(&I);
           II && II->getIntrinsicID() == Intrinsic::masked_load)
    Ptr = II->getArgOperand(0);
  if (!Ptr || !I.getType()->isVectorTy() ||
      Ptr->getType()->getPointerAddressSpace() != addrspace::Global)
    return nullptr;
  const TypeSize Size = DL.getTypeStoreSize(I.getType());
  return !Size.isScalable() && Size.getFixedSize() >= GroupPrefetchPass::MinBytes ? Ptr : nullptr;
}

void prefetch(IRBuilder<> &B, Value *Ptr, int64_t Ahead) {
  Value *At = B.CreateConstGEP1_64(B.getInt8Ty(), Ptr, Ahead, "ahead");
  Function *Decl = Intrinsic::getDeclaration(B.GetInsertBlock()->getModule(), Intrinsic::prefetch,
                                             {At->getType()});
  B.CreateCall(Decl, {At, B.getInt32(0), B.getInt32(GroupPrefetchPass::Locality), B.getInt32(1)});
}

/// The dimensions whose group id V is computed from (bit d for d), through
/// any instructions but loads other than the group id's own (GroupIds: each
/// load of a group id, with its dimension).
unsigned groupDims(Value *V, const DenseMap<const Instruction *, int> &GroupIds) {
  unsigned Dims = 0;
  SmallPtrSet<const Value *, 32> Seen;
  SmallVector<const Value *, 32> Work{V};
  // A bound on the walk: an address is a few dozen instructions.
  constexpr unsigned MaxSteps = 512;
  for (unsigned Steps = 0; !Work.empty() && Steps < MaxSteps; ++Steps) {
    const auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Seen.insert(I).second)
      continue;
    if (auto Id = GroupIds.find(I); Id != GroupIds.end()) {
      Dims |= 1u << Id->second;
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
  // The group id dimensions the kernel tells its groups apart by.
  DenseMap<const Instruction *, int> GroupIds;
  unsigned Used = 0;
  for (auto [L, Dim] : contextFieldLoads(F, ctx::GroupId))
    if (L->getFunction() == &F) {
      GroupIds[L] = Dim;
      Used |= 1u << Dim;
    }
  // Only an address that moves with all of them: another group never reads
  // it again. One that moves with some (a matrix product's strip of rows or
  // columns) the groups along the others read again, from the caches.
  auto Streams = [&](Value *Ptr) { return Used && (groupDims(Ptr, GroupIds) & Used) == Used; };
  std::vector<std::pair<Instruction *, Value *>> Loads;
  std::vector<MemTransferInst *> Copies;
  for (Instruction &I : instructions(F)) {
    if (Value *Ptr = wholeVectorLoad(I, DL)) {
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
