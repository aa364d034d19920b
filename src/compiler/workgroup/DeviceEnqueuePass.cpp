// DeviceEnqueuePass: enqueue_kernel and its companions become calls of the
// runtime's device-enqueue services (runtime/program/KernelAbi.h, implemented in
// runtime/commands/DeviceEnqueue.cpp).
//
// What Clang makes of `enqueue_kernel(q, flags, range, ^{ ... })`: the
// block's body as a function `__k_block_invoke(ptr addrspace(4) literal,
// <local pointers>)`, a kernel `__k_block_invoke_kernel` with the same
// parameters that calls it, the block literal {size, align, invoke,
// captures...} on the parent's stack, and a call
//   __enqueue_kernel_basic(q, flags, ptr range, ptr @..._kernel, ptr literal)
// (or _basic_events, _varargs, _events_varargs with a wait list, a returned
// event and the sizes of the block's `__local` arguments). The queries
// get_kernel_work_group_size(block) and friends are `__get_kernel_*_impl`
// calls with the same kernel operand.
//
// Algorithm, in two steps.
//  1. nameBlockKernels(), before kernels are described: each such kernel
//     operand becomes the address of a string constant holding the block
//     kernel's name (the runtime finds the kernel's work-group function and
//     description by it: the kernel's own function is gone after the
//     work-group passes), and the block kernel gets the kernel metadata of
//     its parameters (the literal: a pointer; then `__local` pointers), so
//     the pipeline compiles it like any kernel; DeviceEnqueuePass::
//     BlockKernelAttr keeps it out of the application's kernel list. Every
//     block invoke function's address in a literal is nulled (OpenCL C
//     calls blocks directly; the address is never read). An
//     operand that is a block's invoke function rather than its kernel (as
//     a SPIR-V module may give) gets a kernel made for it here.
//  2. run(), once every kernel is a work-item function with the
//     WorkGroupContext in hand: each call becomes
//       Ctx->Services->EnqueueKernel(Ctx, q, flags, range, n, wait list,
//                                    returned event, name, literal,
//                                    local count, local sizes)
//     with the operands a form lacks as 0 / null, and the device-event
//     built-ins (create_user_event, retain_event, release_event,
//     is_valid_event, set_user_event_status, capture_event_profiling_info,
//     get_default_queue) one DeviceEvent call each, with its operation code;
//     enqueue_marker the EnqueueMarker service, the block queries the
//     BlockQuery service. The function gets UsesAttr, which the work-group
//     function inherits and KernelPipeline turns into
//     KernelDesc::UsesDeviceEnqueue (the device then gives its launches the
//     enqueue state, Ctx->Enqueue).
//
// Before: %r = call i32 @__enqueue_kernel_basic(ptr %q, i32 0, ptr %nd,
//                  ptr addrspace(4) addrspacecast (@__k_block_invoke_kernel),
//                  ptr addrspace(4) %literal)
// After:  %svc = load ptr, (gep %ctx, Services); %fn = load ptr, (gep %svc, 8)
//         %r = call i32 %fn(ptr %ctx, ptr %q, i32 0, ptr %nd, i32 0, ptr null,
//                  ptr null, ptr @__weft_block_name.0, ptr %literal, i32 0, ptr null)
// Limits: the calls block vectorization of the loop they are in (each
// enqueue is a runtime call, not a lane operation).
#include "compiler/workgroup/DeviceEnqueuePass.h"

#include "compiler/AddressSpace.h"
#include "compiler/OpenClNames.h"
#include "compiler/workgroup/WorkGroupContextLayout.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace weft::compiler {

namespace {

/// Where the operands of one `__enqueue_kernel_*` or `__get_kernel_*_impl`
/// form are (-1: the form has none).
struct Form {
  int Queue, Flags, Range, NumEvents, WaitList, RetEvent, Kernel, Block, NumLocals, Sizes;
  int Query; ///< the rt::BlockQuery of a query form; -1 for an enqueue
};

const StringMap<Form> &forms() {
  static const StringMap<Form> Forms = [] {
    auto Q = [](rt::BlockQuery B) { return int(B); };
    StringMap<Form> F;
    F["__enqueue_kernel_basic"] = {0, 1, 2, -1, -1, -1, 3, 4, -1, -1, -1};
    F["__enqueue_kernel_basic_events"] = {0, 1, 2, 3, 4, 5, 6, 7, -1, -1, -1};
    F["__enqueue_kernel_varargs"] = {0, 1, 2, -1, -1, -1, 3, 4, 5, 6, -1};
    F["__enqueue_kernel_events_varargs"] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1};
    F["__get_kernel_work_group_size_impl"] = {
        -1, -1, -1, -1, -1, -1, 0, 1, -1, -1, Q(rt::BlockQuery::WorkGroupSize)};
    F["__get_kernel_preferred_work_group_size_multiple_impl"] = {
        -1, -1, -1, -1, -1, -1, 0, 1, -1, -1, Q(rt::BlockQuery::PreferredMultiple)};
    F["__get_kernel_max_sub_group_size_for_ndrange_impl"] = {
        -1, -1, 0, -1, -1, -1, 1, 2, -1, -1, Q(rt::BlockQuery::MaxSubGroupSize)};
    F["__get_kernel_sub_group_count_for_ndrange_impl"] = {
        -1, -1, 0, -1, -1, -1, 1, 2, -1, -1, Q(rt::BlockQuery::SubGroupCount)};
    return F;
  }();
  return Forms;
}

/// The device-event built-ins, by their OpenCL C names.
const StringMap<rt::DeviceEventOp> &eventOps() {
  static const StringMap<rt::DeviceEventOp> Ops = [] {
    StringMap<rt::DeviceEventOp> O;
    O["create_user_event"] = rt::DeviceEventOp::CreateUserEvent;
    O["retain_event"] = rt::DeviceEventOp::RetainEvent;
    O["release_event"] = rt::DeviceEventOp::ReleaseEvent;
    O["is_valid_event"] = rt::DeviceEventOp::IsValidEvent;
    O["set_user_event_status"] = rt::DeviceEventOp::SetStatus;
    O["capture_event_profiling_info"] = rt::DeviceEventOp::CaptureProfiling;
    O["get_default_queue"] = rt::DeviceEventOp::DefaultQueue;
    return O;
  }();
  return Ops;
}

/// The kernel metadata of a block kernel's parameters: the literal (a
/// pointer) and `__local` pointers.
void describeBlockKernel(Function &K) {
  LLVMContext &C = K.getContext();
  SmallVector<Metadata *, 4> AS, Access, Types, Quals;
  for (Argument &A : K.args()) {
    unsigned Space = A.getType()->isPointerTy() ? A.getType()->getPointerAddressSpace() : 0;
    AS.push_back(ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(C), Space)));
    Access.push_back(MDString::get(C, "none"));
    Types.push_back(MDString::get(C, "void*"));
    Quals.push_back(MDString::get(C, ""));
  }
  K.setMetadata("kernel_arg_addr_space", MDNode::get(C, AS));
  K.setMetadata("kernel_arg_access_qual", MDNode::get(C, Access));
  K.setMetadata("kernel_arg_type", MDNode::get(C, Types));
  K.setMetadata("kernel_arg_base_type", MDNode::get(C, Types));
  K.setMetadata("kernel_arg_type_qual", MDNode::get(C, Quals));
  K.addFnAttr(DeviceEnqueuePass::BlockKernelAttr);
}

/// The runtime calls a block kernel by name, and OpenCL C calls a block
/// only directly (a block is never a function's parameter, nor chosen at
/// run time), so the invoke functions' addresses the block literals store
/// are never read. They are nulled: an address kept (in a program-scope
/// block's literal, or an enqueued block's) would keep the invoke function
/// alive outside every kernel, with its work-item built-ins unlowered.
void dropInvokeAddresses(Module &M) {
  for (Function &Invoke : M)
    if (!Invoke.isDeclaration() && Invoke.getCallingConv() != CallingConv::SPIR_KERNEL &&
        Invoke.getName().contains("_block_invoke"))
      Invoke.replaceUsesWithIf(ConstantPointerNull::get(Invoke.getType()), [](Use &U) {
        auto *CB = dyn_cast<CallBase>(U.getUser());
        return !(CB && CB->isCallee(&U));
      });
}

/// A kernel that calls a block's invoke function Invoke with its own
/// parameters (for a module whose enqueue names the invoke function).
Function *kernelFor(Function &Invoke) {
  Module &M = *Invoke.getParent();
  std::string Name = (Invoke.getName() + "_kernel").str();
  if (Function *Existing = M.getFunction(Name))
    return Existing;
  Function *K = Function::Create(Invoke.getFunctionType(), GlobalValue::ExternalLinkage, Name, M);
  K->setCallingConv(CallingConv::SPIR_KERNEL);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", K));
  SmallVector<Value *, 4> Args;
  for (Argument &A : K->args())
    Args.push_back(&A);
  B.CreateCall(&Invoke, Args)->setCallingConv(Invoke.getCallingConv());
  B.CreateRetVoid();
  return K;
}

Value *loadService(IRBuilder<> &B, Value *Ctx, uint64_t Offset) {
  Type *Ptr = B.getPtrTy();
  Value *Services =
      B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ctx, ctx::Services));
  return B.CreateLoad(Ptr, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Services, Offset));
}

/// V as a value of type T (pointers to the flat address space, integers
/// widened or narrowed).
Value *as(IRBuilder<> &B, Value *V, Type *T) {
  if (V->getType() == T)
    return V;
  if (T->isPointerTy() && V->getType()->isPointerTy())
    return B.CreatePointerBitCastOrAddrSpaceCast(V, T);
  if (T->isPointerTy())
    return B.CreateIntToPtr(V, T);
  if (V->getType()->isPointerTy())
    return B.CreatePtrToInt(V, T);
  return B.CreateZExtOrTrunc(V, T);
}

/// Replaces Call by R (converted to the call's type), and erases it.
void replace(IRBuilder<> &B, CallInst &Call, Value *R) {
  if (!Call.getType()->isVoidTy())
    Call.replaceAllUsesWith(as(B, R, Call.getType()));
  Call.eraseFromParent();
}

void lowerForm(CallInst &Call, const Form &F) {
  Function &Fn = *Call.getFunction();
  IRBuilder<> B(&Call);
  Value *Ctx = wi::extraArg(Fn, wi::Ctx);
  Type *Ptr = B.getPtrTy(), *I32 = B.getInt32Ty();
  auto Op = [&](int I, Type *T) -> Value * {
    return I < 0 ? Constant::getNullValue(T) : as(B, Call.getArgOperand(I), T);
  };
  if (F.Query >= 0) {
    FunctionType *Ty = FunctionType::get(I32, {Ptr, I32, Ptr, Ptr}, false);
    Value *R = B.CreateCall(Ty, loadService(B, Ctx, svc::BlockQuery),
                            {Ctx, B.getInt32(F.Query), Op(F.Kernel, Ptr), Op(F.Range, Ptr)});
    replace(B, Call, R);
    return;
  }
  FunctionType *Ty =
      FunctionType::get(I32, {Ptr, Ptr, I32, Ptr, I32, Ptr, Ptr, Ptr, Ptr, I32, Ptr}, false);
  Value *R =
      B.CreateCall(Ty, loadService(B, Ctx, svc::EnqueueKernel),
                   {Ctx, Op(F.Queue, Ptr), Op(F.Flags, I32), Op(F.Range, Ptr), Op(F.NumEvents, I32),
                    Op(F.WaitList, Ptr), Op(F.RetEvent, Ptr), Op(F.Kernel, Ptr), Op(F.Block, Ptr),
                    Op(F.NumLocals, I32), Op(F.Sizes, Ptr)});
  replace(B, Call, R);
}

void lowerEvent(CallInst &Call, rt::DeviceEventOp Op) {
  Function &Fn = *Call.getFunction();
  IRBuilder<> B(&Call);
  Value *Ctx = wi::extraArg(Fn, wi::Ctx);
  Type *Ptr = B.getPtrTy(), *I64 = B.getInt64Ty();
  auto Arg = [&](unsigned I, Type *T) -> Value * {
    return I < Call.arg_size() ? as(B, Call.getArgOperand(I), T) : Constant::getNullValue(T);
  };
  Value *Event = Constant::getNullValue(Ptr), *Val = B.getInt64(0), *Out = Event;
  switch (Op) {
  case rt::DeviceEventOp::CreateUserEvent:
  case rt::DeviceEventOp::DefaultQueue:
    break;
  case rt::DeviceEventOp::SetStatus:
    Event = Arg(0, Ptr);
    Val = B.CreateSExtOrTrunc(Call.getArgOperand(1), I64);
    break;
  case rt::DeviceEventOp::CaptureProfiling:
    Event = Arg(0, Ptr);
    Val = B.CreateSExtOrTrunc(Call.getArgOperand(1), I64);
    Out = Arg(2, Ptr);
    break;
  default:
    Event = Arg(0, Ptr);
  }
  FunctionType *Ty = FunctionType::get(I64, {Ptr, B.getInt32Ty(), Ptr, I64, Ptr}, false);
  Value *R = B.CreateCall(Ty, loadService(B, Ctx, svc::DeviceEvent),
                          {Ctx, B.getInt32(uint32_t(Op)), Event, Val, Out});
  replace(B, Call, R);
}

void lowerMarker(CallInst &Call) {
  Function &Fn = *Call.getFunction();
  IRBuilder<> B(&Call);
  Value *Ctx = wi::extraArg(Fn, wi::Ctx);
  Type *Ptr = B.getPtrTy(), *I32 = B.getInt32Ty();
  FunctionType *Ty = FunctionType::get(I32, {Ptr, Ptr, I32, Ptr, Ptr}, false);
  Value *R =
      B.CreateCall(Ty, loadService(B, Ctx, svc::EnqueueMarker),
                   {Ctx, as(B, Call.getArgOperand(0), Ptr), as(B, Call.getArgOperand(1), I32),
                    as(B, Call.getArgOperand(2), Ptr), as(B, Call.getArgOperand(3), Ptr)});
  replace(B, Call, R);
}

} // namespace

bool DeviceEnqueuePass::nameBlockKernels(Module &M, std::string &Log) {
  StringMap<Constant *> Names;
  for (const auto &Entry : forms()) {
    Function *F = M.getFunction(Entry.getKey());
    if (!F)
      continue;
    for (User *U : make_early_inc_range(F->users())) {
      auto *Call = dyn_cast<CallInst>(U);
      if (!Call || Call->getCalledFunction() != F)
        continue;
      unsigned Index = unsigned(Entry.getValue().Kernel);
      if (Index >= Call->arg_size())
        continue;
      Value *Operand = Call->getArgOperand(Index);
      auto *Target = dyn_cast<Function>(Operand->stripPointerCasts());
      if (!Target || Target->isDeclaration()) {
        Log += "error: " + Entry.getKey().str() +
               " is not given a block's kernel or invoke function\n";
        return false;
      }
      if (Target->getCallingConv() != CallingConv::SPIR_KERNEL)
        Target = kernelFor(*Target);
      if (!Target->hasFnAttribute(BlockKernelAttr))
        describeBlockKernel(*Target);
      Constant *&Name = Names[Target->getName()];
      if (!Name) {
        Constant *Text = ConstantDataArray::getString(M.getContext(), Target->getName());
        Name = new GlobalVariable(M, Text->getType(), /*isConstant=*/true,
                                  GlobalValue::PrivateLinkage, Text, "__weft_block_name", nullptr,
                                  GlobalValue::NotThreadLocal, addrspace::Global);
      }
      Call->setArgOperand(Index,
                          ConstantExpr::getPointerBitCastOrAddrSpaceCast(Name, Operand->getType()));
    }
  }
  dropInvokeAddresses(M);
  return true;
}

bool DeviceEnqueuePass::lowers(StringRef Name) {
  StringRef Base = demangledBaseName(Name);
  return forms().count(Name) || eventOps().count(Base) || Base == "enqueue_marker";
}

PreservedAnalyses DeviceEnqueuePass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<CallInst *, 16> Calls;
  for (Function &F : M)
    if (wi::isWorkItemFunction(F))
      for (Instruction &I : instructions(F))
        if (auto *Call = dyn_cast<CallInst>(&I))
          if (Function *Callee = Call->getCalledFunction(); Callee && Callee->isDeclaration())
            Calls.push_back(Call);
  bool Changed = false;
  for (CallInst *Call : Calls) {
    Function &Caller = *Call->getFunction();
    StringRef Name = Call->getCalledFunction()->getName();
    StringRef Base = demangledBaseName(Name);
    if (auto It = forms().find(Name); It != forms().end())
      lowerForm(*Call, It->getValue());
    else if (auto Op = eventOps().find(Base); Op != eventOps().end())
      lowerEvent(*Call, Op->getValue());
    else if (Base == "enqueue_marker" && Call->arg_size() == 4)
      lowerMarker(*Call);
    else
      continue;
    Caller.addFnAttr(UsesAttr);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace weft::compiler
