// Work-group functions compiled for one local size
// (LocalSizeSpecialization.h).
#include "compiler/LocalSizeSpecialization.h"

#include "compiler/WorkGroupContextLayout.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>

using namespace llvm;

namespace weft::compiler {

namespace {

/// The context pointers of WG: its context argument, and each parameter
/// of an internal function that receives one of them at every call.
SmallPtrSet<Value *, 8> contextPointers(Function &WG) {
  SmallPtrSet<Value *, 8> Ctx;
  Ctx.insert(WG.getArg(1));
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (Function &F : *WG.getParent()) {
      if (F.isDeclaration() || !F.hasLocalLinkage() || F.use_empty())
        continue;
      for (Argument &A : F.args()) {
        if (!A.getType()->isPointerTy() || Ctx.contains(&A))
          continue;
        bool Always = llvm::all_of(F.uses(), [&](const Use &U) {
          auto *Call = dyn_cast<CallBase>(U.getUser());
          return Call && Call->isCallee(&U) && Call->arg_size() == F.arg_size() &&
                 Ctx.contains(Call->getArgOperand(A.getArgNo()));
        });
        if (Always) {
          Ctx.insert(&A);
          Grew = true;
        }
      }
    }
  }
  return Ctx;
}

/// The dimension whose local size (or enqueued local size) the context
/// holds at byte Offset, or -1.
int sizeDimension(uint64_t Offset) {
  for (uint64_t Field : {ctx::LocalSize, ctx::EnqueuedLocalSize})
    if (Offset >= Field && Offset < Field + 3 * sizeof(uint64_t) &&
        (Offset - Field) % sizeof(uint64_t) == 0)
      return int((Offset - Field) / sizeof(uint64_t));
  return -1;
}

} // namespace

unsigned specializeLocalSize(Function &WG, const std::array<uint64_t, 3> &Size) {
  const DataLayout &DL = WG.getParent()->getDataLayout();
  SmallVector<std::pair<LoadInst *, uint64_t>, 16> Found;
  for (Value *Ctx : contextPointers(WG)) {
    for (User *U : Ctx->users()) {
      auto *GEP = dyn_cast<GEPOperator>(U);
      if (!GEP || GEP->getPointerOperand() != Ctx)
        continue;
      APInt Offset(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
      if (!GEP->accumulateConstantOffset(DL, Offset))
        continue;
      int Dim = sizeDimension(Offset.getZExtValue());
      if (Dim < 0)
        continue;
      for (User *V : GEP->users())
        if (auto *L = dyn_cast<LoadInst>(V);
            L && L->getPointerOperand() == GEP && L->getType()->isIntegerTy(64) && !L->isVolatile())
          Found.push_back({L, Size[Dim]});
    }
  }
  for (auto &[L, Value] : Found) {
    L->replaceAllUsesWith(ConstantInt::get(L->getType(), Value));
    L->eraseFromParent();
  }
  return Found.size();
}

} // namespace weft::compiler
