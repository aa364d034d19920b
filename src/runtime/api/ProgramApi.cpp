// Program creation from source and binary, building, separate compilation
// and linking, and queries.
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"

namespace weft::api {

namespace {

using BuildNotifyFn = void(CL_CALLBACK *)(cl_program, void *);

/// Checks an optional (num_devices, device_list) pair against a context.
Status checkDeviceList(Context &Ctx, cl_uint NumDevices, const cl_device_id *Devices) {
  WEFT_CHECK((Devices == nullptr) != (NumDevices == 0), CL_INVALID_VALUE,
             "device_list and num_devices disagree");
  for (cl_uint I = 0; I < NumDevices; ++I) {
    Device *D = fromHandle<Device>(Devices[I]);
    WEFT_CHECK(!D || !Ctx.hasDevice(D), CL_INVALID_DEVICE,
               "device_list holds a device that is not in the context");
  }
  return {};
}

/// A non-empty device list naming devices of Ctx (create from binary or
/// built-in kernels).
Status checkContextDevices(Context &Ctx, cl_uint NumDevices, const cl_device_id *Devices) {
  WEFT_CHECK(!Devices || NumDevices == 0, CL_INVALID_VALUE, "no devices given");
  for (cl_uint I = 0; I < NumDevices; ++I) {
    Device *D = fromHandle<Device>(Devices[I]);
    WEFT_CHECK(!D || !Ctx.hasDevice(D), CL_INVALID_DEVICE,
               "device_list holds a device that is not in the context");
  }
  return {};
}

Result<InfoValue> programInfo(Program &P, cl_program_info Param) {
  const auto &Devices = P.context().devices();
  switch (Param) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return InfoValue(cl_uint(P.appRefCount()));
  case CL_PROGRAM_CONTEXT:
    return InfoValue(static_cast<cl_context>(&P.context()));
  case CL_PROGRAM_NUM_DEVICES:
    return InfoValue(cl_uint(Devices.size()));
  case CL_PROGRAM_DEVICES:
    return InfoValue(std::vector<cl_device_id>(Devices.begin(), Devices.end()));
  case CL_PROGRAM_SOURCE:
    return InfoValue(P.createdFromBinary() ? std::string() : P.source());
  case CL_PROGRAM_IL:
    return InfoValue(P.il());
  case CL_PROGRAM_BINARY_SIZES: {
    size_t Size = P.binaryType() != CL_PROGRAM_BINARY_TYPE_NONE ? P.serializeBinary().size() : 0;
    return InfoValue(std::vector<size_t>(Devices.size(), Size));
  }
  case CL_PROGRAM_NUM_KERNELS:
  case CL_PROGRAM_KERNEL_NAMES: {
    WEFT_CHECK(!P.isBuilt(), CL_INVALID_PROGRAM_EXECUTABLE, "the program is not an executable");
    auto Kernels = P.kernels();
    if (Param == CL_PROGRAM_NUM_KERNELS)
      return InfoValue(Kernels.size());
    std::string Names;
    for (const auto &K : Kernels)
      Names += (Names.empty() ? "" : ";") + K.Name;
    return InfoValue(Names);
  }
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
    return InfoValue(cl_bool(CL_FALSE));
  default:
    return makeError(CL_INVALID_VALUE, "unknown cl_program_info " + std::to_string(Param));
  }
}

} // namespace

cl_program CL_API_CALL clCreateProgramWithSource(cl_context C, cl_uint Count,
                                                 const char **Strings, const size_t *Lengths,
                                                 cl_int *ErrcodeRet) {
  return create<cl_program>(ErrcodeRet, [&]() -> Result<cl_program> {
    WEFT_TRY(Ctx, get<Context>(C));
    WEFT_CHECK(Count == 0 || !Strings, CL_INVALID_VALUE, "no source strings");
    std::string Source;
    for (cl_uint I = 0; I < Count; ++I) {
      WEFT_CHECK(!Strings[I], CL_INVALID_VALUE, "a source string is NULL");
      if (Lengths && Lengths[I])
        Source.append(Strings[I], Lengths[I]);
      else
        Source.append(Strings[I]);
    }
    return static_cast<cl_program>(new Program(*Ctx, std::move(Source)));
  });
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context C, cl_uint NumDevices,
                                                 const cl_device_id *Devices,
                                                 const size_t *Lengths,
                                                 const unsigned char **Binaries,
                                                 cl_int *BinaryStatus, cl_int *ErrcodeRet) {
  return create<cl_program>(ErrcodeRet, [&]() -> Result<cl_program> {
    WEFT_TRY(Ctx, get<Context>(C));
    if (auto S = checkContextDevices(*Ctx, NumDevices, Devices); !S)
      return S.error();
    WEFT_CHECK(!Lengths || !Binaries, CL_INVALID_VALUE, "lengths or binaries is NULL");
    for (cl_uint I = 0; I < NumDevices; ++I) {
      bool Bad = !Binaries[I] || Lengths[I] == 0;
      if (BinaryStatus)
        BinaryStatus[I] = Bad ? CL_INVALID_VALUE : CL_SUCCESS;
      WEFT_CHECK(Bad, CL_INVALID_VALUE, "a binary is NULL or has length 0");
    }
    // One device per context today, so one binary makes the program.
    Ref<Program> Prog;
    for (cl_uint I = 0; I < NumDevices; ++I) {
      auto P = Program::fromBinary(*Ctx, Binaries[I], Lengths[I]);
      if (BinaryStatus)
        BinaryStatus[I] = P ? CL_SUCCESS : CL_INVALID_BINARY;
      if (!P)
        return P.error();
      if (!Prog)
        Prog = *P;
    }
    return static_cast<cl_program>(Prog.release());
  });
}

cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context C, cl_uint NumDevices,
                                                         const cl_device_id *Devices,
                                                         const char *KernelNames,
                                                         cl_int *ErrcodeRet) {
  return create<cl_program>(ErrcodeRet, [&]() -> Result<cl_program> {
    WEFT_TRY(Ctx, get<Context>(C));
    if (auto S = checkContextDevices(*Ctx, NumDevices, Devices); !S)
      return S.error();
    WEFT_CHECK(!KernelNames, CL_INVALID_VALUE, "kernel_names is NULL");
    // CL_DEVICE_BUILT_IN_KERNELS is empty: every name is unknown.
    return makeError(CL_INVALID_VALUE, "the device has no built-in kernels");
  });
}

cl_program CL_API_CALL clCreateProgramWithIL(cl_context C, const void *IL, size_t Length,
                                             cl_int *ErrcodeRet) {
  return create<cl_program>(ErrcodeRet, [&]() -> Result<cl_program> {
    WEFT_TRY(Ctx, get<Context>(C));
    WEFT_CHECK(!IL || Length == 0, CL_INVALID_VALUE, "il is NULL or length is 0");
    // Malformed SPIR-V, or a version the device does not list in
    // CL_DEVICE_IL_VERSION, is CL_INVALID_VALUE with the validator's reason.
    WEFT_TRY(Prog, Program::fromIL(*Ctx, static_cast<const unsigned char *>(IL), Length));
    return static_cast<cl_program>(Prog.release());
  });
}

cl_int CL_API_CALL clRetainProgram(cl_program P) {
  return entry([&]() -> Status {
    WEFT_TRY(Prog, get<Program>(P));
    Prog->retain();
    return {};
  });
}

cl_int CL_API_CALL clReleaseProgram(cl_program P) {
  return entry([&]() -> Status {
    WEFT_TRY(Prog, get<Program>(P));
    WEFT_CHECK(!Prog->release(), CL_INVALID_PROGRAM, "program already released");
    return {};
  });
}

cl_int CL_API_CALL clBuildProgram(cl_program P, cl_uint NumDevices, const cl_device_id *Devices,
                                  const char *Options, BuildNotifyFn Notify, void *UserData) {
  return entry([&]() -> Status {
    WEFT_TRY(Prog, get<Program>(P));
    if (auto S = checkDeviceList(Prog->context(), NumDevices, Devices); !S)
      return S.error();
    WEFT_CHECK(!Notify && UserData, CL_INVALID_VALUE, "user_data without pfn_notify");
    // "CL_INVALID_OPERATION if program was not created with
    // clCreateProgramWithSource, clCreateProgramWithIL or
    // clCreateProgramWithBinary."
    WEFT_CHECK(!Prog->createdFromSource() && !Prog->createdFromBinary() && !Prog->createdFromIL(),
               CL_INVALID_OPERATION, "the program was made by clLinkProgram");
    std::string Opts = Options ? Options : "";
    if (!Options && Prog->createdFromBinary())
      Opts = Prog->buildOptions();
    // The build runs now; pfn_notify, if given, is told when it is done.
    Status S = Prog->build(Opts);
    if (Notify)
      Notify(P, UserData);
    if (!S)
      report(S.error(), &Prog->context());
    return S;
  });
}

cl_int CL_API_CALL clCompileProgram(cl_program P, cl_uint NumDevices, const cl_device_id *Devices,
                                    const char *Options, cl_uint NumHeaders,
                                    const cl_program *Headers, const char **HeaderNames,
                                    BuildNotifyFn Notify, void *UserData) {
  return entry([&]() -> Status {
    WEFT_TRY(Prog, get<Program>(P));
    if (auto S = checkDeviceList(Prog->context(), NumDevices, Devices); !S)
      return S.error();
    // "CL_INVALID_VALUE if num_input_headers is zero and header_include_names
    // or input_headers are not NULL or if num_input_headers is not zero and
    // header_include_names or input_headers are NULL."
    WEFT_CHECK(NumHeaders == 0 && (Headers || HeaderNames), CL_INVALID_VALUE,
               "input_headers or header_include_names without num_input_headers");
    WEFT_CHECK(NumHeaders != 0 && (!Headers || !HeaderNames), CL_INVALID_VALUE,
               "num_input_headers without input_headers or header_include_names");
    std::vector<EmbeddedHeader> Embedded;
    for (cl_uint I = 0; I < NumHeaders; ++I) {
      WEFT_TRY(Header, get<Program>(Headers[I]));
      WEFT_CHECK(!HeaderNames[I] || !*HeaderNames[I], CL_INVALID_VALUE,
                 "a header_include_names entry is NULL or empty");
      Embedded.push_back({HeaderNames[I], Header->source()});
    }
    // "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
    WEFT_CHECK(!Notify && UserData, CL_INVALID_VALUE, "user_data without pfn_notify");
    // "CL_INVALID_OPERATION if program has no source or IL available, i.e. it
    // has not been created with clCreateProgramWithSource or
    // clCreateProgramWithIL."
    WEFT_CHECK(!Prog->createdFromSource() && !Prog->createdFromIL(), CL_INVALID_OPERATION,
               "the program was not created from source or IL");
    // The compile runs now; pfn_notify, if given, is told when it is done.
    // Attached kernels, a build in progress (CL_INVALID_OPERATION), bad
    // options (CL_INVALID_COMPILER_OPTIONS) and compile errors
    // (CL_COMPILE_PROGRAM_FAILURE) come from Program::compile.
    Status S = Prog->compile(Options ? Options : "", Embedded);
    if (Notify)
      Notify(P, UserData);
    return S;
  });
}

cl_program CL_API_CALL clLinkProgram(cl_context C, cl_uint NumDevices, const cl_device_id *Devices,
                                     const char *Options, cl_uint NumPrograms,
                                     const cl_program *Programs, BuildNotifyFn Notify,
                                     void *UserData, cl_int *ErrcodeRet) {
  // Unlike other create functions, a failed link still returns its program
  // (the spec lets the application query its log), so the handle is kept
  // outside the body and entry() gives the code.
  cl_program Linked = nullptr;
  cl_int Code = entry([&]() -> Status {
    WEFT_TRY(Ctx, get<Context>(C));
    if (auto S = checkDeviceList(*Ctx, NumDevices, Devices); !S)
      return S.error();
    // "CL_INVALID_VALUE if num_input_programs is zero and input_programs is
    // NULL or if num_input_programs is zero and input_programs is not NULL or
    // if num_input_programs is not zero and input_programs is NULL."
    WEFT_CHECK(NumPrograms == 0 || !Programs, CL_INVALID_VALUE, "no input programs");
    // "CL_INVALID_PROGRAM if programs specified in input_programs are not
    // valid program objects."
    std::vector<Ref<Program>> Inputs;
    for (cl_uint I = 0; I < NumPrograms; ++I) {
      WEFT_TRY(In, get<Program>(Programs[I]));
      Inputs.emplace_back(In);
    }
    // "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
    WEFT_CHECK(!Notify && UserData, CL_INVALID_VALUE, "user_data without pfn_notify");
    // "CL_INVALID_OPERATION if the rules for devices containing compiled
    // binaries or libraries as described in input_programs argument above
    // are not followed": every input must be a compiled object or library.
    for (const Ref<Program> &In : Inputs)
      WEFT_CHECK(!In->isLinkable(), CL_INVALID_OPERATION,
                 "an input program is not a compiled object or a library");
    // Bad options (CL_INVALID_LINKER_OPTIONS) make no program; a failed link
    // (CL_LINK_PROGRAM_FAILURE) makes one whose log says why.
    Program::LinkResult R = Program::link(*Ctx, Options ? Options : "", Inputs);
    if (R.Linked) {
      Linked = static_cast<cl_program>(R.Linked.release());
      if (Notify)
        Notify(Linked, UserData);
    }
    return R.LinkStatus;
  });
  if (ErrcodeRet)
    *ErrcodeRet = Code;
  return Linked;
}

cl_int CL_API_CALL clUnloadCompiler() { return CL_SUCCESS; }

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id P) {
  return entry([&]() -> Status {
    WEFT_VALID(Platform, P);
    // A hint; the in-process compiler keeps no state worth dropping.
    return {};
  });
}

cl_int CL_API_CALL clGetProgramInfo(cl_program P, cl_program_info Param, size_t Size,
                                    void *Value, size_t *SizeRet) {
  return entry([&]() -> Status {
    WEFT_TRY(Prog, get<Program>(P));
    if (Param == CL_PROGRAM_BINARIES) {
      // param_value is an array of pointers the application allocated.
      size_t N = Prog->context().devices().size();
      if (Value) {
        WEFT_CHECK(Size < N * sizeof(unsigned char *), CL_INVALID_VALUE,
                   "param_value_size is smaller than the value");
        auto **Out = static_cast<unsigned char **>(Value);
        if (Prog->binaryType() != CL_PROGRAM_BINARY_TYPE_NONE) {
          auto Bin = Prog->serializeBinary();
          for (size_t I = 0; I < N; ++I)
            if (Out[I])
              std::memcpy(Out[I], Bin.data(), Bin.size());
        }
      }
      if (SizeRet)
        *SizeRet = N * sizeof(unsigned char *);
      return {};
    }
    WEFT_TRY(Info, programInfo(*Prog, Param));
    return Info.write(Size, Value, SizeRet);
  });
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program P, cl_device_id Dev,
                                         cl_program_build_info Param, size_t Size, void *Value,
                                         size_t *SizeRet) {
  return entry([&]() -> Status {
    WEFT_TRY(Prog, get<Program>(P));
    Device *D = fromHandle<Device>(Dev);
    WEFT_CHECK(!D || !Prog->context().hasDevice(D), CL_INVALID_DEVICE,
               "device is not in the program's context");
    InfoValue Info;
    switch (Param) {
    case CL_PROGRAM_BUILD_STATUS:
      Info = InfoValue(Prog->buildStatus());
      break;
    case CL_PROGRAM_BUILD_OPTIONS:
      Info = InfoValue(Prog->buildOptions());
      break;
    case CL_PROGRAM_BUILD_LOG:
      Info = InfoValue(Prog->buildLog());
      break;
    case CL_PROGRAM_BINARY_TYPE:
      Info = InfoValue(Prog->binaryType());
      break;
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
      Info = InfoValue(Prog->globalVariableSize());
      break;
    default:
      return makeError(CL_INVALID_VALUE, "unknown cl_program_build_info");
    }
    return Info.write(Size, Value, SizeRet);
  });
}

cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program P,
                                               void(CL_CALLBACK *Fn)(cl_program, void *),
                                               void *UserData) {
  return entry([&]() -> Status {
    WEFT_VALID(Program, P);
    WEFT_CHECK(!Fn, CL_INVALID_VALUE, "pfn_notify is NULL");
    // Allowed by OpenCL 3.0 when no device supports program-scope
    // constructors and destructors.
    return makeError(CL_INVALID_OPERATION, "no program-scope global destructors");
  });
}

cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program P, cl_uint SpecId,
                                                      size_t SpecSize, const void *SpecValue) {
  return entry([&]() -> Status {
    WEFT_TRY(Prog, get<Program>(P));
    return Prog->setSpecConstant(SpecId, SpecSize, SpecValue);
  });
}

} // namespace weft::api
