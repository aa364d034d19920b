// Event waits, queries, profiling, callbacks and user events.
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"

namespace weft::api {

namespace {

Result<InfoValue> eventInfo(Event &E, cl_event_info Param) {
  switch (Param) {
  case CL_EVENT_COMMAND_QUEUE:
    return InfoValue(static_cast<cl_command_queue>(E.queue()));
  case CL_EVENT_CONTEXT:
    return InfoValue(static_cast<cl_context>(&E.context()));
  case CL_EVENT_COMMAND_TYPE:
    return InfoValue(E.commandType());
  case CL_EVENT_COMMAND_EXECUTION_STATUS:
    return InfoValue(E.status());
  case CL_EVENT_REFERENCE_COUNT:
    return InfoValue(cl_uint(E.appRefCount()));
  default:
    return makeError(CL_INVALID_VALUE, "unknown cl_event_info " + std::to_string(Param));
  }
}

} // namespace

cl_int CL_API_CALL clWaitForEvents(cl_uint NumEvents, const cl_event *Events) {
  return entry([&]() -> Status {
    WEFT_CHECK(NumEvents == 0 || !Events, CL_INVALID_VALUE, "no events given");
    std::vector<Event *> Es;
    for (cl_uint I = 0; I < NumEvents; ++I) {
      WEFT_TRY(E, get<Event>(Events[I]));
      WEFT_CHECK(!Es.empty() && &E->context() != &Es[0]->context(), CL_INVALID_CONTEXT,
                 "events belong to different contexts");
      Es.push_back(E);
    }
    bool Failed = false;
    for (Event *E : Es)
      Failed |= E->wait() < 0;
    WEFT_CHECK(Failed, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
               "an event in the list failed");
    return {};
  });
}

cl_int CL_API_CALL clGetEventInfo(cl_event Ev, cl_event_info Param, size_t Size, void *Value,
                                  size_t *SizeRet) {
  return entry([&]() -> Status {
    WEFT_TRY(E, get<Event>(Ev));
    WEFT_TRY(Info, eventInfo(*E, Param));
    return Info.write(Size, Value, SizeRet);
  });
}

cl_int CL_API_CALL clRetainEvent(cl_event Ev) {
  return entry([&]() -> Status {
    WEFT_TRY(E, get<Event>(Ev));
    E->retain();
    return {};
  });
}

cl_int CL_API_CALL clReleaseEvent(cl_event Ev) {
  return entry([&]() -> Status {
    WEFT_TRY(E, get<Event>(Ev));
    WEFT_CHECK(!E->release(), CL_INVALID_EVENT, "event already released");
    return {};
  });
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event Ev, cl_profiling_info Param, size_t Size,
                                           void *Value, size_t *SizeRet) {
  return entry([&]() -> Status {
    WEFT_TRY(E, get<Event>(Ev));
    WEFT_CHECK(!E->profilingEnabled(), CL_PROFILING_INFO_NOT_AVAILABLE,
               "the queue was not created with CL_QUEUE_PROFILING_ENABLE, or a user event");
    WEFT_CHECK(Param < CL_PROFILING_COMMAND_QUEUED || Param > CL_PROFILING_COMMAND_COMPLETE,
               CL_INVALID_VALUE, "unknown cl_profiling_info");
    WEFT_CHECK(E->status() != CL_COMPLETE, CL_PROFILING_INFO_NOT_AVAILABLE,
               "the command has not completed");
    return InfoValue(E->timestamp(Param)).write(Size, Value, SizeRet);
  });
}

cl_int CL_API_CALL clSetEventCallback(cl_event Ev, cl_int Type,
                                      void(CL_CALLBACK *Fn)(cl_event, cl_int, void *),
                                      void *UserData) {
  return entry([&]() -> Status {
    WEFT_TRY(E, get<Event>(Ev));
    WEFT_CHECK(!Fn, CL_INVALID_VALUE, "pfn_notify is NULL");
    WEFT_CHECK(Type != CL_SUBMITTED && Type != CL_RUNNING && Type != CL_COMPLETE,
               CL_INVALID_VALUE, "command_exec_callback_type is not valid");
    E->addCallback(Type, Fn, UserData);
    return {};
  });
}

cl_event CL_API_CALL clCreateUserEvent(cl_context C, cl_int *ErrcodeRet) {
  return create<cl_event>(ErrcodeRet, [&]() -> Result<cl_event> {
    WEFT_TRY(Ctx, get<Context>(C));
    return static_cast<cl_event>(new Event(*Ctx, nullptr, CL_COMMAND_USER));
  });
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event Ev, cl_int Status) {
  return entry([&]() -> rt::Status {
    WEFT_TRY(E, get<Event>(Ev));
    WEFT_CHECK(!E->isUserEvent(), CL_INVALID_EVENT, "not a user event");
    WEFT_CHECK(Status != CL_COMPLETE && Status >= 0, CL_INVALID_VALUE,
               "execution_status must be CL_COMPLETE or negative");
    WEFT_CHECK(E->isTerminal(), CL_INVALID_OPERATION, "the status was already set");
    if (Status == CL_COMPLETE) {
      E->advance(Event::Stage::Complete);
    } else {
      E->fail(Status);
    }
    return {};
  });
}

} // namespace weft::api
