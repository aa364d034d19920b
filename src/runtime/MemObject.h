// Memory objects. For now buffers and sub-buffers: host memory, aligned for
// the widest vector type, or the application's own memory with
// CL_MEM_USE_HOST_PTR. Mapping is zero-copy: a map returns a pointer into
// the buffer itself.
#pragma once

#include "runtime/Context.h"
#include "runtime/Object.h"
#include "runtime/Result.h"

#include <mutex>
#include <vector>

namespace weft::rt {

class MemObject : public Object<_cl_mem, HandleKind::Mem> {
public:
  using DestructorFn = void(CL_CALLBACK *)(cl_mem, void *);

  /// A buffer of Size bytes. Flags are already validated by the caller.
  static Result<Ref<MemObject>> createBuffer(Context &Ctx, cl_mem_flags Flags, size_t Size,
                                             void *HostPtr,
                                             std::vector<cl_mem_properties> Properties);
  /// A sub-buffer [Origin, Origin + Size) of Parent.
  static Ref<MemObject> createSubBuffer(MemObject &Parent, cl_mem_flags Flags, size_t Origin,
                                        size_t Size);
  ~MemObject() override;

  Context &context() const { return *Ctx; }
  cl_mem_object_type type() const { return CL_MEM_OBJECT_BUFFER; }
  cl_mem_flags flags() const { return Flags; }
  size_t size() const { return Size; }
  void *hostPtr() const { return HostPtr; }
  char *data() const { return Data; }
  MemObject *parent() const { return Parent.get(); }
  size_t offset() const { return Offset; }
  const std::vector<cl_mem_properties> &properties() const { return Properties; }

  cl_uint mapCount() const;
  /// Records a live mapping at Ptr (several may share one address).
  void addMapping(void *Ptr);
  /// Forgets one mapping at Ptr; false if Ptr is not a live mapping.
  bool removeMapping(void *Ptr);
  void addDestructorCallback(DestructorFn Fn, void *Data);

  /// Whether [Off, Off + Len) lies inside the object.
  bool contains(size_t Off, size_t Len) const { return Off <= Size && Len <= Size - Off; }

private:
  MemObject(Context &Ctx, cl_mem_flags Flags, size_t Size);

  Ref<Context> Ctx;
  cl_mem_flags Flags;
  size_t Size;
  void *HostPtr = nullptr;
  char *Data = nullptr;
  bool OwnsData = false;
  Ref<MemObject> Parent;
  size_t Offset = 0;
  std::vector<cl_mem_properties> Properties;
  mutable std::mutex Mutex;
  std::vector<void *> Mappings;
  std::vector<std::pair<DestructorFn, void *>> DestructorCallbacks;
};

/// The alignment of every buffer we allocate (the widest vector, 16 x double).
constexpr size_t BufferAlignment = 128;

} // namespace weft::rt
