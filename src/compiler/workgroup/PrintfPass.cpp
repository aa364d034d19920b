// PrintfPass: OpenCL C's printf formats nothing in the kernel. Each call
// hands the format and the values of its variadic arguments to the device's
// printf service (runtime/program/KernelAbi.h: RuntimeServices::Printf), which
// formats them at once into the output of the work-item's worker; the
// device writes that output out by the time the kernel's event completes.
//
// Algorithm, for every call of `printf` in a work-item function:
//   1. In the entry block, allocate an array of PrintfArg {i64 type, ptr
//      data} with one element per variadic argument, and one slot per
//      argument of the argument's own type.
//   2. At the call, store each argument into its slot and describe it:
//      integer, float or pointer, element bytes and elements (a vector's
//      element count; 1 for a scalar). The formatter converts the value to
//      what the conversion asks for, so Clang's promotions (float to double,
//      char to int) and SPIR-V's lack of them both format right.
//   3. Replace the call by Ctx->Services->Printf(Ctx->PrintfSink, format,
//      args, n).
// The function gets the attribute weft-printf, which the work-group function
// inherits and KernelPipeline turns into KernelDesc::UsesPrintf.
//
// Before:  %r = call i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @fmt, double %x)
// After:   store double %x, ptr %slot0
//          store i64 <float, 8 bytes, 1>, ptr %args ; store ptr %slot0, (gep %args, 0, 1)
//          %svc = load ptr, (gep %ctx, 200); %fn = load ptr, (gep %svc, 0)
//          %sink = load ptr, (gep %ctx, 208)
//          %r = call i32 %fn(ptr %sink, ptr addrspacecast @fmt, ptr %args, i32 1)
// Limits: the call blocks vectorization of its work-item loop (printf is a
// debugging aid, not a fast path).
#include "compiler/workgroup/PrintfPass.h"

#include "compiler/workgroup/WorkGroupContextLayout.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace weft::compiler {

namespace {

uint64_t describe(Type *T, const DataLayout &DL) {
  unsigned Elements = 1;
  if (auto *VT = dyn_cast<FixedVectorType>(T)) {
    Elements = VT->getNumElements();
    T = VT->getElementType();
  }
  rt::PrintfArgKind Kind = T->isIntegerTy()        ? rt::PrintfArgKind::Integer
                           : T->isFloatingPointTy() ? rt::PrintfArgKind::Float
                           : T->isPointerTy()       ? rt::PrintfArgKind::Pointer
                                                    : rt::PrintfArgKind::Other;
  unsigned Bytes = Kind == rt::PrintfArgKind::Other ? 0 : unsigned(DL.getTypeStoreSize(T));
  return rt::printfArgType(Kind, Bytes, Elements);
}

void lowerCall(Function &F, CallInst &Call) {
  Module &M = *F.getParent();
  const DataLayout &DL = M.getDataLayout();
  LLVMContext &C = M.getContext();
  Type *Ptr = PointerType::get(C, 0);
  Type *I64 = Type::getInt64Ty(C);
  StructType *ArgTy = StructType::get(C, {I64, Ptr});
  unsigned N = Call.arg_size() - 1;

  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  Value *Args = Entry.CreateAlloca(ArgTy, Entry.getInt32(std::max(N, 1u)), "printf.args");
  IRBuilder<> B(&Call);
  for (unsigned I = 0; I < N; ++I) {
    Value *V = Call.getArgOperand(I + 1);
    Value *Slot = Entry.CreateAlloca(V->getType(), nullptr, "printf.arg");
    B.CreateStore(V, Slot);
    Value *Desc = B.CreateConstInBoundsGEP1_32(ArgTy, Args, I);
    B.CreateStore(B.getInt64(describe(V->getType(), DL)), B.CreateStructGEP(ArgTy, Desc, 0));
    B.CreateStore(Slot, B.CreateStructGEP(ArgTy, Desc, 1));
  }
  Value *Ctx = wi::extraArg(F, wi::Ctx);
  Value *Services =
      B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ctx, ctx::Services));
  Value *Fn =
      B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Services, svc::Printf));
  Value *Sink = B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ctx, ctx::PrintfSink));
  Value *Format = B.CreatePointerBitCastOrAddrSpaceCast(Call.getArgOperand(0), Ptr);
  FunctionType *FnTy = FunctionType::get(B.getInt32Ty(), {Ptr, Ptr, Ptr, B.getInt32Ty()}, false);
  Value *R = B.CreateCall(FnTy, Fn, {Sink, Format, Args, B.getInt32(N)});
  if (!Call.getType()->isVoidTy())
    Call.replaceAllUsesWith(R->getType() == Call.getType() ? R
                                                           : B.CreateSExtOrTrunc(R, Call.getType()));
  Call.eraseFromParent();
}

} // namespace

PreservedAnalyses PrintfPass::run(Module &M, ModuleAnalysisManager &) {
  Function *Printf = M.getFunction("printf");
  if (!Printf || !Printf->isDeclaration())
    return PreservedAnalyses::all();
  SmallVector<CallInst *, 8> Calls;
  for (User *U : Printf->users())
    if (auto *Call = dyn_cast<CallInst>(U))
      if (Call->getCalledFunction() == Printf && Call->arg_size() >= 1 &&
          wi::isWorkItemFunction(*Call->getFunction()))
        Calls.push_back(Call);
  for (CallInst *Call : Calls) {
    Function &F = *Call->getFunction();
    lowerCall(F, *Call);
    F.addFnAttr(wi::PrintfAttr);
  }
  return Calls.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace weft::compiler
