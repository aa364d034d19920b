// The machinery every API entry point shares: handle checking, the single
// place where an Error becomes a cl_int, the info-query writer, wait-list
// and event-return handling.
//
// An entry point reads: handles first (each with its own invalid-handle
// code), then arguments, each under the sentence of the specification it
// implements, then one call on an object. It is wrapped in entry() or
// create(), the only `try` of the API layer.
#pragma once

#include "runtime/Result.h"
#include "runtime/execution/CommandQueue.h"
#include "runtime/execution/Event.h"
#include "runtime/memory/Buffer.h"
#include "runtime/memory/Image.h"
#include "runtime/memory/MemObject.h"
#include "runtime/memory/Sampler.h"
#include "runtime/platform/Context.h"
#include "runtime/platform/Device.h"
#include "runtime/platform/Platform.h"
#include "runtime/program/Kernel.h"
#include "runtime/program/Program.h"

#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

namespace weft::api {

using namespace weft::rt;

/// Evaluates a Result-returning expression; on error returns it from the
/// enclosing function, else binds the value to Var.
#define WEFT_TRY(Var, Expr)                                                    \
  auto Var##Result_ = (Expr);                                                  \
  if (!Var##Result_)                                                           \
    return Var##Result_.error();                                               \
  auto &Var = *Var##Result_

/// Returns the invalid-handle error of T when H is not a live T.
#define WEFT_VALID(T, H)                                                       \
  do {                                                                         \
    if (!::weft::api::fromHandle<T>(H))                                        \
      return ::weft::rt::makeError(::weft::api::invalidHandleCode<T>(),         \
                                   "invalid handle");                          \
  } while (0)

/// Returns an Error from the enclosing function when Cond holds.
#define WEFT_CHECK(Cond, Code, Why)                                            \
  do {                                                                         \
    if (Cond)                                                                  \
      return ::weft::rt::makeError(Code, Why);                                 \
  } while (0)

template <typename T> constexpr cl_int invalidHandleCode() {
  switch (T::Kind) {
  case HandleKind::Platform:
    return CL_INVALID_PLATFORM;
  case HandleKind::Device:
    return CL_INVALID_DEVICE;
  case HandleKind::Context:
    return CL_INVALID_CONTEXT;
  case HandleKind::CommandQueue:
    return CL_INVALID_COMMAND_QUEUE;
  case HandleKind::Mem:
    return CL_INVALID_MEM_OBJECT;
  case HandleKind::Program:
    return CL_INVALID_PROGRAM;
  case HandleKind::Kernel:
    return CL_INVALID_KERNEL;
  case HandleKind::Event:
    return CL_INVALID_EVENT;
  case HandleKind::Sampler:
    return CL_INVALID_SAMPLER;
  default:
    return CL_INVALID_VALUE;
  }
}

/// The object behind a handle, or nullptr if it is not a live T of ours.
/// Any pointer value is safe to ask about: it is read only once it is
/// known to be a live handle (LiveHandles.h).
template <typename T> T *fromHandle(typename T::HandleType H) { return liveObject<T>(H); }

/// The object behind a handle, or the type's invalid-handle error.
template <typename T> Result<T *> get(typename T::HandleType H) {
  if (T *Obj = fromHandle<T>(H))
    return Obj;
  return makeError(invalidHandleCode<T>(), "invalid handle");
}

/// Logs an error (WEFT_DEBUG=1) and returns its code.
cl_int report(const Error &E, const Context *Ctx = nullptr);

/// Runs an entry point body returning Status; the only try of the layer.
template <typename F> cl_int entry(F &&Body) noexcept {
  try {
    Status S = Body();
    return S ? CL_SUCCESS : report(S.error());
  } catch (const std::bad_alloc &) {
    return CL_OUT_OF_HOST_MEMORY;
  } catch (...) {
    return CL_OUT_OF_RESOURCES;
  }
}

/// Runs a create-style body returning Result<Handle>; stores the code.
template <typename H, typename F> H create(cl_int *ErrcodeRet, F &&Body) noexcept {
  cl_int Code = CL_SUCCESS;
  H Out = nullptr;
  try {
    Result<H> R = Body();
    if (R)
      Out = *R;
    else
      Code = report(R.error());
  } catch (const std::bad_alloc &) {
    Code = CL_OUT_OF_HOST_MEMORY;
  } catch (...) {
    Code = CL_OUT_OF_RESOURCES;
  }
  if (ErrcodeRet)
    *ErrcodeRet = Code;
  return Out;
}

/// The value of one clGet*Info query, built first and written whole.
class InfoValue {
public:
  InfoValue() = default;
  template <typename T, typename = std::enable_if_t<std::is_trivially_copyable_v<T>>>
  InfoValue(const T &V) : Bytes(sizeof(T)) {
    std::memcpy(Bytes.data(), &V, sizeof(T));
  }
  InfoValue(const std::string &S) : Bytes(S.begin(), S.end()) { Bytes.push_back(0); }
  InfoValue(const char *S) : InfoValue(std::string(S)) {}
  template <typename T> InfoValue(const std::vector<T> &V) : Bytes(V.size() * sizeof(T)) {
    if (!V.empty())
      std::memcpy(Bytes.data(), V.data(), Bytes.size());
  }
  static InfoValue raw(const void *Data, size_t Size) {
    InfoValue I;
    I.Bytes.assign(static_cast<const char *>(Data), static_cast<const char *>(Data) + Size);
    return I;
  }
  /// The clGet*Info contract: size to *SizeRet, value if it fits.
  Status write(size_t ParamValueSize, void *ParamValue, size_t *ParamValueSizeRet) const;

private:
  std::vector<char> Bytes;
};

/// Checks a (num_events, event_list) pair and returns the events.
/// CL_INVALID_EVENT_WAIT_LIST for a bad pair or handle, CL_INVALID_CONTEXT
/// if an event belongs to another context than Ctx (when given).
Result<std::vector<Ref<Event>>> waitList(cl_uint NumEvents, const cl_event *Events,
                                         const Context *Ctx);

/// Gives the command's event to the application (*Out) or drops the
/// application reference it was born with.
void returnEvent(const Ref<Event> &Ev, cl_event *Out);

/// Blocks on Ev for a blocking command; the error a blocking call returns
/// when the command (or its wait list) failed.
Status waitBlocking(const Ref<Event> &Ev);

/// A command-queue the host enqueues to: CL_INVALID_COMMAND_QUEUE for a
/// device queue ("not a valid host command-queue").
Result<CommandQueue *> hostQueue(cl_command_queue Q);

/// A checked enqueue: the queue and its wait list.
struct Enqueue {
  CommandQueue *Queue;
  std::vector<Ref<Event>> WaitList;
};

/// The checks every clEnqueue* starts with: the queue, then the wait list.
Result<Enqueue> beginEnqueue(cl_command_queue Q, cl_uint NumEvents, const cl_event *Events);

/// Hands Cmd to the queue, returns its event through Out, and waits for it
/// when Blocking.
Status submit(Enqueue &E, std::shared_ptr<Command> Cmd, cl_event *Out, bool Blocking);

/// submit() of a new command C(queue, A...).
template <typename C, typename... Args>
Status submitNew(Enqueue &E, cl_event *Out, bool Blocking, Args &&...A) {
  return submit(E,
                std::allocate_shared<C>(ObjectAllocator<C>(), *E.Queue, std::forward<Args>(A)...),
                Out, Blocking);
}

/// The cl_mem_flags families.
constexpr cl_mem_flags AccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags HostPtrFlags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
constexpr cl_mem_flags HostAccessFlags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

/// The flag rules of clCreateBuffer and clCreateImage: known bits, one
/// access mode, one host access mode, USE_HOST_PTR alone among the
/// host-pointer flags.
Status checkMemFlags(cl_mem_flags Flags);

/// The flags of an object made from another (a sub-buffer, an image from a
/// buffer or image) with Parent's flags: no host-pointer flag of its own,
/// no access the parent forbids; the access, host-access and host-pointer
/// flags not given are inherited.
Result<cl_mem_flags> inheritMemFlags(cl_mem_flags Flags, cl_mem_flags Parent);

/// A memory object of any kind that must belong to the queue's context.
Result<MemObject *> memObject(const Enqueue &E, cl_mem M);

/// memObject() of kind T (Buffer, Image): CL_INVALID_MEM_OBJECT for
/// another kind, Kind naming the one expected.
template <typename T> Result<T *> memObjectOf(const Enqueue &E, cl_mem M, const char *Kind) {
  WEFT_TRY(Mem, memObject(E, M));
  T *Typed = Mem->as<T>();
  WEFT_CHECK(!Typed, CL_INVALID_MEM_OBJECT, std::string("the memory object is not ") + Kind);
  return Typed;
}

/// Whether the host may not read (write) M: CL_MEM_HOST_* flags.
inline bool hostCannotRead(const MemObject &M) {
  return M.flags() & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS);
}
inline bool hostCannotWrite(const MemObject &M) {
  return M.flags() & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS);
}

/// The properties of clCreateBufferWithProperties and
/// clCreateImageWithProperties: OpenCL 3.0 defines none, so only the empty
/// list (kept, for CL_MEM_PROPERTIES) or NULL.
Result<std::vector<cl_mem_properties>> memProperties(const cl_mem_properties *Properties);

/// The map step of clEnqueueMapBuffer and clEnqueueMapImage, once the
/// region is checked: the host-access rules of Flags, then a mapping at
/// Ptr (zero-copy: Ptr is inside M's memory) that a MemoryFenceCommand of
/// Type orders; no mapping stays if the enqueue fails.
Result<void *> enqueueMap(Enqueue &E, MemObject &M, cl_map_flags Flags, void *Ptr,
                          cl_command_type Type, bool Blocking, cl_event *Out);

/// The map flags of clEnqueueMapBuffer and clEnqueueSVMMap (and of
/// clEnqueueMapImage, with images): known bits, and
/// CL_MAP_WRITE_INVALIDATE_REGION alone.
Status checkMapFlags(cl_map_flags Flags);

} // namespace weft::api
