// Kernel objects: creation, arguments and queries.
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"
#include "runtime/memory/Pipe.h"
#include "runtime/platform/Capabilities.h"

#include <algorithm>
#include <cstring>

namespace weft::api {

namespace {

Result<Kernel *> makeKernel(Program &P, const KernelDesc &Desc) {
  auto Exe = P.executable();
  WEFT_CHECK(!Exe || !Exe->defines(Desc.Name), CL_INVALID_KERNEL_DEFINITION,
             "no code for kernel " + Desc.Name);
  return new Kernel(P, Desc, Exe);
}

Result<InfoValue> kernelInfo(Kernel &K, cl_kernel_info Param) {
  switch (Param) {
  case CL_KERNEL_FUNCTION_NAME:
    return InfoValue(K.name());
  case CL_KERNEL_NUM_ARGS:
    return InfoValue(K.numArgs());
  case CL_KERNEL_REFERENCE_COUNT:
    return InfoValue(cl_uint(K.appRefCount()));
  case CL_KERNEL_CONTEXT:
    return InfoValue(static_cast<cl_context>(&K.program().context()));
  case CL_KERNEL_PROGRAM:
    return InfoValue(static_cast<cl_program>(&K.program()));
  case CL_KERNEL_ATTRIBUTES:
    // The attributes of the OpenCL C source: none for a kernel from IL.
    return InfoValue(K.program().createdFromIL() ? std::string() : K.desc().Attributes);
  default:
    return makeError(CL_INVALID_VALUE, "unknown cl_kernel_info " + std::to_string(Param));
  }
}

Result<InfoValue> workGroupInfo(Kernel &K, Device &D, cl_kernel_work_group_info Param) {
  const KernelDesc &Desc = K.desc();
  switch (Param) {
  case CL_KERNEL_WORK_GROUP_SIZE:
    return InfoValue(K.maxWorkGroupSize(D.props()));
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
    return InfoValue(Desc.ReqdWorkGroupSize);
  case CL_KERNEL_LOCAL_MEM_SIZE:
    return InfoValue(cl_ulong(K.localMemSize()));
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return InfoValue(size_t(D.props().VectorWidths[4]));
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    return InfoValue(cl_ulong(Desc.PrivateMemSize));
  // cl_intel_required_subgroup_size: what a work-item keeps in memory
  // rather than registers, the values that live across its barriers (its
  // frame); 0 for a kernel without.
  case CL_KERNEL_SPILL_MEM_SIZE_INTEL:
    return InfoValue(cl_ulong(Desc.PrivateFrameSize));
  case CL_KERNEL_GLOBAL_WORK_SIZE:
    return makeError(CL_INVALID_VALUE,
                     "CL_KERNEL_GLOBAL_WORK_SIZE is for custom devices and built-in kernels");
  default:
    return makeError(CL_INVALID_VALUE, "unknown cl_kernel_work_group_info");
  }
}

/// The device a per-device kernel query is about: Dev, which must be one
/// of the kernel's context, or the context's only device if Dev is NULL.
Result<Device *> queryDevice(Kernel &K, cl_device_id Dev) {
  const auto &Devices = K.program().context().devices();
  if (!Dev) {
    WEFT_CHECK(Devices.size() != 1, CL_INVALID_DEVICE,
               "device is NULL but the kernel has several devices");
    return Devices[0];
  }
  Device *D = fromHandle<Device>(Dev);
  WEFT_CHECK(!D || !K.program().context().hasDevice(D), CL_INVALID_DEVICE,
             "device is not associated with the kernel");
  return D;
}

/// A local work size given as input_value: one size_t per dimension, one
/// to three dimensions.
Result<std::vector<size_t>> localSizeInput(size_t InSize, const void *In) {
  WEFT_CHECK(!In, CL_INVALID_VALUE, "input_value is NULL");
  WEFT_CHECK(InSize == 0 || InSize % sizeof(size_t) || InSize > 3 * sizeof(size_t),
             CL_INVALID_VALUE, "input_value_size is not 1, 2 or 3 times sizeof(size_t)");
  std::vector<size_t> Local(InSize / sizeof(size_t));
  std::memcpy(Local.data(), In, InSize);
  return Local;
}

/// clGetKernelSubGroupInfo. A group of n work-items is ceil(n / S)
/// sub-groups of the kernel's sub-group size S (KernelDesc::SubGroupSize),
/// the last one perhaps smaller.
Result<InfoValue> subGroupInfo(Kernel &K, Device &D, cl_kernel_sub_group_info Param, size_t InSize,
                               const void *In, size_t Size, void *Value) {
  const size_t Width = K.desc().SubGroupSize;
  const size_t Max = K.maxWorkGroupSize(D.props());
  switch (Param) {
  case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
  case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
    WEFT_TRY(Local, localSizeInput(InSize, In));
    size_t Items = 1;
    for (size_t L : Local)
      Items *= L;
    if (Param == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE)
      return InfoValue(std::min(Items, Width));
    return InfoValue((Items + Width - 1) / Width);
  }
  case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
    WEFT_CHECK(!In, CL_INVALID_VALUE, "input_value is NULL");
    WEFT_CHECK(InSize != sizeof(size_t), CL_INVALID_VALUE,
               "input_value_size is not sizeof(size_t)");
    size_t Count;
    std::memcpy(&Count, In, sizeof(Count));
    // The result has as many dimensions (one to three) as param_value_size
    // holds size_t values; a size query without a buffer gets three.
    size_t Dims = Value ? std::clamp<size_t>(Size / sizeof(size_t), 1, 3) : 3;
    // A one-dimensional group of Count whole sub-groups, if the kernel can
    // run it (its required size, if it has one, must be that group).
    std::vector<size_t> Local(Dims, 1);
    const std::array<size_t, 3> &Reqd = K.desc().ReqdWorkGroupSize;
    Local[0] = Count != 0 && Count <= Max / Width ? Count * Width : 0;
    if (Reqd[0] && (Reqd[0] != Local[0] || Reqd[1] != 1 || Reqd[2] != 1))
      Local[0] = 0;
    if (Local[0] == 0)
      std::fill(Local.begin(), Local.end(), 0);
    return InfoValue(Local);
  }
  case CL_KERNEL_MAX_NUM_SUB_GROUPS:
    return InfoValue((Max + Width - 1) / Width);
  case CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL:
    return InfoValue(size_t(K.desc().RequiredSubGroupSize));
  case CL_KERNEL_COMPILE_NUM_SUB_GROUPS:
    // OpenCL C has no attribute for a sub-group count, and Weft does not
    // read SPIR-V's SubgroupsPerWorkgroup execution mode.
    return InfoValue(size_t(0));
  default:
    return makeError(CL_INVALID_VALUE, "unknown cl_kernel_sub_group_info");
  }
}

Result<InfoValue> argInfo(Kernel &K, cl_uint Index, cl_kernel_arg_info Param) {
  WEFT_CHECK(Index >= K.numArgs(), CL_INVALID_ARG_INDEX, "arg_index is out of range");
  // Argument information comes from OpenCL C source only.
  WEFT_CHECK(K.program().createdFromIL(), CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
             "a kernel of a program created from IL has no argument information");
  const KernelArgDesc &A = K.desc().Args[Index];
  switch (Param) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
    return InfoValue(cl_kernel_arg_address_qualifier(A.AddressQualifier));
  case CL_KERNEL_ARG_ACCESS_QUALIFIER:
    return InfoValue(cl_kernel_arg_access_qualifier(A.AccessQualifier));
  case CL_KERNEL_ARG_TYPE_NAME:
    return InfoValue(A.TypeName);
  case CL_KERNEL_ARG_TYPE_QUALIFIER:
    return InfoValue(cl_kernel_arg_type_qualifier(A.TypeQualifier));
  case CL_KERNEL_ARG_NAME:
    WEFT_CHECK(A.Name.empty(), CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
               "argument names need the -cl-kernel-arg-info build option");
    return InfoValue(A.Name);
  default:
    return makeError(CL_INVALID_VALUE, "unknown cl_kernel_arg_info");
  }
}

/// The memory object a cl_mem argument value names, as kind T, or null for
/// a NULL handle. WrongKind is the error for a memory object of another kind.
template <typename T>
Result<T *> memArg(const Kernel &K, size_t Size, const void *Value, cl_int WrongKind,
                   const char *Kind) {
  WEFT_CHECK(Size != sizeof(cl_mem), CL_INVALID_ARG_SIZE,
             std::string("a ") + Kind + " argument takes sizeof(cl_mem)");
  cl_mem Handle = Value ? *static_cast<const cl_mem *>(Value) : nullptr;
  if (!Handle)
    return nullptr;
  MemObject *Mem = fromHandle<MemObject>(Handle);
  WEFT_CHECK(!Mem, CL_INVALID_MEM_OBJECT, "arg_value is not a valid memory object");
  T *Typed = Mem->as<T>();
  WEFT_CHECK(!Typed, WrongKind, std::string("arg_value is not a ") + Kind);
  WEFT_CHECK(&Mem->context() != &K.program().context(), CL_INVALID_MEM_OBJECT,
             "the memory object belongs to another context");
  return Typed;
}

/// clSetKernelArg's (arg_size, arg_value) as the typed value argument A
/// takes, with the error the specification names for each way it can be
/// wrong.
Result<KernelArgValue> decodeArg(const Kernel &K, const KernelArgDesc &A, size_t Size,
                                 const void *Value) {
  switch (A.Kind) {
  case ArgKind::LocalPointer:
    WEFT_CHECK(Value, CL_INVALID_ARG_VALUE, "a __local argument takes a NULL arg_value");
    // OpenCL 3.1 allows a size of 0 (a kernel that leaves the argument
    // alone); before, it was an error.
    WEFT_CHECK(Size == 0 && OpenCLVersion < CL_MAKE_VERSION(3, 1, 0), CL_INVALID_ARG_SIZE,
               "a __local argument needs a size > 0 before OpenCL 3.1");
    return KernelArgValue(ArgLocalSize{Size});
  case ArgKind::GlobalPointer:
  case ArgKind::ConstantPointer: {
    // "If the argument is a buffer object, the arg_value pointer can be NULL
    // or point to a NULL value": a NULL pointer argument.
    WEFT_TRY(B, memArg<Buffer>(K, Size, Value, CL_INVALID_MEM_OBJECT, "buffer"));
    return KernelArgValue(ArgBuffer{B ? B->weak() : WeakRef<MemObject>()});
  }
  case ArgKind::ByValue:
    WEFT_CHECK(!Value, CL_INVALID_ARG_VALUE, "a by-value argument needs arg_value");
    WEFT_CHECK(Size != A.Size, CL_INVALID_ARG_SIZE,
               "the argument (" + A.TypeName + ") takes " + std::to_string(A.Size) +
                   " bytes, not " + std::to_string(Size));
    return KernelArgValue(ArgBytes{std::vector<unsigned char>(
        static_cast<const unsigned char *>(Value), static_cast<const unsigned char *>(Value) + Size)});
  case ArgKind::Pipe: {
    // "CL_INVALID_MEM_OBJECT if arg_value is NULL and it must point to a
    // valid memory object, [or] points to NULL", or to another kind
    // (memArg: NULL either way).
    WEFT_TRY(P, memArg<Pipe>(K, Size, Value, CL_INVALID_MEM_OBJECT, "pipe"));
    WEFT_CHECK(!P, CL_INVALID_MEM_OBJECT, "a pipe argument needs a pipe, not NULL");
    return KernelArgValue(ArgPipe{P->weak()});
  }
  case ArgKind::Image: {
    WEFT_TRY(I, memArg<Image>(K, Size, Value, CL_INVALID_MEM_OBJECT, "image"));
    WEFT_CHECK(!I, CL_INVALID_MEM_OBJECT, "an image argument needs an image, not NULL");
    // "CL_INVALID_MEM_OBJECT if arg_value points to a valid memory object,
    // but the memory object is not valid for the kernel argument": an
    // image of another type than the argument's.
    WEFT_CHECK(I->type() != A.ImageType, CL_INVALID_MEM_OBJECT,
               "the image's type is not the argument's (" + A.TypeName + ")");
    // "CL_INVALID_ARG_VALUE if the argument is an image declared with the
    // read_only qualifier and arg_value refers to an image object created
    // with cl_mem_flags of CL_MEM_WRITE_ONLY or if the image argument is
    // declared with the write_only qualifier and arg_value refers to an
    // image object created with cl_mem_flags of CL_MEM_READ_ONLY."
    WEFT_CHECK(A.AccessQualifier == CL_KERNEL_ARG_ACCESS_READ_ONLY &&
                   (I->flags() & CL_MEM_WRITE_ONLY),
               CL_INVALID_ARG_VALUE, "a read_only image argument given a CL_MEM_WRITE_ONLY image");
    WEFT_CHECK(A.AccessQualifier == CL_KERNEL_ARG_ACCESS_WRITE_ONLY &&
                   (I->flags() & CL_MEM_READ_ONLY),
               CL_INVALID_ARG_VALUE, "a write_only image argument given a CL_MEM_READ_ONLY image");
    return KernelArgValue(ArgImage{I->weak()});
  }
  case ArgKind::DeviceQueue: {
    // "CL_INVALID_DEVICE_QUEUE for an argument declared to be of type
    // queue_t when the specified arg_value is not a valid device queue
    // object."
    WEFT_CHECK(Size != sizeof(cl_command_queue), CL_INVALID_ARG_SIZE,
               "a queue_t argument takes sizeof(cl_command_queue)");
    WEFT_CHECK(!Value, CL_INVALID_DEVICE_QUEUE, "a queue_t argument needs arg_value");
    const CommandQueue *Q = fromHandle<CommandQueue>(*static_cast<const cl_command_queue *>(Value));
    WEFT_CHECK(!Q || !Q->onDevice(), CL_INVALID_DEVICE_QUEUE, "arg_value is not a device queue");
    WEFT_CHECK(&Q->context() != &K.program().context(), CL_INVALID_DEVICE_QUEUE,
               "the device queue belongs to another context");
    return KernelArgValue(
        ArgBytes{std::vector<unsigned char>(static_cast<const unsigned char *>(Value),
                                            static_cast<const unsigned char *>(Value) + Size)});
  }
  case ArgKind::Sampler: {
    WEFT_CHECK(Size != sizeof(cl_sampler), CL_INVALID_ARG_SIZE,
               "a sampler argument takes sizeof(cl_sampler)");
    WEFT_CHECK(!Value, CL_INVALID_SAMPLER, "a sampler argument needs arg_value");
    const Sampler *Smp = fromHandle<Sampler>(*static_cast<const cl_sampler *>(Value));
    WEFT_CHECK(!Smp, CL_INVALID_SAMPLER, "arg_value is not a sampler object");
    WEFT_CHECK(&Smp->context() != &K.program().context(), CL_INVALID_SAMPLER,
               "the sampler belongs to another context");
    return KernelArgValue(ArgSampler{Smp->bits()});
  }
  }
  return makeError(CL_INVALID_ARG_VALUE, "unknown argument kind");
}

} // namespace

cl_kernel CL_API_CALL clCreateKernel(cl_program P, const char *Name, cl_int *ErrcodeRet) {
  return create<cl_kernel>(ErrcodeRet, [&]() -> Result<cl_kernel> {
    WEFT_TRY(Prog, get<Program>(P));
    WEFT_CHECK(!Prog->isBuilt(), CL_INVALID_PROGRAM_EXECUTABLE,
               "the program has no successfully built executable");
    WEFT_CHECK(!Name, CL_INVALID_VALUE, "kernel_name is NULL");
    for (const KernelDesc &D : Prog->kernels()) {
      if (D.Name != Name)
        continue;
      WEFT_TRY(K, makeKernel(*Prog, D));
      return static_cast<cl_kernel>(K);
    }
    return makeError(CL_INVALID_KERNEL_NAME, std::string("no kernel named ") + Name);
  });
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program P, cl_uint NumKernels, cl_kernel *Kernels,
                                            cl_uint *NumKernelsRet) {
  return entry([&]() -> Status {
    WEFT_TRY(Prog, get<Program>(P));
    WEFT_CHECK(!Prog->isBuilt(), CL_INVALID_PROGRAM_EXECUTABLE,
               "the program has no successfully built executable");
    auto Descs = Prog->kernels();
    WEFT_CHECK(Kernels && NumKernels < Descs.size(), CL_INVALID_VALUE,
               "num_kernels is less than the number of kernels");
    if (Kernels) {
      std::vector<Kernel *> Made;
      for (const KernelDesc &D : Descs) {
        auto K = makeKernel(*Prog, D);
        if (!K) {
          for (Kernel *M : Made)
            M->release();
          return K.error();
        }
        Made.push_back(*K);
      }
      for (size_t I = 0; I < Made.size(); ++I)
        Kernels[I] = Made[I];
      // Every kernel asked for: compiled now, at once, rather than one
      // after another at their first launches.
      if (auto Exe = Prog->executable()) {
        std::vector<std::string> Names;
        for (const KernelDesc &D : Descs)
          Names.push_back(D.Name);
        Exe->compileAhead(Names);
      }
    }
    if (NumKernelsRet)
      *NumKernelsRet = cl_uint(Descs.size());
    return {};
  });
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel Source, cl_int *ErrcodeRet) {
  return create<cl_kernel>(ErrcodeRet, [&]() -> Result<cl_kernel> {
    WEFT_TRY(K, get<Kernel>(Source));
    return static_cast<cl_kernel>(K->clone().release());
  });
}

cl_int CL_API_CALL clRetainKernel(cl_kernel K) {
  return entry([&]() -> Status {
    WEFT_TRY(Kern, get<Kernel>(K));
    Kern->retain();
    return {};
  });
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel K) {
  return entry([&]() -> Status {
    WEFT_TRY(Kern, get<Kernel>(K));
    WEFT_CHECK(!Kern->release(), CL_INVALID_KERNEL, "kernel already released");
    return {};
  });
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel K, cl_uint Index, size_t Size, const void *Value) {
  return entry([&]() -> Status {
    WEFT_TRY(Kern, get<Kernel>(K));
    WEFT_CHECK(Index >= Kern->numArgs(), CL_INVALID_ARG_INDEX, "arg_index is out of range");
    WEFT_TRY(V, decodeArg(*Kern, Kern->arg(Index), Size, Value));
    return Kern->setArg(Index, std::move(V));
  });
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel K, cl_kernel_info Param, size_t Size, void *Value,
                                   size_t *SizeRet) {
  return entry([&]() -> Status {
    WEFT_TRY(Kern, get<Kernel>(K));
    WEFT_TRY(Info, kernelInfo(*Kern, Param));
    return Info.write(Size, Value, SizeRet);
  });
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel K, cl_device_id Dev,
                                            cl_kernel_work_group_info Param, size_t Size,
                                            void *Value, size_t *SizeRet) {
  return entry([&]() -> Status {
    WEFT_TRY(Kern, get<Kernel>(K));
    WEFT_TRY(D, queryDevice(*Kern, Dev));
    WEFT_TRY(Info, workGroupInfo(*Kern, *D, Param));
    return Info.write(Size, Value, SizeRet);
  });
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel K, cl_uint Index, cl_kernel_arg_info Param,
                                      size_t Size, void *Value, size_t *SizeRet) {
  return entry([&]() -> Status {
    WEFT_TRY(Kern, get<Kernel>(K));
    WEFT_TRY(Info, argInfo(*Kern, Index, Param));
    return Info.write(Size, Value, SizeRet);
  });
}

cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel K, cl_device_id Dev,
                                           cl_kernel_sub_group_info Param, size_t InSize,
                                           const void *In, size_t Size, void *Value,
                                           size_t *SizeRet) {
  return entry([&]() -> Status {
    WEFT_TRY(Kern, get<Kernel>(K));
    WEFT_TRY(D, queryDevice(*Kern, Dev));
    WEFT_TRY(Info, subGroupInfo(*Kern, *D, Param, InSize, In, Size, Value));
    return Info.write(Size, Value, SizeRet);
  });
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel K, cl_uint Index, const void *Value) {
  return entry([&]() -> Status {
    WEFT_TRY(Kern, get<Kernel>(K));
    // "CL_INVALID_OPERATION if no devices in the context associated with
    // kernel support SVM."
    WEFT_CHECK(SvmCapabilities == 0, CL_INVALID_OPERATION, "the device does not support SVM");
    WEFT_CHECK(Index >= Kern->numArgs(), CL_INVALID_ARG_INDEX, "arg_index is out of range");
    // A pointer argument takes it (Kernel::setArg: CL_INVALID_ARG_VALUE
    // for any other).
    return Kern->setArg(Index, ArgSvmPointer{const_cast<void *>(Value)});
  });
}

// Host and device share one address space, so no SVM pointer, named or not,
// needs any preparation before a kernel reads it: once checked, neither
// setting changes what the kernel can reach, and there is nothing to record.
cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel K, cl_kernel_exec_info Param, size_t Size,
                                       const void *Value) {
  return entry([&]() -> Status {
    WEFT_VALID(Kernel, K);
    switch (Param) {
    case CL_KERNEL_EXEC_INFO_SVM_PTRS:
      // "CL_INVALID_OPERATION if param_name is CL_KERNEL_EXEC_INFO_SVM_PTRS
      // and no devices in the context associated with kernel support SVM."
      WEFT_CHECK(SvmCapabilities == 0, CL_INVALID_OPERATION, "the device does not support SVM");
      // An empty set is param_value_size 0 and param_value NULL.
      WEFT_CHECK(!Value && Size > 0, CL_INVALID_VALUE, "param_value is NULL");
      WEFT_CHECK(Size % sizeof(void *), CL_INVALID_VALUE,
                 "param_value_size is not a multiple of sizeof(void *)");
      return {};
    case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM: {
      WEFT_CHECK(!Value, CL_INVALID_VALUE, "param_value is NULL");
      WEFT_CHECK(Size != sizeof(cl_bool), CL_INVALID_VALUE,
                 "param_value_size is not sizeof(cl_bool)");
      cl_bool On;
      std::memcpy(&On, Value, sizeof(On));
      WEFT_CHECK(On && !(SvmCapabilities & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM), CL_INVALID_OPERATION,
                 "the device does not support fine-grained system SVM");
      return {};
    }
    default:
      return makeError(CL_INVALID_VALUE, "unknown cl_kernel_exec_info");
    }
  });
}

} // namespace weft::api
