// Streaming stores for launches that write more than the caches hold
// (StreamingStores.h).
#include "compiler/specialize/StreamingStores.h"

#include "compiler/AddressSpace.h"
#include "compiler/specialize/LocalSizeSpecialization.h"
#include "compiler/workgroup/WorkGroupContextLayout.h"
#include "compiler/workgroup/WorkGroupLoopPass.h"

#include <llvm/ADT/Triple.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Local.h>

using namespace llvm;

namespace weft::compiler {

unsigned specializeStreamingStores(Function &WG, uint64_t ItemAlign, uint64_t AlignedArgs,
                                   uint64_t PointerAlign) {
  LLVMContext &C = WG.getContext();
  WG.addFnAttr(StreamingStorePass::Attr);
  unsigned Changed = 0;
  MDNode *Aligned =
      MDNode::get(C, ConstantAsMetadata::get(ConstantInt::get(Type::getInt64Ty(C), PointerAlign)));
  for (unsigned Index = 0; Index < 64; ++Index)
    if (AlignedArgs >> Index & 1)
      if (LoadInst *L = WorkGroupLoopPass::argumentValue(WG, Index);
          L && L->getType()->isPointerTy()) {
        L->setMetadata(LLVMContext::MD_align, Aligned);
        ++Changed;
      }
  if (ItemAlign > 1)
    for (uint64_t Field : {ctx::EnqueuedLocalSize, ctx::GlobalOffset})
      for (auto &[L, Dim] : contextFieldLoads(WG, Field)) {
        if (Dim != 0)
          continue;
        auto *Masked = BinaryOperator::CreateAnd(
            L, ConstantInt::get(L->getType(), -int64_t(ItemAlign)), L->getName() + ".aligned");
        Masked->insertAfter(L);
        L->replaceUsesWithIf(Masked, [&](Use &U) { return U.getUser() != Masked; });
        ++Changed;
      }
  return Changed;
}

PreservedAnalyses StreamingStorePass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (!F.hasFnAttribute(Attr))
    return PreservedAnalyses::all();
  const DataLayout &DL = F.getParent()->getDataLayout();
  AssumptionCache &AC = FAM.getResult<AssumptionAnalysis>(F);
  DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  LLVMContext &C = F.getContext();
  MDNode *NonTemporal =
      MDNode::get(C, ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(C), 1)));
  bool Any = false;
  for (Instruction &I : instructions(F)) {
    auto *S = dyn_cast<StoreInst>(&I);
    if (!S || !S->isSimple() || S->getPointerAddressSpace() != addrspace::Global)
      continue;
    Type *T = S->getValueOperand()->getType();
    if (!T->isVectorTy())
      continue;
    const TypeSize Size = DL.getTypeStoreSize(T);
    if (Size.isScalable() || Size.getFixedSize() < MinBytes || !isPowerOf2_64(Size.getFixedSize()))
      continue;
    const Align Known = getKnownAlignment(S->getPointerOperand(), DL, S, &AC, &DT);
    if (Known.value() < Size.getFixedSize())
      continue;
    S->setAlignment(std::max(S->getAlign(), Align(Size.getFixedSize())));
    S->setMetadata(LLVMContext::MD_nontemporal, NonTemporal);
    Any = true;
  }
  if (!Any)
    return PreservedAnalyses::all();
  // Non-temporal stores are weakly ordered: without a fence, the device
  // could mark the group done before they reach memory.
  const bool X86 = Triple(F.getParent()->getTargetTriple()).isX86();
  for (BasicBlock &BB : F)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator())) {
      IRBuilder<> B(Ret);
      if (X86)
        B.CreateIntrinsic(Intrinsic::x86_sse_sfence, {}, {});
      else
        B.CreateFence(AtomicOrdering::SequentiallyConsistent);
    }
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

} // namespace weft::compiler
