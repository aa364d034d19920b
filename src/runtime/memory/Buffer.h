// Buffers and sub-buffers: linear memory objects (CL_MEM_OBJECT_BUFFER).
// A sub-buffer is a view of a region of its parent's memory.
#pragma once

#include "runtime/memory/MemObject.h"

namespace weft::rt {

class Buffer final : public MemObject {
public:
  static bool isType(cl_mem_object_type T) { return T == CL_MEM_OBJECT_BUFFER; }

  /// A buffer of Size bytes. Flags are already validated by the caller.
  static Result<Ref<Buffer>> create(Context &Ctx, cl_mem_flags Flags, size_t Size, void *HostPtr,
                                    std::vector<cl_mem_properties> Properties);
  /// A sub-buffer [Origin, Origin + Size) of Parent (itself no sub-buffer).
  static Ref<Buffer> createSub(Buffer &Parent, cl_mem_flags Flags, size_t Origin, size_t Size);

  cl_mem_object_type type() const override { return CL_MEM_OBJECT_BUFFER; }
  /// The buffer this sub-buffer is a region of; null for a buffer.
  Buffer *parent() const { return static_cast<Buffer *>(associated()); }

private:
  using MemObject::MemObject;
};

} // namespace weft::rt
