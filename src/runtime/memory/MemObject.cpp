// What every memory object shares: its memory, mappings, destructor
// callbacks and the anchor of the weak references kernel arguments hold.
#include "runtime/memory/MemObject.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <sys/mman.h>

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
  Data = static_cast<char *>(allocateMemory(Bytes, BufferAlignment));
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

void *allocateMemory(size_t Bytes, size_t Alignment) {
  constexpr size_t Huge = size_t(2) << 20;
  Bytes = std::max<size_t>(Bytes, 1);
  if (Bytes >= HugeMemoryBytes && Alignment <= Huge)
    Alignment = Huge;
  if (Bytes > SIZE_MAX - Alignment)
    return nullptr;
  // aligned_alloc wants a multiple of the alignment.
  const size_t Rounded = (Bytes + Alignment - 1) / Alignment * Alignment;
  void *P = std::aligned_alloc(Alignment, Rounded);
  if (P && Alignment >= Huge)
    madvise(P, Rounded, MADV_HUGEPAGE); // advice: without it, 4 KiB pages
  return P;
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
