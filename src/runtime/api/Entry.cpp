// Shared entry-point machinery: error reporting, the info writer, wait lists.
#include "runtime/api/Entry.h"

#include "runtime/commands/MemoryCommands.h"

#include <cstdio>
#include <cstdlib>

namespace weft::api {

cl_int report(const Error &E, const Context *Ctx) {
  static const bool Debug = [] {
    const char *V = std::getenv("WEFT_DEBUG");
    return V && *V && *V != '0';
  }();
  if (Debug)
    std::fprintf(stderr, "weft: error %d: %s\n", E.Code, E.Why.c_str());
  if (Ctx)
    Ctx->notify(E.Why);
  return E.Code;
}

Status InfoValue::write(size_t ParamValueSize, void *ParamValue,
                        size_t *ParamValueSizeRet) const {
  if (ParamValue) {
    WEFT_CHECK(ParamValueSize < Bytes.size(), CL_INVALID_VALUE,
               "param_value_size is smaller than the value");
    if (!Bytes.empty())
      std::memcpy(ParamValue, Bytes.data(), Bytes.size());
  }
  if (ParamValueSizeRet)
    *ParamValueSizeRet = Bytes.size();
  return {};
}

Result<std::vector<Ref<Event>>> waitList(cl_uint NumEvents, const cl_event *Events,
                                         const Context *Ctx) {
  // "event_wait_list is NULL and num_events_in_wait_list > 0, or
  // event_wait_list is not NULL and num_events_in_wait_list is 0".
  WEFT_CHECK((Events == nullptr) != (NumEvents == 0), CL_INVALID_EVENT_WAIT_LIST,
             "event_wait_list and num_events_in_wait_list disagree");
  std::vector<Ref<Event>> Out;
  Out.reserve(NumEvents);
  for (cl_uint I = 0; I < NumEvents; ++I) {
    Event *E = fromHandle<Event>(Events[I]);
    WEFT_CHECK(!E, CL_INVALID_EVENT_WAIT_LIST, "event_wait_list holds an invalid event");
    WEFT_CHECK(Ctx && &E->context() != Ctx, CL_INVALID_CONTEXT,
               "an event in event_wait_list belongs to another context");
    Out.emplace_back(E);
  }
  return Out;
}

void returnEvent(const Ref<Event> &Ev, cl_event *Out) {
  if (Out) {
    Ev->list();
    *Out = Ev->handle();
  } else
    Ev->release();
}

Status waitBlocking(const Ref<Event> &Ev) {
  WEFT_CHECK(Ev->wait() < 0, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
             "the blocking command did not complete");
  return {};
}

Result<CommandQueue *> hostQueue(cl_command_queue Q) {
  WEFT_TRY(Queue, get<CommandQueue>(Q));
  WEFT_CHECK(Queue->onDevice(), CL_INVALID_COMMAND_QUEUE,
             "a device queue takes commands from kernels only");
  return Queue;
}

Result<Enqueue> beginEnqueue(cl_command_queue Q, cl_uint NumEvents, const cl_event *Events) {
  WEFT_TRY(Queue, hostQueue(Q));
  WEFT_TRY(Wait, waitList(NumEvents, Events, &Queue->context()));
  return Enqueue{Queue, std::move(Wait)};
}

Status submit(Enqueue &E, std::shared_ptr<Command> Cmd, cl_event *Out, bool Blocking) {
  Ref<Event> Ev = E.Queue->enqueue(std::move(Cmd), E.WaitList);
  returnEvent(Ev, Out);
  return Blocking ? waitBlocking(Ev) : Status();
}

Status checkMapFlags(cl_map_flags Flags) {
  WEFT_CHECK(Flags & ~cl_map_flags(CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION),
             CL_INVALID_VALUE, "unknown map flags");
  WEFT_CHECK((Flags & CL_MAP_WRITE_INVALIDATE_REGION) && (Flags & (CL_MAP_READ | CL_MAP_WRITE)),
             CL_INVALID_VALUE, "CL_MAP_WRITE_INVALIDATE_REGION with READ or WRITE");
  return {};
}

namespace {
bool atMostOne(cl_mem_flags F) { return (F & (F - 1)) == 0; }
} // namespace

Status checkMemFlags(cl_mem_flags Flags) {
  WEFT_CHECK(Flags & ~(AccessFlags | HostPtrFlags | HostAccessFlags), CL_INVALID_VALUE,
             "unknown bits in cl_mem_flags");
  WEFT_CHECK(!atMostOne(Flags & AccessFlags), CL_INVALID_VALUE,
             "more than one of CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY");
  WEFT_CHECK(!atMostOne(Flags & HostAccessFlags), CL_INVALID_VALUE,
             "more than one of the CL_MEM_HOST_* access flags");
  WEFT_CHECK((Flags & CL_MEM_USE_HOST_PTR) &&
                 (Flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)),
             CL_INVALID_VALUE, "CL_MEM_USE_HOST_PTR with ALLOC_HOST_PTR or COPY_HOST_PTR");
  return {};
}

Result<cl_mem_flags> inheritMemFlags(cl_mem_flags Flags, cl_mem_flags PF) {
  WEFT_CHECK(Flags & HostPtrFlags, CL_INVALID_VALUE,
             "host-pointer flags are not allowed on an object made from another");
  if (Status S = checkMemFlags(Flags); !S)
    return S.error();
  WEFT_CHECK((PF & CL_MEM_WRITE_ONLY) && (Flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)),
             CL_INVALID_VALUE, "parent is CL_MEM_WRITE_ONLY");
  WEFT_CHECK((PF & CL_MEM_READ_ONLY) && (Flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)),
             CL_INVALID_VALUE, "parent is CL_MEM_READ_ONLY");
  WEFT_CHECK((PF & CL_MEM_HOST_WRITE_ONLY) && (Flags & CL_MEM_HOST_READ_ONLY), CL_INVALID_VALUE,
             "parent is CL_MEM_HOST_WRITE_ONLY");
  WEFT_CHECK((PF & CL_MEM_HOST_READ_ONLY) && (Flags & CL_MEM_HOST_WRITE_ONLY), CL_INVALID_VALUE,
             "parent is CL_MEM_HOST_READ_ONLY");
  WEFT_CHECK((PF & CL_MEM_HOST_NO_ACCESS) &&
                 (Flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)),
             CL_INVALID_VALUE, "parent is CL_MEM_HOST_NO_ACCESS");
  if (!(Flags & AccessFlags))
    Flags |= PF & AccessFlags;
  if (!(Flags & HostAccessFlags))
    Flags |= PF & HostAccessFlags;
  return Flags | (PF & HostPtrFlags);
}

Result<std::vector<cl_mem_properties>> memProperties(const cl_mem_properties *Properties) {
  std::vector<cl_mem_properties> Props;
  if (Properties) {
    WEFT_CHECK(Properties[0] != 0, CL_INVALID_PROPERTY, "unknown memory object property");
    Props.push_back(0);
  }
  return Props;
}

Result<void *> enqueueMap(Enqueue &E, MemObject &M, cl_map_flags Flags, void *Ptr,
                          cl_command_type Type, bool Blocking, cl_event *Out) {
  WEFT_CHECK((Flags & CL_MAP_READ) && hostCannotRead(M), CL_INVALID_OPERATION,
             "CL_MAP_READ on a memory object the host may not read");
  WEFT_CHECK((Flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && hostCannotWrite(M),
             CL_INVALID_OPERATION, "CL_MAP_WRITE on a memory object the host may not write");
  M.addMapping(Ptr);
  Status S = submitNew<MemoryFenceCommand>(E, Out, Blocking, Type,
                                           std::vector<Ref<MemObject>>{Ref<MemObject>(&M)});
  if (!S) {
    // No pointer reaches the application, so no unmap will come.
    M.removeMapping(Ptr);
    return S.error();
  }
  return Ptr;
}

Result<MemObject *> memObject(const Enqueue &E, cl_mem M) {
  WEFT_TRY(Mem, get<MemObject>(M));
  WEFT_CHECK(&Mem->context() != &E.Queue->context(), CL_INVALID_CONTEXT,
             "the memory object and the queue belong to different contexts");
  return Mem;
}

} // namespace weft::api
