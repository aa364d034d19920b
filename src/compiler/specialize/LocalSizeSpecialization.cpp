// Work-group functions compiled for one local size
// (LocalSizeSpecialization.h).
#include "compiler/specialize/LocalSizeSpecialization.h"

#include "compiler/workgroup/WorkGroupContextLayout.h"
#include "compiler/workgroup/WorkGroupLoopPass.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
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

} // namespace

SmallVector<std::pair<LoadInst *, int>, 16> contextFieldLoads(Function &WG, uint64_t Field) {
  const DataLayout &DL = WG.getParent()->getDataLayout();
  SmallVector<std::pair<LoadInst *, int>, 16> Found;
  for (Value *Ctx : contextPointers(WG)) {
    for (User *U : Ctx->users()) {
      auto *GEP = dyn_cast<GEPOperator>(U);
      if (!GEP || GEP->getPointerOperand() != Ctx)
        continue;
      APInt Offset(DL.getIndexTypeSizeInBits(GEP->getType()), 0);
      if (!GEP->accumulateConstantOffset(DL, Offset))
        continue;
      const uint64_t At = Offset.getZExtValue();
      if (At < Field || At >= Field + 3 * sizeof(uint64_t) || (At - Field) % sizeof(uint64_t) != 0)
        continue;
      for (User *V : GEP->users())
        if (auto *L = dyn_cast<LoadInst>(V);
            L && L->getPointerOperand() == GEP && L->getType()->isIntegerTy(64) && !L->isVolatile())
          Found.push_back({L, int((At - Field) / sizeof(uint64_t))});
    }
  }
  return Found;
}

unsigned specializeLocalSize(Function &WG, const std::array<uint64_t, 3> &Size) {
  unsigned Replaced = 0;
  for (uint64_t Field : {ctx::LocalSize, ctx::EnqueuedLocalSize})
    for (auto &[L, Dim] : contextFieldLoads(WG, Field)) {
      L->replaceAllUsesWith(ConstantInt::get(L->getType(), Size[Dim]));
      L->eraseFromParent();
      ++Replaced;
    }
  // With rows around it, an x loop of a few iterations would be unrolled
  // whole before the vectorizer, which then took the row loop around the
  // copies, gathering what was consecutive across the work-items (a naive
  // matrix product in groups of 16 x 16, compiled for its size, ran 20
  // times slower). A group of one row keeps LLVM's choices (peeling a
  // tree step's x loop, unrolling a short one for the SLP vectorizer).
  if (Size[1] > 1 || Size[2] > 1)
    WorkGroupLoopPass::holdWorkItemLoops(WG);
  return Replaced;
}

unsigned boundGlobalIds(Function &WG, const std::array<uint64_t, 3> &Size, uint64_t Limit) {
  MDBuilder MD(WG.getContext());
  unsigned Bounded = 0;
  auto bound = [&](uint64_t Field, auto Range) {
    for (auto &[L, Dim] : contextFieldLoads(WG, Field)) {
      const auto [Low, High] = Range(Size[Dim]);
      L->setMetadata(LLVMContext::MD_range, MD.createRange(APInt(64, Low), APInt(64, High)));
      ++Bounded;
    }
  };
  // Global size = groups x local size <= Limit, offset < Limit.
  bound(ctx::GroupId, [&](uint64_t LS) { return std::pair{uint64_t(0), Limit / LS}; });
  bound(ctx::NumGroups, [&](uint64_t LS) { return std::pair{uint64_t(1), Limit / LS + 1}; });
  bound(ctx::GlobalSize, [&](uint64_t) { return std::pair{uint64_t(1), Limit + 1}; });
  bound(ctx::GlobalOffset, [&](uint64_t) { return std::pair{uint64_t(0), Limit}; });
  return Bounded;
}

} // namespace weft::compiler
