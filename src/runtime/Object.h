// The base of every OpenCL object: the ICD handle, the two reference counts,
// and Ref<T>, the internal smart reference.
//
// An OpenCL handle (cl_context, cl_mem, ...) points at a struct whose first
// member is the ICD dispatch table pointer, as the ICD loader requires. Every
// object here derives first from its `_cl_*` handle struct, so a handle and
// the object are the same address and convert with static_cast only.
//
// Two counts keep an object alive: the application's (clRetain/clRelease,
// reported by CL_*_REFERENCE_COUNT) and internal references held by Ref<T>
// (a command in flight holds its queue, kernel and buffers). The object is
// deleted when the sum reaches zero.
//
// A WeakRef<T> names an object without keeping it: a kernel argument names
// its buffer that way (releasing the buffer after clSetKernelArg runs its
// destructor callbacks), and turns it into a Ref<T> at enqueue time only
// while the application still holds the object.
#pragma once

#include "runtime/LiveHandles.h"
#include "runtime/ObjectMemory.h"

#include <CL/cl_icd.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>

namespace weft::rt {

/// The dispatch table the API layer fills; every handle points at it.
const cl_icd_dispatch *icdDispatchTable();

/// Which kind of object a handle is, so that a cl_mem passed where a
/// cl_kernel is expected is caught instead of reinterpreted.
enum class HandleKind : uint32_t {
  Platform = 0x57504c54, // 'WPLT'
  Device,
  Context,
  CommandQueue,
  Mem,
  Program,
  Kernel,
  Event,
  Sampler,
  Dead = 0xdeadbeef,
};

} // namespace weft::rt

// The handle structs the CL headers leave opaque. Layout: dispatch first.
#define WEFT_HANDLE(Name)                                                      \
  struct Name {                                                                \
    const cl_icd_dispatch *Dispatch;                                           \
    weft::rt::HandleKind Kind;                                                 \
  }
WEFT_HANDLE(_cl_platform_id);
WEFT_HANDLE(_cl_device_id);
WEFT_HANDLE(_cl_context);
WEFT_HANDLE(_cl_command_queue);
WEFT_HANDLE(_cl_mem);
WEFT_HANDLE(_cl_program);
WEFT_HANDLE(_cl_kernel);
WEFT_HANDLE(_cl_event);
WEFT_HANDLE(_cl_sampler);
#undef WEFT_HANDLE

namespace weft::rt {

class RefCounted : public ObjectMemory {
public:
  RefCounted() = default;
  RefCounted(const RefCounted &) = delete;
  RefCounted &operator=(const RefCounted &) = delete;
  virtual ~RefCounted() = default;

  void retain() {
    AppCount.fetch_add(1, std::memory_order_relaxed);
    addRef();
  }
  /// Drops one application reference; false if the application held none.
  bool release() {
    uint32_t Old = AppCount.load(std::memory_order_relaxed);
    do {
      if (Old == 0)
        return false;
    } while (!AppCount.compare_exchange_weak(Old, Old - 1, std::memory_order_acq_rel));
    if (Old == 1)
      lastAppReleased();
    dropRef();
    return true;
  }
  uint32_t appRefCount() const { return AppCount.load(std::memory_order_relaxed); }

  void addRef() { Total.fetch_add(1, std::memory_order_relaxed); }
  void dropRef() {
    if (Total.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }

protected:
  /// Called once when the application's count reaches zero (the object may
  /// live on through internal references).
  virtual void lastAppReleased() {}

private:
  std::atomic<uint32_t> AppCount{1};
  std::atomic<uint32_t> Total{1};
};

/// An API object: its handle struct first, then the counts.
template <typename HandleT, HandleKind K> class Object : public HandleT, public RefCounted {
public:
  static constexpr HandleKind Kind = K;
  using HandleType = HandleT *;
  /// ListNow false: an object whose handle nobody has yet (the event of a
  /// command enqueued without asking for it, the common case); list() it
  /// when its handle is given out. Most such events never are, and skip
  /// two trips through the shared handle set.
  explicit Object(bool ListNow = true) : Listed(ListNow) {
    HandleT::Dispatch = icdDispatchTable();
    HandleT::Kind = K;
    if (ListNow)
      handles::add(static_cast<HandleT *>(this));
  }
  ~Object() override {
    if (Listed.load(std::memory_order_relaxed))
      handles::remove(static_cast<HandleT *>(this));
    HandleT::Kind = HandleKind::Dead;
  }
  HandleT *handle() { return this; }
  /// Makes the handle known as live (LiveHandles.h), before it is given out.
  void list() {
    if (!Listed.exchange(true, std::memory_order_relaxed))
      handles::add(static_cast<HandleT *>(this));
  }

private:
  std::atomic<bool> Listed;
};

/// The object behind handle P, or nullptr if P is not a live T of ours.
/// Any pointer value is safe to ask about: it is read only once it is known
/// to be a live handle (LiveHandles.h). Handles come from the application
/// (the API layer's fromHandle) and from kernels (a clk_event_t or a
/// queue_t, runtime/commands/DeviceEnqueue.cpp).
template <typename T> T *liveObject(const void *P) {
  if (!P || !handles::live(P))
    return nullptr;
  auto *H = static_cast<typename T::HandleType>(const_cast<void *>(P));
  if (H->Dispatch != icdDispatchTable() || H->Kind != T::Kind)
    return nullptr;
  return static_cast<T *>(H);
}

/// What weak references to one object share: the object while the
/// application holds it, null from its last clRelease on. lock() and
/// detach() exclude each other, and detach() runs before the application's
/// reference is dropped, so an object lock() returns is alive.
class WeakAnchor {
public:
  explicit WeakAnchor(RefCounted *Obj) : Obj(Obj) {}
  /// The object with one internal reference added, or null once detached.
  RefCounted *lock() {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Obj)
      Obj->addRef();
    return Obj;
  }
  void detach() {
    std::lock_guard<std::mutex> Lock(Mutex);
    Obj = nullptr;
  }

private:
  std::mutex Mutex;
  RefCounted *Obj;
};

/// An internal strong reference.
template <typename T> class Ref {
public:
  Ref() = default;
  Ref(T *P) : Ptr(P) {
    if (Ptr)
      Ptr->addRef();
  }
  /// Takes over a reference the caller already owns (e.g. from `new`).
  static Ref adopt(T *P) {
    Ref R;
    R.Ptr = P;
    return R;
  }
  Ref(const Ref &O) : Ref(O.Ptr) {}
  Ref(Ref &&O) noexcept : Ptr(std::exchange(O.Ptr, nullptr)) {}
  template <typename U> Ref(const Ref<U> &O) : Ref(O.get()) {}
  Ref &operator=(Ref O) {
    std::swap(Ptr, O.Ptr);
    return *this;
  }
  ~Ref() {
    if (Ptr)
      Ptr->dropRef();
  }
  T *get() const { return Ptr; }
  T *operator->() const { return Ptr; }
  T &operator*() const { return *Ptr; }
  explicit operator bool() const { return Ptr != nullptr; }
  /// Hands the reference to the application (as the count `new` started with).
  T *release() { return std::exchange(Ptr, nullptr); }

private:
  T *Ptr = nullptr;
};

/// A reference that does not keep its object alive (see WeakAnchor). An
/// object that hands out weak references owns an anchor and detaches it in
/// lastAppReleased() and in its destructor.
template <typename T> class WeakRef {
public:
  WeakRef() = default;
  explicit WeakRef(std::shared_ptr<WeakAnchor> A) : Anchor(std::move(A)) {}
  /// Whether this names an object (live or not); false for a NULL argument.
  bool named() const { return Anchor != nullptr; }
  /// The object while the application holds it, else null.
  Ref<T> lock() const {
    RefCounted *Obj = Anchor ? Anchor->lock() : nullptr;
    return Ref<T>::adopt(static_cast<T *>(Obj));
  }
  bool operator==(const WeakRef &O) const { return Anchor == O.Anchor; }

private:
  std::shared_ptr<WeakAnchor> Anchor;
};

} // namespace weft::rt
