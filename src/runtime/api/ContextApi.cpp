// Context creation, reference counting and queries.
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"

#include <algorithm>

namespace weft::api {

namespace {

/// Checks a context property list; returns it with its terminating 0.
Result<std::vector<cl_context_properties>> contextProperties(const cl_context_properties *Props) {
  std::vector<cl_context_properties> Out;
  if (!Props)
    return Out;
  std::vector<cl_context_properties> Seen;
  for (const cl_context_properties *P = Props; *P; P += 2) {
    WEFT_CHECK(std::find(Seen.begin(), Seen.end(), P[0]) != Seen.end(), CL_INVALID_PROPERTY,
               "a context property is given twice");
    Seen.push_back(P[0]);
    switch (P[0]) {
    case CL_CONTEXT_PLATFORM:
      WEFT_CHECK(!fromHandle<Platform>(reinterpret_cast<cl_platform_id>(P[1])),
                 CL_INVALID_PLATFORM, "CL_CONTEXT_PLATFORM is not a valid platform");
      break;
    case CL_CONTEXT_INTEROP_USER_SYNC:
      WEFT_CHECK(P[1] != CL_TRUE && P[1] != CL_FALSE, CL_INVALID_PROPERTY,
                 "CL_CONTEXT_INTEROP_USER_SYNC takes CL_TRUE or CL_FALSE");
      break;
    default:
      return makeError(CL_INVALID_PROPERTY, "unknown context property " + std::to_string(P[0]));
    }
    Out.push_back(P[0]);
    Out.push_back(P[1]);
  }
  Out.push_back(0);
  return Out;
}

Result<InfoValue> contextInfo(Context &C, cl_context_info Param) {
  switch (Param) {
  case CL_CONTEXT_REFERENCE_COUNT:
    return InfoValue(cl_uint(C.appRefCount()));
  case CL_CONTEXT_NUM_DEVICES:
    return InfoValue(cl_uint(C.devices().size()));
  case CL_CONTEXT_DEVICES: {
    std::vector<cl_device_id> Ids(C.devices().begin(), C.devices().end());
    return InfoValue(Ids);
  }
  case CL_CONTEXT_PROPERTIES:
    return InfoValue(C.properties());
  default:
    return makeError(CL_INVALID_VALUE, "unknown cl_context_info " + std::to_string(Param));
  }
}

using NotifyFn = Context::NotifyFn;

} // namespace

cl_context CL_API_CALL clCreateContext(const cl_context_properties *Properties,
                                       cl_uint NumDevices, const cl_device_id *Devices,
                                       NotifyFn Notify, void *UserData, cl_int *ErrcodeRet) {
  return create<cl_context>(ErrcodeRet, [&]() -> Result<cl_context> {
    WEFT_TRY(Props, contextProperties(Properties));
    WEFT_CHECK(!Devices || NumDevices == 0, CL_INVALID_VALUE, "no devices given");
    WEFT_CHECK(!Notify && UserData, CL_INVALID_VALUE, "user_data without pfn_notify");
    std::vector<Device *> Ds;
    for (cl_uint I = 0; I < NumDevices; ++I) {
      Device *D = fromHandle<Device>(Devices[I]);
      WEFT_CHECK(!D, CL_INVALID_DEVICE, "devices holds an invalid device");
      if (std::find(Ds.begin(), Ds.end(), D) == Ds.end())
        Ds.push_back(D);
    }
    return static_cast<cl_context>(new Context(std::move(Ds), std::move(Props), Notify, UserData));
  });
}

cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties *Properties,
                                               cl_device_type Type, NotifyFn Notify,
                                               void *UserData, cl_int *ErrcodeRet) {
  return create<cl_context>(ErrcodeRet, [&]() -> Result<cl_context> {
    WEFT_TRY(Props, contextProperties(Properties));
    WEFT_CHECK(!Notify && UserData, CL_INVALID_VALUE, "user_data without pfn_notify");
    cl_uint Num = 0;
    cl_int Err = api::clGetDeviceIDs(nullptr, Type, 0, nullptr, &Num);
    WEFT_CHECK(Err != CL_SUCCESS, Err, "no device of the requested type");
    std::vector<Device *> Ds = Platform::get().devices();
    return static_cast<cl_context>(new Context(std::move(Ds), std::move(Props), Notify, UserData));
  });
}

cl_int CL_API_CALL clRetainContext(cl_context C) {
  return entry([&]() -> Status {
    WEFT_TRY(Ctx, get<Context>(C));
    Ctx->retain();
    return {};
  });
}

cl_int CL_API_CALL clReleaseContext(cl_context C) {
  return entry([&]() -> Status {
    WEFT_TRY(Ctx, get<Context>(C));
    WEFT_CHECK(!Ctx->release(), CL_INVALID_CONTEXT, "context already released");
    return {};
  });
}

cl_int CL_API_CALL clGetContextInfo(cl_context C, cl_context_info Param, size_t Size, void *Value,
                                    size_t *SizeRet) {
  return entry([&]() -> Status {
    WEFT_TRY(Ctx, get<Context>(C));
    WEFT_TRY(Info, contextInfo(*Ctx, Param));
    return Info.write(Size, Value, SizeRet);
  });
}

cl_int CL_API_CALL clSetContextDestructorCallback(cl_context C,
                                                  void(CL_CALLBACK *Fn)(cl_context, void *),
                                                  void *UserData) {
  return entry([&]() -> Status {
    WEFT_TRY(Ctx, get<Context>(C));
    WEFT_CHECK(!Fn, CL_INVALID_VALUE, "pfn_notify is NULL");
    Ctx->addDestructorCallback(Fn, UserData);
    return {};
  });
}

} // namespace weft::api
