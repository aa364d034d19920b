// The work of the memory commands: copies between host memory and memory
// objects, fills, SVM copies, fills and frees, and the application's native
// kernels.
#include "runtime/commands/MemoryCommands.h"
#include "runtime/execution/CommandQueue.h"

#include <algorithm>
#include <cstring>

namespace weft::rt {

void BufferTransferCommand::runPart(size_t I, size_t Parts) {
  const auto [Begin, End] = bytePart(Size, I, Parts);
  if (Dir == TransferDirection::ToHost)
    std::memcpy(Host + Begin, Buf->data() + Offset + Begin, End - Begin);
  else
    std::memcpy(Buf->data() + Offset + Begin, Host + Begin, End - Begin);
}

void CopyBufferCommand::runPart(size_t I, size_t Parts) {
  const auto [Begin, End] = bytePart(Size, I, Parts);
  std::memcpy(Dst->data() + DstOffset + Begin, Src->data() + SrcOffset + Begin, End - Begin);
}

void FillBufferCommand::runPart(size_t I, size_t Parts) {
  const auto [Begin, End] = bytePart(Size, I, Parts);
  fillPattern(Buf->data() + Offset + Begin, End - Begin, Pattern.data(), Pattern.size());
}

void SvmCopyCommand::runPart(size_t I, size_t Parts) {
  const auto [Begin, End] = bytePart(Size, I, Parts);
  std::memcpy(static_cast<char *>(Dst) + Begin, static_cast<const char *>(Src) + Begin,
              End - Begin);
}

void SvmFillCommand::runPart(size_t I, size_t Parts) {
  const auto [Begin, End] = bytePart(Size, I, Parts);
  fillPattern(Dst + Begin, End - Begin, Pattern.data(), Pattern.size());
}

size_t byteParts(size_t Size, size_t Units) {
  if (Units < 2)
    return 1;
  return std::max<size_t>(1, std::min(Size / MinPartBytes, Units * PartsPerUnit));
}

std::pair<size_t, size_t> bytePart(size_t Size, size_t I, size_t Parts) {
  constexpr size_t Grain = 4096;
  const size_t Grains = (Size + Grain - 1) / Grain;
  const size_t Begin = std::min(Size, Grains * I / Parts * Grain);
  const size_t End = I + 1 == Parts ? Size : std::min(Size, Grains * (I + 1) / Parts * Grain);
  return {Begin, End};
}

cl_int BufferRectTransferCommand::run() {
  if (Dir == TransferDirection::ToHost)
    copyRect(Host, InHost, Buf->data(), InBuffer, Region);
  else
    copyRect(Buf->data(), InBuffer, Host, InHost, Region);
  return CL_COMPLETE;
}

cl_int CopyBufferRectCommand::run() {
  copyRect(Dst->data(), InDst, Src->data(), InSrc, Region);
  return CL_COMPLETE;
}

cl_int NativeKernelCommand::run() {
  Fn(Block.empty() ? nullptr : Block.data());
  return CL_COMPLETE;
}

cl_int SvmFreeCommand::run() {
  if (Fn) {
    Fn(queue().handle(), cl_uint(Pointers.size()), Pointers.data(), UserData);
    return CL_COMPLETE;
  }
  for (void *P : Pointers)
    queue().context().svm().free(P);
  return CL_COMPLETE;
}

// A pattern of one repeated byte is a memset; any other is copied from a
// block of whole patterns, so the copies are long ones, not one call per
// pattern.
void fillPattern(char *Dst, size_t Size, const char *Pattern, size_t PatternSize) {
  if (std::all_of(Pattern, Pattern + PatternSize, [&](char C) { return C == Pattern[0]; })) {
    std::memset(Dst, Pattern[0], Size);
    return;
  }
  alignas(64) char Block[4096];
  static_assert(sizeof(Block) % 128 == 0, "the block holds whole patterns of every size");
  for (size_t I = 0; I < sizeof(Block); I += PatternSize)
    std::memcpy(Block + I, Pattern, PatternSize);
  for (size_t Done = 0; Done < Size; Done += sizeof(Block))
    std::memcpy(Dst + Done, Block, std::min(sizeof(Block), Size - Done));
}

} // namespace weft::rt
