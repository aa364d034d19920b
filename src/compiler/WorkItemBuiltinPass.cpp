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
//   get_global_id(d)  = GroupId[d] * EnqueuedLocalSize[d] + lid(d) + GlobalOffset[d]
//   get_global_linear_id() = ((gid2-off2)*GS1 + (gid1-off1))*GS0 + (gid0-off0)
//   get_local_linear_id()  = (Lz*LS1 + Ly)*LS0 + Lx
//   get_work_dim()    = (i32) Ctx->WorkDim
// A constant d folds to one load; a variable d selects. Fences (mem_fence,
// read/write_mem_fence, atomic_work_item_fence) become `fence seq_cst`.
//
// Before:  %g = call i64 @_Z13get_global_idj(i32 0)
// After:   %grp = load i64, (gep %ctx, 8); %els = load i64, (gep %ctx, 56)
//          %off = load i64, (gep %ctx, 104)
//          %g = add (add (mul %grp, %els), %lx), %off
// Limits: only calls with a known callee are recognized (OpenCL C has no
// function pointers).
#include "compiler/WorkItemBuiltinPass.h"

#include "compiler/OpenClNames.h"
#include "compiler/WorkGroupContextLayout.h"
#include "compiler/WorkItemFunction.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace weft::compiler {

namespace {

class Lowering {
public:
  Lowering(Function &F, IRBuilder<> &B) : F(F), B(B) {}

  /// Ctx->Field[Dim] with Default for Dim >= 3.
  Value *field(uint64_t FieldOffset, Value *Dim, uint64_t Default) {
    Value *Ctx = wi::extraArg(F, wi::Ctx);
    if (auto *CD = dyn_cast<ConstantInt>(Dim)) {
      uint64_t D = CD->getZExtValue();
      if (D >= 3)
        return B.getInt64(Default);
      return load(Ctx, FieldOffset + 8 * D);
    }
    Value *InRange = B.CreateICmpULT(Dim, ConstantInt::get(Dim->getType(), 3));
    Value *Safe = B.CreateSelect(InRange, B.CreateZExt(Dim, B.getInt64Ty()), B.getInt64(0));
    Value *Addr = B.CreateInBoundsGEP(B.getInt8Ty(), Ctx,
                                      B.CreateAdd(B.getInt64(FieldOffset), B.CreateShl(Safe, 3)));
    Value *V = B.CreateLoad(B.getInt64Ty(), Addr);
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

  Value *lower(WorkItemFn Kind, CallInst &Call) {
    Value *Dim = Call.arg_size() > 0 ? Call.getArgOperand(0) : nullptr;
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

private:
  Value *load(Value *Ctx, uint64_t Offset) {
    return B.CreateLoad(B.getInt64Ty(), B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ctx, Offset));
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
    WorkItemFn Kind = classifyWorkItemFn(Name);
    if (Kind == WorkItemFn::None)
      continue;
    Lowering L(F, B);
    Value *V = L.lower(Kind, *Call);
    if (V->getType() != Call->getType())
      V = B.CreateZExtOrTrunc(V, Call->getType());
    Call->replaceAllUsesWith(V);
    Call->eraseFromParent();
  }
}

} // namespace

PreservedAnalyses WorkItemBuiltinPass::run(Module &M, ModuleAnalysisManager &) {
  for (Function &F : M)
    if (wi::isWorkItemFunction(F) && !F.isDeclaration())
      lowerFunction(F);
  return PreservedAnalyses::none();
}

} // namespace weft::compiler
