// Pipe creation: the ring's memory and its initial state (PipeLayout.h).
#include "runtime/memory/Pipe.h"

#include "runtime/memory/PipeLayout.h"

#include <cstring>

namespace weft::rt {

Result<Ref<Pipe>> Pipe::create(Context &Ctx, cl_mem_flags Flags, cl_uint PacketSize,
                               cl_uint MaxPackets) {
  uint64_t Slots = 1;
  while (Slots < MaxPackets)
    Slots <<= 1;
  if (Slots > WEFT_PIPE_MAX_SLOTS)
    return makeError(CL_MEM_OBJECT_ALLOCATION_FAILURE,
                     "a pipe holds at most " + std::to_string(WEFT_PIPE_MAX_SLOTS) + " packets");
  const uint64_t Bytes = WEFT_PIPE_PACKETS(Slots) + Slots * PacketSize;
  auto P = Ref<Pipe>::adopt(new Pipe(Ctx, Flags, Bytes, PacketSize, MaxPackets));
  if (Status S = P->allocate(nullptr, Bytes); !S)
    return S.error();
  char *Mem = P->data();
  std::memset(Mem, 0, WEFT_PIPE_HEADER_SIZE);
  auto field = [Mem](size_t Offset, uint32_t Value) {
    std::memcpy(Mem + Offset, &Value, sizeof(Value));
  };
  field(WEFT_PIPE_MAX_PACKETS, MaxPackets);
  field(WEFT_PIPE_SLOTS, uint32_t(Slots));
  field(WEFT_PIPE_PACKET_SIZE, PacketSize);
  // Every slot free for its first position.
  for (uint32_t I = 0; I < Slots; ++I)
    field(WEFT_PIPE_SEQ + 4 * size_t(I), I);
  return P;
}

} // namespace weft::rt
