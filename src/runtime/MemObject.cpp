// Buffers and sub-buffers over host memory.
#include "runtime/MemObject.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace weft::rt {

MemObject::MemObject(Context &C, cl_mem_flags F, size_t S) : Ctx(&C), Flags(F), Size(S) {}

Result<Ref<MemObject>> MemObject::createBuffer(Context &Ctx, cl_mem_flags Flags, size_t Size,
                                               void *HostPtr,
                                               std::vector<cl_mem_properties> Properties) {
  auto M = Ref<MemObject>::adopt(new MemObject(Ctx, Flags, Size));
  M->Properties = std::move(Properties);
  if (Flags & CL_MEM_USE_HOST_PTR) {
    M->HostPtr = HostPtr;
    M->Data = static_cast<char *>(HostPtr);
    return M;
  }
  size_t Rounded = (Size + BufferAlignment - 1) / BufferAlignment * BufferAlignment;
  M->Data = static_cast<char *>(std::aligned_alloc(BufferAlignment, Rounded));
  if (!M->Data)
    return makeError(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                     "cannot allocate " + std::to_string(Size) + " bytes");
  M->OwnsData = true;
  if (Flags & CL_MEM_COPY_HOST_PTR) {
    M->HostPtr = HostPtr;
    std::memcpy(M->Data, HostPtr, Size);
  }
  return M;
}

Ref<MemObject> MemObject::createSubBuffer(MemObject &Parent, cl_mem_flags Flags, size_t Origin,
                                          size_t Size) {
  auto M = Ref<MemObject>::adopt(new MemObject(Parent.context(), Flags, Size));
  M->Parent = Ref<MemObject>(&Parent);
  M->Offset = Origin;
  M->Data = Parent.Data + Origin;
  if (Parent.Flags & CL_MEM_USE_HOST_PTR)
    M->HostPtr = static_cast<char *>(Parent.HostPtr) + Origin;
  return M;
}

MemObject::~MemObject() {
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
