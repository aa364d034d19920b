// Kernel descriptions from clang's OpenCL metadata: kernel_arg_addr_space,
// kernel_arg_access_qual, kernel_arg_type, kernel_arg_type_qual,
// kernel_arg_name, and the kernel attributes reqd_work_group_size,
// work_group_size_hint and vec_type_hint; and whether the kernel's call
// tree reaches a sub-group function (the builtin library is linked by
// then, so calls through it count). The sizes the work-group passes
// compute (local, frame, private) are filled in later by KernelPipeline.
#include "compiler/frontend/KernelDescBuilder.h"
#include "compiler/workgroup/DeviceEnqueuePass.h"

#include "compiler/AddressSpace.h"
#include "compiler/OpenClNames.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

using namespace llvm;

namespace weft::compiler {

namespace {

std::string stringAt(const Function &K, const char *Kind, unsigned I) {
  MDNode *N = K.getMetadata(Kind);
  if (!N || I >= N->getNumOperands())
    return {};
  if (auto *S = dyn_cast_or_null<MDString>(N->getOperand(I).get()))
    return S->getString().str();
  return {};
}

uint64_t intAt(MDNode *N, unsigned I) {
  if (!N || I >= N->getNumOperands())
    return 0;
  if (auto *C = mdconst::dyn_extract_or_null<ConstantInt>(N->getOperand(I)))
    return C->getZExtValue();
  return 0;
}

std::string scalarName(Type *T, bool Signed) {
  if (T->isFloatTy())
    return "float";
  if (T->isDoubleTy())
    return "double";
  if (T->isHalfTy())
    return "half";
  std::string U = Signed ? "" : "u";
  switch (T->getIntegerBitWidth()) {
  case 8:
    return U + "char";
  case 16:
    return U + "short";
  case 32:
    return U + "int";
  default:
    return U + "long";
  }
}

std::string vecTypeHint(MDNode *N) {
  Type *T = cast<ValueAsMetadata>(N->getOperand(0))->getType();
  bool Signed = intAt(N, 1) != 0;
  if (auto *VT = dyn_cast<FixedVectorType>(T))
    return scalarName(VT->getElementType(), Signed) + std::to_string(VT->getNumElements());
  return scalarName(T, Signed);
}

/// Whether a function K calls, directly or through other functions, is a
/// sub-group function (OpenCL C has no function pointers: every call has a
/// known callee).
bool reachesSubGroupFunction(const Function &K) {
  SmallPtrSet<const Function *, 16> Seen;
  SmallVector<const Function *, 16> Work{&K};
  Seen.insert(&K);
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    for (const Instruction &I : instructions(F)) {
      const auto *Call = dyn_cast<CallBase>(&I);
      const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee)
        continue;
      if (isSubGroupName(Callee->getName()))
        return true;
      if (Seen.insert(Callee).second)
        Work.push_back(Callee);
    }
  }
  return false;
}

} // namespace

rt::KernelDesc KernelDescBuilder::describe(const Function &K, bool WithNames) {
  rt::KernelDesc D;
  D.Name = K.getName().str();
  const DataLayout &DL = K.getParent()->getDataLayout();
  MDNode *AddrSpaces = K.getMetadata("kernel_arg_addr_space");
  for (const Argument &A : K.args()) {
    unsigned I = A.getArgNo();
    rt::KernelArgDesc Arg;
    Arg.TypeName = stringAt(K, "kernel_arg_type", I);
    if (WithNames)
      Arg.Name = stringAt(K, "kernel_arg_name", I);
    std::string Access = stringAt(K, "kernel_arg_access_qual", I);
    Arg.AccessQualifier = Access == "read_only"    ? CL_KERNEL_ARG_ACCESS_READ_ONLY
                          : Access == "write_only" ? CL_KERNEL_ARG_ACCESS_WRITE_ONLY
                          : Access == "read_write" ? CL_KERNEL_ARG_ACCESS_READ_WRITE
                                                   : CL_KERNEL_ARG_ACCESS_NONE;
    std::string Qual = stringAt(K, "kernel_arg_type_qual", I);
    if (Qual.find("const") != std::string::npos)
      Arg.TypeQualifier |= CL_KERNEL_ARG_TYPE_CONST;
    if (Qual.find("restrict") != std::string::npos)
      Arg.TypeQualifier |= CL_KERNEL_ARG_TYPE_RESTRICT;
    if (Qual.find("volatile") != std::string::npos)
      Arg.TypeQualifier |= CL_KERNEL_ARG_TYPE_VOLATILE;
    if (Qual.find("pipe") != std::string::npos)
      Arg.TypeQualifier |= CL_KERNEL_ARG_TYPE_PIPE;

    uint64_t AS = intAt(AddrSpaces, I);
    // Classified by the type itself: the base type (typedefs resolved) is
    // exactly an image or sampler type name, and a pipe is a qualifier. A
    // pointer to `struct image_px` names an image only as a substring.
    std::string BaseType = stringAt(K, "kernel_arg_base_type", I);
    if (BaseType.empty())
      BaseType = Arg.TypeName;
    if (Arg.TypeQualifier & CL_KERNEL_ARG_TYPE_PIPE) {
      Arg.Kind = rt::ArgKind::Pipe;
      Arg.Size = sizeof(void *);
      Arg.AddressQualifier = CL_KERNEL_ARG_ADDRESS_GLOBAL;
    } else if (BaseType == "queue_t" || BaseType == "opencl.queue_t") {
      // LLVMSPIRVLib 15 names a SPIR-V kernel's queue_t argument by its IR
      // type, opencl.queue_t.
      Arg.TypeName = "queue_t";
      Arg.Kind = rt::ArgKind::DeviceQueue;
      Arg.Size = sizeof(void *);
    } else if (isSamplerTypeName(BaseType)) {
      Arg.Kind = rt::ArgKind::Sampler;
      Arg.Size = sizeof(void *);
    } else if (isImageTypeName(BaseType)) {
      Arg.Kind = rt::ArgKind::Image;
      Arg.ImageType = imageObjectType(BaseType);
      Arg.Size = sizeof(void *);
      Arg.AddressQualifier = CL_KERNEL_ARG_ADDRESS_GLOBAL;
    } else if (AS == addrspace::Global) {
      Arg.Kind = rt::ArgKind::GlobalPointer;
      Arg.Size = sizeof(void *);
      Arg.AddressQualifier = CL_KERNEL_ARG_ADDRESS_GLOBAL;
    } else if (AS == addrspace::Constant) {
      Arg.Kind = rt::ArgKind::ConstantPointer;
      Arg.Size = sizeof(void *);
      Arg.AddressQualifier = CL_KERNEL_ARG_ADDRESS_CONSTANT;
    } else if (AS == addrspace::Local) {
      Arg.Kind = rt::ArgKind::LocalPointer;
      Arg.Size = 0;
      Arg.AddressQualifier = CL_KERNEL_ARG_ADDRESS_LOCAL;
    } else {
      Arg.Kind = rt::ArgKind::ByValue;
      Type *T = K.getParamByValType(I);
      if (!T)
        T = A.getType();
      Arg.Size = DL.getTypeStoreSize(T);
      if (T->isVectorTy() || T->isStructTy() || T->isArrayTy())
        Arg.Size = DL.getTypeAllocSize(T);
    }
    D.Args.push_back(std::move(Arg));
  }

  std::string Attrs;
  auto append = [&](const std::string &S) { Attrs += (Attrs.empty() ? "" : " ") + S; };
  if (MDNode *N = K.getMetadata("reqd_work_group_size")) {
    for (unsigned I = 0; I < 3; ++I)
      D.ReqdWorkGroupSize[I] = intAt(N, I);
    append("reqd_work_group_size(" + std::to_string(D.ReqdWorkGroupSize[0]) + "," +
           std::to_string(D.ReqdWorkGroupSize[1]) + "," + std::to_string(D.ReqdWorkGroupSize[2]) + ")");
  }
  if (MDNode *N = K.getMetadata("work_group_size_hint")) {
    for (unsigned I = 0; I < 3; ++I)
      D.WorkGroupSizeHint[I] = intAt(N, I);
    append("work_group_size_hint(" + std::to_string(D.WorkGroupSizeHint[0]) + "," +
           std::to_string(D.WorkGroupSizeHint[1]) + "," + std::to_string(D.WorkGroupSizeHint[2]) + ")");
  }
  // Clang marks every OpenCL C 1.x kernel, and every kernel built with
  // -cl-uniform-work-group-size, "uniform-work-group-size"="true".
  D.UniformWorkGroupSize = K.getFnAttribute("uniform-work-group-size").getValueAsString() == "true";
  if (MDNode *N = K.getMetadata("vec_type_hint"))
    append("vec_type_hint(" + vecTypeHint(N) + ")");
  // intel_reqd_sub_group_size, or SPIR-V's SubgroupSize execution mode.
  if (MDNode *N = K.getMetadata("intel_reqd_sub_group_size")) {
    D.RequiredSubGroupSize = static_cast<uint32_t>(intAt(N, 0));
    append("intel_reqd_sub_group_size(" + std::to_string(D.RequiredSubGroupSize) + ")");
  }
  D.Attributes = Attrs;
  D.UsesSubGroups = reachesSubGroupFunction(K);
  D.Block = K.hasFnAttribute(DeviceEnqueuePass::BlockKernelAttr);
  return D;
}

} // namespace weft::compiler
