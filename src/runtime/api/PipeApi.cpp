// Pipe objects: clCreatePipe and clGetPipeInfo. Everything else a pipe does
// as a memory object (retain, release, clGetMemObjectInfo, destructor
// callbacks) is MemoryApi.cpp's; kernels use pipes through the pipe
// built-ins (src/builtins/Pipes.cl).
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"
#include "runtime/memory/Pipe.h"
#include "runtime/platform/Capabilities.h"

namespace weft::api {

static_assert(Pipes.Supported, "these entry points implement pipes: the table must report them");

cl_mem CL_API_CALL clCreatePipe(cl_context C, cl_mem_flags Flags, cl_uint PacketSize,
                                cl_uint MaxPackets, const cl_pipe_properties *Properties,
                                cl_int *ErrcodeRet) {
  return create<cl_mem>(ErrcodeRet, [&]() -> Result<cl_mem> {
    WEFT_TRY(Ctx, get<Context>(C));
    // "Only CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS can be specified
    // when creating a pipe object. If the value specified for flags is 0,
    // the default is used which is CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS."
    WEFT_CHECK(Flags & ~cl_mem_flags(CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS), CL_INVALID_VALUE,
               "a pipe takes only CL_MEM_READ_WRITE and CL_MEM_HOST_NO_ACCESS");
    WEFT_CHECK(Properties, CL_INVALID_VALUE, "properties must be NULL");
    WEFT_CHECK(PacketSize == 0 || PacketSize > Pipes.MaxPacketSize, CL_INVALID_PIPE_SIZE,
               "pipe_packet_size is 0 or exceeds CL_DEVICE_PIPE_MAX_PACKET_SIZE");
    WEFT_CHECK(MaxPackets == 0, CL_INVALID_PIPE_SIZE, "pipe_max_packets is 0");
    for (Device *D : Ctx->devices())
      WEFT_CHECK(uint64_t(PacketSize) * MaxPackets > D->props().MaxMemAllocSize,
                 CL_MEM_OBJECT_ALLOCATION_FAILURE,
                 "the pipe is larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    if (Flags == 0)
      Flags = CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS;
    WEFT_TRY(P, Pipe::create(*Ctx, Flags, PacketSize, MaxPackets));
    return static_cast<cl_mem>(P.release());
  });
}

cl_int CL_API_CALL clGetPipeInfo(cl_mem M, cl_pipe_info Param, size_t Size, void *Value,
                                 size_t *SizeRet) {
  return entry([&]() -> Status {
    WEFT_TRY(Mem, get<MemObject>(M));
    Pipe *P = Mem->as<Pipe>();
    WEFT_CHECK(!P, CL_INVALID_MEM_OBJECT, "pipe is not a pipe object");
    switch (Param) {
    case CL_PIPE_PACKET_SIZE:
      return InfoValue(P->packetSize()).write(Size, Value, SizeRet);
    case CL_PIPE_MAX_PACKETS:
      return InfoValue(P->maxPackets()).write(Size, Value, SizeRet);
    case CL_PIPE_PROPERTIES:
      // No pipe property exists: an empty list.
      return InfoValue(std::vector<cl_pipe_properties>{}).write(Size, Value, SizeRet);
    default:
      return makeError(CL_INVALID_VALUE, "unknown cl_pipe_info " + std::to_string(Param));
    }
  });
}

} // namespace weft::api
