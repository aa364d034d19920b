// Pipe objects (CL_MEM_OBJECT_PIPE): a ring of packets that kernels write
// and read with the pipe built-ins. The ring lives in the pipe's memory,
// laid out as PipeLayout.h says; the host never touches the packets (a pipe
// is CL_MEM_HOST_NO_ACCESS), it only creates, queries and passes the pipe.
#pragma once

#include "runtime/memory/MemObject.h"

namespace weft::rt {

class Pipe final : public MemObject {
public:
  static bool isType(cl_mem_object_type T) { return T == CL_MEM_OBJECT_PIPE; }

  /// A pipe of MaxPackets packets of PacketSize bytes, its ring empty.
  /// Flags, PacketSize and MaxPackets are already validated by the caller;
  /// CL_MEM_OBJECT_ALLOCATION_FAILURE if the ring cannot be allocated.
  static Result<Ref<Pipe>> create(Context &Ctx, cl_mem_flags Flags, cl_uint PacketSize,
                                  cl_uint MaxPackets);

  cl_mem_object_type type() const override { return CL_MEM_OBJECT_PIPE; }
  cl_uint packetSize() const { return PacketSize; }
  cl_uint maxPackets() const { return MaxPackets; }

private:
  Pipe(Context &Ctx, cl_mem_flags Flags, size_t Bytes, cl_uint PacketSize, cl_uint MaxPackets)
      : MemObject(Ctx, Flags, Bytes, {}), PacketSize(PacketSize), MaxPackets(MaxPackets) {}
  cl_uint PacketSize, MaxPackets;
};

} // namespace weft::rt
