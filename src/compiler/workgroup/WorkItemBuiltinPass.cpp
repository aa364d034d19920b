// WorkItemBuiltinPass: replaces the OpenCL work-item functions inside each
// work-item function by arithmetic on its Lx/Ly/Lz arguments and loads from
// the WorkGroupContext, and memory fences by LLVM fences.
//
// Algorithm: for every call in a work-item function whose callee is a
// work-item builtin (by unmangled name, OpenClNames.h), build the value at
// the call and replace it:
//   get_local_id(d)   = d==0 ? Lx : d==1 ? Ly : d==2 ? Lz : 0
//   get_group_id(d), get_local_size(d), get_enqueued_local_size(d),
//   get_global_size(d), get_num_groups(d), get_global_offset(d)
//                     = d < 3 ? Ctx->Field[d] : (sizes 1, ids/offsets 0)
//                     (the loads !invariant.load: see field())
//   get_global_id(d)  = GroupId[d] * EnqueuedLocalSize[d] + lid(d) + GlobalOffset[d]
//   get_global_linear_id() = ((gid2-off2)*GS1 + (gid1-off1))*GS0 + (gid0-off0)
//   get_local_linear_id()  = (Lz*LS1 + Ly)*LS0 + Lx
//   get_work_dim()    = (i32) Ctx->WorkDim
// A constant d folds to one load; a variable d selects. Fences (mem_fence,
// read/write_mem_fence, atomic_work_item_fence) become `fence seq_cst`.
//
// The generic address space's queries classify the address by the ranges
// the context gives (runtime/program/KernelAbi.h):
//   local(p)   = LocalMem <= p < LocalMem + LocalMemSize
//   private(p) = PrivateMem <= p < PrivateMem + PrivateMemSize
//                || stacksave() <= p < StackTop
//   (the work-group function has no red zone: WorkGroupLoopPass)
//   to_local(p) = local(p) ? p : NULL, to_private likewise, to_global(p) =
//   !local(p) && !private(p) ? p : NULL; get_fence(p) = local(p) ?
//   CLK_LOCAL_MEM_FENCE : private(p) ? 0 : CLK_GLOBAL_MEM_FENCE.
// __weft_wg_scratch() = Ctx->CollectiveScratch as a __local pointer.
// __weft_sub_group_width() = the kernel's sub-group size, a constant
// (wi::SubGroupSizeAttr).
// __weft_sub_group_area() = the caller's sub-group's area of the
// collective scratch: CollectiveScratch + WEFT_SUB_GROUPS_AT(group size)
// + local linear id / N * WEFT_SUB_GROUP_AREA(N).
//
// Before:  %g = call i64 @_Z13get_global_idj(i32 0)
// After:   %grp = load i64, (gep %ctx, 8); %els = load i64, (gep %ctx, 56)
//          %off = load i64, (gep %ctx, 104)
//          %g = add (add (mul %grp, %els), %lx), %off
// Limits: only calls with a known callee are recognized (OpenCL C has no
// function pointers).
#include "compiler/workgroup/WorkItemBuiltinPass.h"

#include "compiler/OpenClNames.h"
#include "compiler/workgroup/WorkGroupContextLayout.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace weft::compiler {

namespace {

class Lowering {
public:
  Lowering(Function &F, IRBuilder<> &B) : F(F), B(B) {}

  /// Ctx->Field[Dim] with Default for Dim >= 3. The geometry fields do not
  /// change while the work-group function runs (the runtime writes them
  /// between calls), so their loads are invariant: LICM takes them out of
  /// an x loop even past a sequentially consistent atomic, which to alias
  /// analysis writes all memory (AtomicLanePass needs them out, so that
  /// the loop's stores can be checked at run time).
  Value *field(uint64_t FieldOffset, Value *Dim, uint64_t Default) {
    Value *Ctx = wi::extraArg(F, wi::Ctx);
    if (auto *CD = dyn_cast<ConstantInt>(Dim)) {
      uint64_t D = CD->getZExtValue();
      if (D >= 3)
        return B.getInt64(Default);
      return invariant(load(Ctx, FieldOffset + 8 * D));
    }
    Value *InRange = B.CreateICmpULT(Dim, ConstantInt::get(Dim->getType(), 3));
    Value *Safe = B.CreateSelect(InRange, B.CreateZExt(Dim, B.getInt64Ty()), B.getInt64(0));
    Value *Addr = B.CreateInBoundsGEP(B.getInt8Ty(), Ctx,
                                      B.CreateAdd(B.getInt64(FieldOffset), B.CreateShl(Safe, 3)));
    Value *V = invariant(B.CreateLoad(B.getInt64Ty(), Addr));
    return B.CreateSelect(InRange, V, B.getInt64(Default));
  }

  Value *localId(Value *Dim) {
    Value *Lx = wi::extraArg(F, wi::Lx), *Ly = wi::extraArg(F, wi::Ly), *Lz = wi::extraArg(F, wi::Lz);
    if (auto *CD = dyn_cast<ConstantInt>(Dim)) {
      switch (CD->getZExtValue()) {
      case 0:
        return Lx;
      case 1:
        return Ly;
      case 2:
        return Lz;
      default:
        return B.getInt64(0);
      }
    }
    Type *DT = Dim->getType();
    Value *V = B.CreateSelect(B.CreateICmpEQ(Dim, ConstantInt::get(DT, 2)), Lz, B.getInt64(0));
    V = B.CreateSelect(B.CreateICmpEQ(Dim, ConstantInt::get(DT, 1)), Ly, V);
    return B.CreateSelect(B.CreateICmpEQ(Dim, ConstantInt::get(DT, 0)), Lx, V);
  }

  Value *globalId(Value *Dim) {
    Value *Group = field(ctx::GroupId, Dim, 0);
    Value *Size = field(ctx::EnqueuedLocalSize, Dim, 1);
    Value *Off = field(ctx::GlobalOffset, Dim, 0);
    return B.CreateAdd(B.CreateAdd(B.CreateMul(Group, Size), localId(Dim)), Off);
  }

  Value *lower(WorkItemFn Kind, Value *Dim) {
    switch (Kind) {
    case WorkItemFn::WorkDim:
      return load(wi::extraArg(F, wi::Ctx), ctx::WorkDim);
    case WorkItemFn::GlobalSize:
      return field(ctx::GlobalSize, Dim, 1);
    case WorkItemFn::GlobalId:
      return globalId(Dim);
    case WorkItemFn::LocalSize:
      return field(ctx::LocalSize, Dim, 1);
    case WorkItemFn::EnqueuedLocalSize:
      return field(ctx::EnqueuedLocalSize, Dim, 1);
    case WorkItemFn::LocalId:
      return localId(Dim);
    case WorkItemFn::NumGroups:
      return field(ctx::NumGroups, Dim, 1);
    case WorkItemFn::GroupId:
      return field(ctx::GroupId, Dim, 0);
    case WorkItemFn::GlobalOffset:
      return field(ctx::GlobalOffset, Dim, 0);
    case WorkItemFn::GlobalLinearId: {
      Value *Id[3];
      for (unsigned D = 0; D < 3; ++D)
        Id[D] = B.CreateSub(globalId(B.getInt32(D)), field(ctx::GlobalOffset, B.getInt32(D), 0));
      Value *GS0 = field(ctx::GlobalSize, B.getInt32(0), 1);
      Value *GS1 = field(ctx::GlobalSize, B.getInt32(1), 1);
      return B.CreateAdd(B.CreateMul(B.CreateAdd(B.CreateMul(Id[2], GS1), Id[1]), GS0), Id[0]);
    }
    case WorkItemFn::LocalLinearId: {
      Value *LS0 = field(ctx::LocalSize, B.getInt32(0), 1);
      Value *LS1 = field(ctx::LocalSize, B.getInt32(1), 1);
      return B.CreateAdd(
          B.CreateMul(B.CreateAdd(B.CreateMul(wi::extraArg(F, wi::Lz), LS1), wi::extraArg(F, wi::Ly)), LS0),
          wi::extraArg(F, wi::Lx));
    }
    case WorkItemFn::None:
      break;
    }
    return nullptr;
  }

  /// The caller's sub-group's area of the collective scratch, as Ty.
  Value *subGroupArea(Type *Ty) {
    const uint64_t N = wi::subGroupSize(F);
    Value *Items = B.getInt64(1);
    for (unsigned D = 0; D < 3; ++D)
      Items = B.CreateMul(Items, field(ctx::LocalSize, B.getInt32(D), 1), "", true, true);
    Value *Sg = B.CreateUDiv(lower(WorkItemFn::LocalLinearId, nullptr), B.getInt64(N));
    Value *Scratch = load(wi::extraArg(F, wi::Ctx), ctx::CollectiveScratch, B.getPtrTy());
    return B.CreateAddrSpaceCast(WorkItemBuiltinPass::subGroupArea(B, Scratch, Items, Sg, N), Ty);
  }

  Value *lower(AddressSpaceFn Kind, CallInst &Call) {
    if (Kind == AddressSpaceFn::CollectiveScratch)
      return B.CreateAddrSpaceCast(
          load(wi::extraArg(F, wi::Ctx), ctx::CollectiveScratch, B.getPtrTy()), Call.getType());
    Value *Addr = B.CreatePtrToInt(Call.getArgOperand(0), B.getInt64Ty());
    switch (Kind) {
    case AddressSpaceFn::ToLocal:
      return castOrNull(Call, isLocal(Addr));
    case AddressSpaceFn::ToPrivate:
      return castOrNull(Call, isPrivate(Addr));
    case AddressSpaceFn::ToGlobal:
      return castOrNull(Call, B.CreateNot(B.CreateOr(isLocal(Addr), isPrivate(Addr))));
    case AddressSpaceFn::GetFence: {
      constexpr uint64_t GlobalFence = 1, LocalFence = 2; // CLK_*_MEM_FENCE
      Value *NotLocal =
          B.CreateSelect(isPrivate(Addr), B.getInt64(0), B.getInt64(GlobalFence));
      return B.CreateSelect(isLocal(Addr), B.getInt64(LocalFence), NotLocal);
    }
    case AddressSpaceFn::CollectiveScratch:
    case AddressSpaceFn::None:
      break;
    }
    return nullptr;
  }

private:
  Value *invariant(Value *Load) {
    cast<LoadInst>(Load)->setMetadata(LLVMContext::MD_invariant_load,
                                      MDNode::get(Load->getContext(), {}));
    return Load;
  }

  Value *load(Value *Ctx, uint64_t Offset, Type *Ty = nullptr) {
    return B.CreateLoad(Ty ? Ty : B.getInt64Ty(),
                        B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ctx, Offset));
  }

  /// Base <= Addr < Base + Size, with Base a pointer field of the context.
  Value *inRange(Value *Addr, uint64_t BaseField, Value *Size) {
    Value *Ctx = wi::extraArg(F, wi::Ctx);
    Value *Base = B.CreatePtrToInt(load(Ctx, BaseField, B.getPtrTy()), B.getInt64Ty());
    return B.CreateICmpULT(B.CreateSub(Addr, Base), Size);
  }

  Value *isLocal(Value *Addr) {
    return inRange(Addr, ctx::LocalMem, load(wi::extraArg(F, wi::Ctx), ctx::LocalMemSize));
  }

  Value *isPrivate(Value *Addr) {
    Value *Ctx = wi::extraArg(F, wi::Ctx);
    Value *InFrames = inRange(Addr, ctx::PrivateMem, load(Ctx, ctx::PrivateMemSize));
    Module &M = *F.getParent();
    Value *Sp = B.CreatePtrToInt(B.CreateCall(Intrinsic::getDeclaration(&M, Intrinsic::stacksave)),
                                 B.getInt64Ty());
    Value *Top = B.CreatePtrToInt(load(Ctx, ctx::StackTop, B.getPtrTy()), B.getInt64Ty());
    Value *OnStack = B.CreateAnd(B.CreateICmpUGE(Addr, Sp), B.CreateICmpULT(Addr, Top));
    return B.CreateOr(InFrames, OnStack);
  }

  /// The call's argument cast to its result's address space if Is, else NULL.
  Value *castOrNull(CallInst &Call, Value *Is) {
    auto *To = cast<PointerType>(Call.getType());
    Value *Cast = B.CreateAddrSpaceCast(Call.getArgOperand(0), To);
    return B.CreateSelect(Is, Cast, ConstantPointerNull::get(To));
  }

  Function &F;
  IRBuilder<> &B;
};

void lowerFunction(Function &F) {
  SmallVector<CallInst *, 32> Calls;
  for (Instruction &I : instructions(F))
    if (auto *Call = dyn_cast<CallInst>(&I))
      if (Function *Callee = Call->getCalledFunction(); Callee && Callee->isDeclaration())
        Calls.push_back(Call);
  for (CallInst *Call : Calls) {
    StringRef Name = Call->getCalledFunction()->getName();
    IRBuilder<> B(Call);
    if (isFenceName(Name)) {
      B.CreateFence(AtomicOrdering::SequentiallyConsistent);
      Call->eraseFromParent();
      continue;
    }
    Lowering L(F, B);
    Value *V = nullptr;
    if (isSubGroupWidthName(Name)) {
      V = B.getInt32(wi::subGroupSize(F));
    } else if (isSubGroupAreaName(Name)) {
      V = L.subGroupArea(Call->getType());
      F.addFnAttr(wi::GroupShapeAttr);
    } else if (AddressSpaceFn AS = classifyAddressSpaceFn(Name); AS != AddressSpaceFn::None) {
      V = L.lower(AS, *Call);
      F.addFnAttr(wi::GroupShapeAttr);
    } else if (WorkItemFn Kind = classifyWorkItemFn(Name); Kind != WorkItemFn::None) {
      V = L.lower(Kind, Call->arg_size() > 0 ? Call->getArgOperand(0) : nullptr);
      switch (Kind) {
      case WorkItemFn::LocalId:
      case WorkItemFn::LocalSize:
      case WorkItemFn::EnqueuedLocalSize:
      case WorkItemFn::NumGroups:
      case WorkItemFn::GroupId:
      case WorkItemFn::LocalLinearId:
        F.addFnAttr(wi::GroupShapeAttr);
        break;
      default:
        break;
      }
    } else {
      continue;
    }
    if (V->getType() != Call->getType())
      V = B.CreateZExtOrTrunc(V, Call->getType());
    Call->replaceAllUsesWith(V);
    Call->eraseFromParent();
  }
}

} // namespace

Value *WorkItemBuiltinPass::query(Function &F, IRBuilder<> &B, WorkItemFn Kind, Value *Dim) {
  return Lowering(F, B).lower(Kind, Dim);
}

Value *WorkItemBuiltinPass::subGroupArea(IRBuilder<> &B, Value *Scratch, Value *Items, Value *Sg,
                                         uint64_t N) {
  // WEFT_SUB_GROUPS_AT(Items) + Sg * WEFT_SUB_GROUP_AREA(N).
  Value *Slots = B.CreateMul(B.CreateAdd(Items, B.getInt64(1)), B.getInt64(WEFT_COLLECTIVE_SLOT));
  Value *Areas = B.CreateAnd(B.CreateAdd(Slots, B.getInt64(127)), B.getInt64(~uint64_t(127)));
  Value *Offset = B.CreateAdd(Areas, B.CreateMul(Sg, B.getInt64(WEFT_SUB_GROUP_AREA(N))));
  return B.CreateInBoundsGEP(B.getInt8Ty(), Scratch, Offset);
}

PreservedAnalyses WorkItemBuiltinPass::run(Module &M, ModuleAnalysisManager &) {
  for (Function &F : M)
    if (wi::isWorkItemFunction(F) && !F.isDeclaration())
      lowerFunction(F);
  return PreservedAnalyses::none();
}

} // namespace weft::compiler
