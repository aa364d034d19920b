// WorkItemFunctionPass: kernel K -> work-item function __weft_wi_K.
//
// Algorithm:
//  1. For each kernel K (a definition with kernel_arg_addr_space metadata)
//     clone its body into a new (for now external) function
//       i32 __weft_wi_K(K's params, ptr Ctx, i64 Lx, i64 Ly, i64 Lz, i32 State, ptr Frame,
//                       ptr Uniform)
//     Every `ret void` becomes `ret i32 -1` ("work-item finished").
//  2. A `byval` parameter becomes a plain pointer to the caller's bytes; the
//     clone copies them into its own alloca at entry, so a work-item that
//     writes its struct argument writes a private copy (and, with barriers,
//     the copy lives in the work-item's frame like any other alloca).
//  3. Every other function with a body (helpers, the original kernels, the
//     linked builtins) becomes internal + alwaysinline (noinline/optnone
//     removed, from call sites too), so the always-inliner that runs next
//     folds the whole call tree into the work-item functions. OpenCL C has no recursion, so this
//     terminates; KernelPipeline rejects a call that survives.
//
// Before:
//   define spir_kernel void @k(ptr addrspace(1) %p) {
//     call void @helper(...)
//     ret void
//   }
// After:
//   define i32 @__weft_wi_k(ptr addrspace(1) %p, ptr %ctx, i64 %lx, i64 %ly, i64 %lz,
//                           i32 %state, ptr %frame, ptr %uniform) {
//     call void @helper(...)   ; alwaysinline now
//     ret i32 -1
//   }
// Limits: kernels are not removed here (GlobalDCE does it once they are
// internal and unused); kernels with variadic arguments are not supported.
#include "compiler/workgroup/WorkItemFunctionPass.h"

#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

using namespace llvm;

namespace weft::compiler {

bool WorkItemFunctionPass::isKernel(const Function &F) {
  return !F.isDeclaration() && F.getMetadata("kernel_arg_addr_space") != nullptr &&
         !F.getName().startswith(wi::Prefix);
}

namespace {

Function *createWorkItemFunction(Function &K) {
  Module &M = *K.getParent();
  LLVMContext &C = M.getContext();
  SmallVector<Type *, 16> Params;
  for (Argument &A : K.args())
    Params.push_back(A.getType());
  Type *Ptr = PointerType::get(C, 0);
  Type *I64 = Type::getInt64Ty(C);
  Type *I32 = Type::getInt32Ty(C);
  Params.append({Ptr, I64, I64, I64, I32, Ptr, Ptr});
  FunctionType *Ty = FunctionType::get(I32, Params, false);
  // External until WorkGroupLoopPass has called it, so GlobalDCE keeps it.
  Function *WI = Function::Create(Ty, GlobalValue::ExternalLinkage, wi::Prefix + K.getName(), M);

  ValueToValueMapTy VMap;
  auto NewArg = WI->arg_begin();
  for (Argument &A : K.args()) {
    NewArg->setName(A.getName());
    VMap[&A] = &*NewArg++;
  }
  const char *ExtraNames[] = {"ctx", "lx", "ly", "lz", "state", "frame", "uniform"};
  for (const char *N : ExtraNames)
    (NewArg++)->setName(N);

  SmallVector<ReturnInst *, 8> Returns;
  CloneFunctionInto(WI, &K, VMap, CloneFunctionChangeType::LocalChangesOnly, Returns);
  WI->setLinkage(GlobalValue::ExternalLinkage);
  WI->setCallingConv(CallingConv::C);
  WI->setAttributes(AttributeList()); // param/ret attributes of K do not fit the new signature
  for (Attribute FnAttr : K.getAttributes().getFnAttrs())
    WI->addFnAttr(FnAttr);
  WI->removeFnAttr(Attribute::NoInline);
  WI->removeFnAttr(Attribute::OptimizeNone);
  WI->addFnAttr(wi::KernelAttr, K.getName());
  // A required sub-group size (checked against the device's: KernelPipeline).
  if (MDNode *N = K.getMetadata("intel_reqd_sub_group_size"))
    if (auto *Size = mdconst::dyn_extract<ConstantInt>(N->getOperand(0)))
      wi::setSizeAttr(*WI, wi::SubGroupSizeAttr, Size->getZExtValue());
  wi::setSizeAttr(*WI, wi::NumArgsAttr, K.arg_size());
  SmallVector<std::pair<unsigned, MDNode *>, 8> MDs;
  WI->getAllMetadata(MDs);
  for (auto &[Kind, Node] : MDs)
    if (Kind != LLVMContext::MD_dbg)
      WI->setMetadata(Kind, nullptr);

  for (ReturnInst *R : Returns) {
    ReturnInst::Create(C, ConstantInt::get(I32, -1, true), R);
    R->eraseFromParent();
  }

  // byval parameters: copy into a private alloca at entry.
  IRBuilder<> B(&*WI->getEntryBlock().getFirstInsertionPt());
  const DataLayout &DL = M.getDataLayout();
  for (Argument &A : K.args()) {
    Type *ByValTy = K.getParamByValType(A.getArgNo());
    if (!ByValTy)
      continue;
    Argument *NA = WI->getArg(A.getArgNo());
    WI->addParamAttr(A.getArgNo(), Attribute::get(C, wi::ByValAttr));
    Align Al = K.getParamAlign(A.getArgNo()).valueOrOne();
    Al = std::max(Al, DL.getABITypeAlign(ByValTy));
    AllocaInst *Copy = B.CreateAlloca(ByValTy, DL.getAllocaAddrSpace(), nullptr, A.getName() + ".copy");
    Copy->setAlignment(Al);
    NA->replaceAllUsesWith(Copy);
    B.CreateMemCpy(Copy, Al, NA, Align(1), DL.getTypeAllocSize(ByValTy));
  }
  return WI;
}

} // namespace

PreservedAnalyses WorkItemFunctionPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<Function *, 8> Kernels;
  for (Function &F : M)
    if (isKernel(F))
      Kernels.push_back(&F);
  SmallVector<Function *, 8> WorkItemFns;
  for (Function *K : Kernels)
    WorkItemFns.push_back(createWorkItemFunction(*K));

  for (Function &F : M) {
    if (F.isDeclaration() || wi::isWorkItemFunction(F))
      continue;
    if (!F.hasLocalLinkage())
      F.setLinkage(GlobalValue::InternalLinkage);
    F.removeFnAttr(Attribute::NoInline);
    F.removeFnAttr(Attribute::OptimizeNone);
    F.addFnAttr(Attribute::AlwaysInline);
  }
  // A call site may say noinline too (SPIR-V's DontInline function control
  // marks both), which would keep the always-inliner away.
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (auto *Call = dyn_cast<CallBase>(&I))
          Call->removeFnAttr(Attribute::NoInline);
  return PreservedAnalyses::none();
}

} // namespace weft::compiler
