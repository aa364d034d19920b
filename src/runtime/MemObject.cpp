// What every memory object shares: its memory, mappings, destructor
// callbacks and the anchor of the weak references kernel arguments hold.
#include "runtime/MemObject.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace weft::rt {

MemObject::MemObject(Context &C, cl_mem_flags F, size_t S, std::vector<cl_mem_properties> P)
    : Ctx(&C), Flags(F), Size(S), Properties(std::move(P)),
      Anchor(std::make_shared<WeakAnchor>(this)) {}

Status MemObject::allocate(void *Host, size_t Bytes) {
  if (Flags & CL_MEM_USE_HOST_PTR) {
    HostPtr = Host;
    Data = static_cast<char *>(Host);
    UsesSvmPointer = Ctx->svm().find(Host).has_value();
    return {};
  }
  size_t Rounded = (Bytes + BufferAlignment - 1) / BufferAlignment * BufferAlignment;
  Data = static_cast<char *>(std::aligned_alloc(BufferAlignment, Rounded));
  if (!Data)
    return makeError(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                     "cannot allocate " + std::to_string(Bytes) + " bytes");
  OwnsData = true;
  if (Flags & CL_MEM_COPY_HOST_PTR) {
    HostPtr = Host;
    std::memcpy(Data, Host, Size);
  }
  return {};
}

void MemObject::viewOf(MemObject &Of, size_t Origin) {
  Associated = Ref<MemObject>(&Of);
  Offset = Origin;
  Data = Of.Data + Origin;
  UsesSvmPointer = Of.UsesSvmPointer;
  if (Of.Flags & CL_MEM_USE_HOST_PTR)
    HostPtr = static_cast<char *>(Of.HostPtr) + Origin;
}

void MemObject::lastAppReleased() { Anchor->detach(); }

MemObject::~MemObject() {
  Anchor->detach(); // an object the application never held
  // The specification: in reverse order of registration, before the memory goes.
  for (auto It = DestructorCallbacks.rbegin(); It != DestructorCallbacks.rend(); ++It)
    It->first(handle(), It->second);
  if (OwnsData)
    std::free(Data);
}

cl_uint MemObject::mapCount() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return cl_uint(Mappings.size());
}

void MemObject::addMapping(void *Ptr) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Mappings.push_back(Ptr);
}

bool MemObject::removeMapping(void *Ptr) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = std::find(Mappings.begin(), Mappings.end(), Ptr);
  if (It == Mappings.end())
    return false;
  Mappings.erase(It);
  return true;
}

void MemObject::addDestructorCallback(DestructorFn Fn, void *Data) {
  std::lock_guard<std::mutex> Lock(Mutex);
  DestructorCallbacks.emplace_back(Fn, Data);
}

} // namespace weft::rt
