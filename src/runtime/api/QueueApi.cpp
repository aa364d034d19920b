// Command-queue creation, queries, flush and finish.
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"
#include "runtime/platform/Capabilities.h"

#include <optional>

namespace weft::api {

namespace {

constexpr cl_command_queue_properties KnownQueueProps =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
    CL_QUEUE_ON_DEVICE_DEFAULT;

Result<cl_command_queue> createQueue(cl_context C, cl_device_id Dev,
                                     cl_command_queue_properties Props,
                                     std::vector<cl_queue_properties> List,
                                     std::optional<cl_uint> Size) {
  WEFT_TRY(Ctx, get<Context>(C));
  WEFT_TRY(D, get<Device>(Dev));
  WEFT_CHECK(!Ctx->hasDevice(D), CL_INVALID_DEVICE, "device is not in the context");
  WEFT_CHECK(Props & ~KnownQueueProps, CL_INVALID_VALUE, "unknown queue properties");
  // "CL_QUEUE_ON_DEVICE_DEFAULT ... can only be used with CL_QUEUE_ON_DEVICE."
  WEFT_CHECK((Props & CL_QUEUE_ON_DEVICE_DEFAULT) && !(Props & CL_QUEUE_ON_DEVICE),
             CL_INVALID_VALUE, "CL_QUEUE_ON_DEVICE_DEFAULT without CL_QUEUE_ON_DEVICE");
  // CL_QUEUE_SIZE "can only be specified if CL_QUEUE_ON_DEVICE is set".
  WEFT_CHECK(Size && !(Props & CL_QUEUE_ON_DEVICE), CL_INVALID_VALUE,
             "CL_QUEUE_SIZE without CL_QUEUE_ON_DEVICE");
  if (!(Props & CL_QUEUE_ON_DEVICE))
    return static_cast<cl_command_queue>(new CommandQueue(*Ctx, *D, Props, std::move(List), 0));

  // "values specified in properties are valid but are not supported by the device".
  WEFT_CHECK(!(DeviceQueues.Capabilities & CL_DEVICE_QUEUE_SUPPORTED), CL_INVALID_QUEUE_PROPERTIES,
             "the device has no device-side queues");
  // "If CL_QUEUE_ON_DEVICE is set, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
  // must also be set."
  WEFT_CHECK(!(Props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE), CL_INVALID_VALUE,
             "a device queue must be out-of-order");
  // CL_QUEUE_SIZE "must be a value <= CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE".
  WEFT_CHECK(Size && *Size > DeviceQueues.MaxSize, CL_INVALID_VALUE,
             "CL_QUEUE_SIZE is above CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE");
  const bool Default = Props & CL_QUEUE_ON_DEVICE_DEFAULT;
  // "If a default device queue has already been created, calling
  // clCreateCommandQueueWithProperties with CL_QUEUE_PROPERTIES set to
  // CL_QUEUE_ON_DEVICE and CL_QUEUE_ON_DEVICE_DEFAULT will return the
  // default device queue that has already been created and increment its
  // reference count by 1."
  if (Default)
    if (Ref<CommandQueue> Existing = Ctx->defaultDeviceQueue(*D)) {
      Existing->retain();
      return static_cast<cl_command_queue>(Existing.get());
    }
  // A device queue is a size and a default; CL_DEVICE_MAX_ON_DEVICE_QUEUES
  // is what the device promises, not a count it refuses beyond.
  auto *Q =
      new CommandQueue(*Ctx, *D, Props, std::move(List), Size.value_or(DeviceQueues.PreferredSize));
  if (Default)
    Ctx->setDefaultDeviceQueue(*Q);
  return static_cast<cl_command_queue>(Q);
}

Result<InfoValue> queueInfo(CommandQueue &Q, cl_command_queue_info Param) {
  switch (Param) {
  case CL_QUEUE_CONTEXT:
    return InfoValue(static_cast<cl_context>(&Q.context()));
  case CL_QUEUE_DEVICE:
    return InfoValue(static_cast<cl_device_id>(&Q.device()));
  case CL_QUEUE_REFERENCE_COUNT:
    return InfoValue(cl_uint(Q.appRefCount()));
  case CL_QUEUE_PROPERTIES:
    return InfoValue(Q.properties());
  case CL_QUEUE_PROPERTIES_ARRAY:
    return InfoValue(Q.propertyList());
  case CL_QUEUE_DEVICE_DEFAULT: {
    Ref<CommandQueue> Default = Q.context().defaultDeviceQueue(Q.device());
    return InfoValue(static_cast<cl_command_queue>(Default.get()));
  }
  case CL_QUEUE_SIZE:
    // "CL_INVALID_COMMAND_QUEUE ... if command_queue is not a valid
    // command-queue for param_name": the size is a device queue's.
    WEFT_CHECK(!Q.onDevice(), CL_INVALID_COMMAND_QUEUE, "CL_QUEUE_SIZE of a host queue");
    return InfoValue(Q.size());
  default:
    return makeError(CL_INVALID_VALUE, "unknown cl_command_queue_info " + std::to_string(Param));
  }
}

} // namespace

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context C, cl_device_id Dev,
                                                  cl_command_queue_properties Props,
                                                  cl_int *ErrcodeRet) {
  return create<cl_command_queue>(ErrcodeRet, [&]() -> Result<cl_command_queue> {
    WEFT_CHECK(Props & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT), CL_INVALID_VALUE,
               "clCreateCommandQueue takes no device-queue properties");
    return createQueue(C, Dev, Props, {}, std::nullopt);
  });
}

cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(
    cl_context C, cl_device_id Dev, const cl_queue_properties *Properties, cl_int *ErrcodeRet) {
  return create<cl_command_queue>(ErrcodeRet, [&]() -> Result<cl_command_queue> {
    cl_command_queue_properties Props = 0;
    std::vector<cl_queue_properties> List;
    bool SawProps = false;
    std::optional<cl_uint> Size;
    if (Properties) {
      for (const cl_queue_properties *P = Properties; *P; P += 2) {
        switch (P[0]) {
        case CL_QUEUE_PROPERTIES:
          WEFT_CHECK(SawProps, CL_INVALID_VALUE, "CL_QUEUE_PROPERTIES given twice");
          SawProps = true;
          Props = P[1];
          break;
        case CL_QUEUE_SIZE:
          WEFT_CHECK(Size.has_value(), CL_INVALID_VALUE, "CL_QUEUE_SIZE given twice");
          Size = cl_uint(P[1]);
          break;
        default:
          return makeError(CL_INVALID_VALUE, "unknown queue property " + std::to_string(P[0]));
        }
        List.push_back(P[0]);
        List.push_back(P[1]);
      }
      List.push_back(0);
    }
    return createQueue(C, Dev, Props, std::move(List), Size);
  });
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue Q) {
  return entry([&]() -> Status {
    WEFT_TRY(Queue, get<CommandQueue>(Q));
    Queue->retain();
    return {};
  });
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue Q) {
  return entry([&]() -> Status {
    WEFT_TRY(Queue, get<CommandQueue>(Q));
    // Release flushes implicitly; commands are submitted at enqueue already.
    WEFT_CHECK(!Queue->release(), CL_INVALID_COMMAND_QUEUE, "queue already released");
    return {};
  });
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue Q, cl_command_queue_info Param,
                                         size_t Size, void *Value, size_t *SizeRet) {
  return entry([&]() -> Status {
    WEFT_TRY(Queue, get<CommandQueue>(Q));
    WEFT_TRY(Info, queueInfo(*Queue, Param));
    return Info.write(Size, Value, SizeRet);
  });
}

cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue Q,
                                             cl_command_queue_properties Props, cl_bool Enable,
                                             cl_command_queue_properties *OldProps) {
  return entry([&]() -> Status {
    WEFT_VALID(CommandQueue, Q);
    // Deprecated in 1.1; queue properties are fixed at creation.
    return makeError(CL_INVALID_OPERATION, "queue properties cannot change after creation");
  });
}

cl_int CL_API_CALL clFlush(cl_command_queue Q) {
  return entry([&]() -> Status {
    WEFT_TRY(Queue, hostQueue(Q));
    (void)Queue;
    // Every command is submitted when enqueued (see CommandQueue.h).
    return {};
  });
}

cl_int CL_API_CALL clFinish(cl_command_queue Q) {
  return entry([&]() -> Status {
    WEFT_TRY(Queue, hostQueue(Q));
    Queue->finish();
    return {};
  });
}

cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context C, cl_device_id Dev,
                                                  cl_command_queue Q) {
  return entry([&]() -> Status {
    WEFT_TRY(Ctx, get<Context>(C));
    WEFT_TRY(D, get<Device>(Dev));
    WEFT_CHECK(!Ctx->hasDevice(D), CL_INVALID_DEVICE, "device is not in the context");
    WEFT_CHECK(!(DeviceQueues.Capabilities & CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT),
               CL_INVALID_OPERATION, "the device has no replaceable default device queue");
    WEFT_TRY(Queue, get<CommandQueue>(Q));
    WEFT_CHECK(!Queue->onDevice() || &Queue->device() != D || &Queue->context() != Ctx,
               CL_INVALID_COMMAND_QUEUE, "command_queue is not a device queue of this device");
    Ctx->setDefaultDeviceQueue(*Queue);
    return {};
  });
}

} // namespace weft::api
