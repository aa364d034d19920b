// The memory-object family: what every cl_mem has in common. Buffer
// (Buffer.h), Image (Image.h) and Pipe (Pipe.h) derive from it, each adding
// its own geometry and reporting its own CL_MEM_OBJECT_* type.
//
// Every memory object is host memory: its own allocation (aligned for the
// widest vector type), or the application's with CL_MEM_USE_HOST_PTR, or
// a view into another object's (a sub-buffer, an image made from a
// buffer or another image). Mapping is zero-copy: a map returns a pointer into the object.
//
// Kernel arguments name a memory object weakly (weak()): the application's
// last clReleaseMemObject detaches them, so an enqueue after it fails with
// CL_INVALID_KERNEL_ARGS instead of touching freed memory.
#pragma once

#include "runtime/Object.h"
#include "runtime/Result.h"
#include "runtime/platform/Context.h"

#include <mutex>
#include <vector>

namespace weft::rt {

class MemObject : public Object<_cl_mem, HandleKind::Mem> {
public:
  using DestructorFn = void(CL_CALLBACK *)(cl_mem, void *);
  ~MemObject() override;

  /// CL_MEM_TYPE: what kind of memory object this is.
  virtual cl_mem_object_type type() const = 0;
  /// This object as a T (Buffer, later Image or Pipe), or null if it is
  /// another kind: how a command or clSetKernelArg asks for the kind it
  /// accepts.
  template <typename T> T *as() { return T::isType(type()) ? static_cast<T *>(this) : nullptr; }

  Context &context() const { return *Ctx; }
  cl_mem_flags flags() const { return Flags; }
  size_t size() const { return Size; }
  /// The application's host pointer (CL_MEM_USE_HOST_PTR or COPY_HOST_PTR).
  void *hostPtr() const { return HostPtr; }
  char *data() const { return Data; }
  /// What a kernel argument naming this object passes (KernelAbi.h): the
  /// memory of a buffer or pipe; an image's descriptor (ImageLayout.h).
  virtual const void *kernelArgument() const { return Data; }
  /// CL_MEM_ASSOCIATED_MEMOBJECT and CL_MEM_OFFSET: the object this one is
  /// a view of (a sub-buffer's buffer), and where in it this one starts.
  MemObject *associated() const { return Associated.get(); }
  size_t offset() const { return Offset; }
  const std::vector<cl_mem_properties> &properties() const { return Properties; }
  /// CL_MEM_USES_SVM_POINTER: the object's memory is (a view of) an SVM
  /// allocation of its context, given with CL_MEM_USE_HOST_PTR.
  bool usesSvmPointer() const { return UsesSvmPointer; }

  /// A reference that does not keep the object alive (see Object.h).
  WeakRef<MemObject> weak() const { return WeakRef<MemObject>(Anchor); }

  cl_uint mapCount() const;
  /// Records a live mapping at Ptr (several may share one address).
  void addMapping(void *Ptr);
  /// Forgets one mapping at Ptr; false if Ptr is not a live mapping.
  bool removeMapping(void *Ptr);
  void addDestructorCallback(DestructorFn Fn, void *Data);

  /// Whether [Off, Off + Len) lies inside the object.
  bool contains(size_t Off, size_t Len) const { return Off <= Size && Len <= Size - Off; }

protected:
  MemObject(Context &Ctx, cl_mem_flags Flags, size_t Size,
            std::vector<cl_mem_properties> Properties);
  /// Gives the object its memory as Flags say: the host pointer itself
  /// (CL_MEM_USE_HOST_PTR), or an allocation of Bytes (at least size()),
  /// filled from HostPtr with CL_MEM_COPY_HOST_PTR.
  Status allocate(void *HostPtr, size_t Bytes);
  /// Makes the object a view of [Origin, Origin + size()) of Of.
  void viewOf(MemObject &Of, size_t Origin);
  void lastAppReleased() override;

private:
  Ref<Context> Ctx;
  cl_mem_flags Flags;
  size_t Size;
  void *HostPtr = nullptr;
  char *Data = nullptr;
  bool OwnsData = false;
  Ref<MemObject> Associated;
  size_t Offset = 0;
  bool UsesSvmPointer = false;
  std::vector<cl_mem_properties> Properties;
  std::shared_ptr<WeakAnchor> Anchor;
  mutable std::mutex Mutex;
  std::vector<void *> Mappings;
  std::vector<std::pair<DestructorFn, void *>> DestructorCallbacks;
};

/// The alignment of every allocation we make (the widest vector, 16 x double).
constexpr size_t BufferAlignment = 128;

/// The memory of a buffer, an image or an SVM allocation: Bytes (at least
/// 1) aligned to Alignment (a power of two), freed with std::free; null if
/// there is none. From HugeMemoryBytes on it is aligned and rounded to
/// 2 MiB and advised as transparent huge pages (madvise MADV_HUGEPAGE,
/// which Debian's default "madvise" mode waits for): a kernel streaming
/// through it then misses the TLB once every 2 MiB instead of every 4 KiB,
/// and in a virtual machine each miss walks two page tables. (stream.copy
/// and stream.triad read 28-30 GB/s on 4 KiB pages and 31-46 on huge
/// pages on the 2-core Zen 4 VM, one bench run each way, three times.)
void *allocateMemory(size_t Bytes, size_t Alignment);
constexpr size_t HugeMemoryBytes = size_t(8) << 20;

} // namespace weft::rt
