// Kernel objects: creation, arguments and queries.
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"

namespace weft::api {

namespace {

Result<Kernel *> makeKernel(Program &P, const KernelDesc &Desc) {
  auto Exe = P.executable();
  WorkGroupFn Fn = Exe ? Exe->lookup(Desc.Name) : nullptr;
  WEFT_CHECK(!Fn, CL_INVALID_KERNEL_DEFINITION, "no code for kernel " + Desc.Name);
  return new Kernel(P, Desc, Exe, Fn);
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
    return InfoValue(K.desc().Attributes);
  default:
    return makeError(CL_INVALID_VALUE, "unknown cl_kernel_info " + std::to_string(Param));
  }
}

Result<InfoValue> workGroupInfo(Kernel &K, Device &D, cl_kernel_work_group_info Param) {
  const KernelDesc &Desc = K.desc();
  switch (Param) {
  case CL_KERNEL_WORK_GROUP_SIZE: {
    size_t Max = D.props().MaxWorkGroupSize;
    if (Desc.ReqdWorkGroupSize[0])
      Max = Desc.ReqdWorkGroupSize[0] * Desc.ReqdWorkGroupSize[1] * Desc.ReqdWorkGroupSize[2];
    return InfoValue(Max);
  }
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
    return InfoValue(Desc.ReqdWorkGroupSize);
  case CL_KERNEL_LOCAL_MEM_SIZE:
    return InfoValue(cl_ulong(K.localMemSize()));
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
    return InfoValue(size_t(D.props().VectorWidths[4]));
  case CL_KERNEL_PRIVATE_MEM_SIZE:
    return InfoValue(cl_ulong(Desc.PrivateMemSize));
  case CL_KERNEL_GLOBAL_WORK_SIZE:
    return makeError(CL_INVALID_VALUE,
                     "CL_KERNEL_GLOBAL_WORK_SIZE is for custom devices and built-in kernels");
  default:
    return makeError(CL_INVALID_VALUE, "unknown cl_kernel_work_group_info");
  }
}

Result<InfoValue> argInfo(Kernel &K, cl_uint Index, cl_kernel_arg_info Param) {
  WEFT_CHECK(Index >= K.numArgs(), CL_INVALID_ARG_INDEX, "arg_index is out of range");
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
    MemObject *Mem = nullptr;
    ArgKind Kind = Kern->argKind(Index);
    if ((Kind == ArgKind::GlobalPointer || Kind == ArgKind::ConstantPointer) && Value &&
        Size == sizeof(cl_mem)) {
      cl_mem Handle = *static_cast<const cl_mem *>(Value);
      if (Handle) {
        Mem = fromHandle<MemObject>(Handle);
        WEFT_CHECK(!Mem, CL_INVALID_MEM_OBJECT, "arg_value is not a valid memory object");
      }
    }
    return Kern->setArg(Index, Size, Value, Mem);
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
    Device *D = nullptr;
    const auto &Devices = Kern->program().context().devices();
    if (Dev) {
      D = fromHandle<Device>(Dev);
      WEFT_CHECK(!D || !Kern->program().context().hasDevice(D), CL_INVALID_DEVICE,
                 "device is not associated with the kernel");
    } else {
      WEFT_CHECK(Devices.size() != 1, CL_INVALID_DEVICE,
                 "device is NULL but the kernel has several devices");
      D = Devices[0];
    }
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
    WEFT_VALID(Kernel, K);
    return makeError(CL_INVALID_OPERATION, "the device does not support sub-groups");
  });
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel K, cl_uint Index, const void *Value) {
  return entry([&]() -> Status {
    WEFT_VALID(Kernel, K);
    return makeError(CL_INVALID_OPERATION, "the device does not support SVM");
  });
}

cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel K, cl_kernel_exec_info Param, size_t Size,
                                       const void *Value) {
  return entry([&]() -> Status {
    WEFT_VALID(Kernel, K);
    WEFT_CHECK(Param != CL_KERNEL_EXEC_INFO_SVM_PTRS &&
                   Param != CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
               CL_INVALID_VALUE, "unknown cl_kernel_exec_info");
    return makeError(CL_INVALID_OPERATION, "the device does not support SVM");
  });
}

} // namespace weft::api
