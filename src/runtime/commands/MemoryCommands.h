// The memory commands: one named class per clEnqueue* on buffers, memory
// objects and SVM, beside KernelCommand. Each holds references to the memory
// objects it touches and runs as one task on the device's pool, or, for a
// copy or fill of megabytes, as parts side by side (PoolCommand::parts). The
// API layer has checked every argument before one is made.
//
// Host and device share memory, so a map is zero-copy (the mapped pointer
// is the object's own memory) and a migration moves nothing: those commands
// order, signal and keep their objects alive, and do no work.
#pragma once

#include "runtime/commands/Command.h"
#include "runtime/memory/Buffer.h"
#include "runtime/memory/BufferRect.h"

#include <utility>
#include <vector>

namespace weft::rt {

/// Which way a transfer between a buffer and host memory goes.
enum class TransferDirection { ToHost, FromHost };

/// The parts a copy or fill of Size bytes splits into on a device of Units
/// compute units (PoolCommand::parts): 1 where a part would be smaller than
/// MinPartBytes or the device has one unit, else up to PartsPerUnit a unit,
/// so that a part held up (a page fault, another command's work) leaves
/// the others to the rest.
size_t byteParts(size_t Size, size_t Units);
/// Part I of Parts of Size bytes, [first, second): split at multiples of
/// 4 KiB, which hold whole patterns of any size a fill takes (at most 128).
std::pair<size_t, size_t> bytePart(size_t Size, size_t I, size_t Parts);
constexpr size_t MinPartBytes = size_t(1) << 20;
constexpr size_t PartsPerUnit = 4;

/// A pool command whose work is Size bytes, in parts (byteParts, bytePart)
/// or, where there is one, whole: the commands below implement runPart.
class ByteRangeCommand : public PoolCommand {
protected:
  ByteRangeCommand(CommandQueue &Q, cl_command_type Type, size_t Size)
      : PoolCommand(Q, Type), Size(Size) {}
  cl_int run() final {
    runPart(0, 1);
    return CL_COMPLETE;
  }
  size_t parts(size_t Units) const final { return byteParts(Size, Units); }

  const size_t Size;
};

/// clEnqueueReadBuffer and clEnqueueWriteBuffer: Size bytes between Offset
/// of the buffer and Host.
class BufferTransferCommand final : public ByteRangeCommand {
public:
  BufferTransferCommand(CommandQueue &Q, TransferDirection Dir, Buffer &B, size_t Offset,
                        size_t Size, void *Host)
      : ByteRangeCommand(
            Q, Dir == TransferDirection::ToHost ? CL_COMMAND_READ_BUFFER : CL_COMMAND_WRITE_BUFFER,
            Size),
        Dir(Dir), Buf(&B), Offset(Offset), Host(static_cast<char *>(Host)) {}

protected:
  void runPart(size_t I, size_t Parts) override;

private:
  TransferDirection Dir;
  Ref<Buffer> Buf;
  size_t Offset;
  char *Host;
};

/// clEnqueueCopyBuffer (the regions do not overlap).
class CopyBufferCommand final : public ByteRangeCommand {
public:
  CopyBufferCommand(CommandQueue &Q, Buffer &Src, Buffer &Dst, size_t SrcOffset, size_t DstOffset,
                    size_t Size)
      : ByteRangeCommand(Q, CL_COMMAND_COPY_BUFFER, Size), Src(&Src), Dst(&Dst),
        SrcOffset(SrcOffset), DstOffset(DstOffset) {}

protected:
  void runPart(size_t I, size_t Parts) override;

private:
  Ref<Buffer> Src, Dst;
  size_t SrcOffset, DstOffset;
};

/// clEnqueueFillBuffer: Size bytes at Offset, a whole number of patterns.
class FillBufferCommand final : public ByteRangeCommand {
public:
  FillBufferCommand(CommandQueue &Q, Buffer &B, std::vector<char> Pattern, size_t Offset,
                    size_t Size)
      : ByteRangeCommand(Q, CL_COMMAND_FILL_BUFFER, Size), Buf(&B), Pattern(std::move(Pattern)),
        Offset(Offset) {}

protected:
  void runPart(size_t I, size_t Parts) override;

private:
  Ref<Buffer> Buf;
  std::vector<char> Pattern;
  size_t Offset;
};

/// clEnqueueReadBufferRect and clEnqueueWriteBufferRect: Region between the
/// buffer's rectangle and the host memory's.
class BufferRectTransferCommand final : public PoolCommand {
public:
  BufferRectTransferCommand(CommandQueue &Q, TransferDirection Dir, Buffer &B,
                            const BufferRect &InBuffer, void *Host, const BufferRect &InHost,
                            const Region3 &Region)
      : PoolCommand(Q, Dir == TransferDirection::ToHost ? CL_COMMAND_READ_BUFFER_RECT
                                                        : CL_COMMAND_WRITE_BUFFER_RECT),
        Dir(Dir), Buf(&B), InBuffer(InBuffer), Host(static_cast<char *>(Host)), InHost(InHost),
        Region(Region) {}

protected:
  cl_int run() override;

private:
  TransferDirection Dir;
  Ref<Buffer> Buf;
  BufferRect InBuffer;
  char *Host;
  BufferRect InHost;
  Region3 Region;
};

/// clEnqueueCopyBufferRect (the rectangles do not overlap).
class CopyBufferRectCommand final : public PoolCommand {
public:
  CopyBufferRectCommand(CommandQueue &Q, Buffer &Src, const BufferRect &InSrc, Buffer &Dst,
                        const BufferRect &InDst, const Region3 &Region)
      : PoolCommand(Q, CL_COMMAND_COPY_BUFFER_RECT), Src(&Src), InSrc(InSrc), Dst(&Dst),
        InDst(InDst), Region(Region) {}

protected:
  cl_int run() override;

private:
  Ref<Buffer> Src;
  BufferRect InSrc;
  Ref<Buffer> Dst;
  BufferRect InDst;
  Region3 Region;
};

/// clEnqueueMapBuffer, clEnqueueUnmapMemObject, clEnqueueMigrateMemObjects
/// and their SVM forms: zero-copy, so no work; the command orders, signals
/// and keeps its memory objects (none for SVM) alive until it is done.
class MemoryFenceCommand final : public PoolCommand {
public:
  MemoryFenceCommand(CommandQueue &Q, cl_command_type Type, std::vector<Ref<MemObject>> Objects)
      : PoolCommand(Q, Type), Objects(std::move(Objects)) {}

protected:
  cl_int run() override { return CL_COMPLETE; }

private:
  std::vector<Ref<MemObject>> Objects;
};

/// clEnqueueNativeKernel: the application's function on a copy of its
/// argument block, in which each memory object's handle has been replaced
/// by a pointer to the object's memory.
class NativeKernelCommand final : public PoolCommand {
public:
  using NativeFn = void(CL_CALLBACK *)(void *);
  NativeKernelCommand(CommandQueue &Q, NativeFn Fn, std::vector<char> Block,
                      std::vector<Ref<MemObject>> Objects)
      : PoolCommand(Q, CL_COMMAND_NATIVE_KERNEL), Fn(Fn), Block(std::move(Block)),
        Objects(std::move(Objects)) {}

protected:
  cl_int run() override;

private:
  NativeFn Fn;
  std::vector<char> Block;
  std::vector<Ref<MemObject>> Objects;
};

/// clEnqueueSVMMemcpy: Size bytes from Src to Dst (SVM or any host memory;
/// the regions do not overlap).
class SvmCopyCommand final : public ByteRangeCommand {
public:
  SvmCopyCommand(CommandQueue &Q, void *Dst, const void *Src, size_t Size)
      : ByteRangeCommand(Q, CL_COMMAND_SVM_MEMCPY, Size), Dst(Dst), Src(Src) {}

protected:
  void runPart(size_t I, size_t Parts) override;

private:
  void *Dst;
  const void *Src;
};

/// clEnqueueSVMMemFill: Size bytes at Dst, a whole number of patterns.
class SvmFillCommand final : public ByteRangeCommand {
public:
  SvmFillCommand(CommandQueue &Q, void *Dst, std::vector<char> Pattern, size_t Size)
      : ByteRangeCommand(Q, CL_COMMAND_SVM_MEMFILL, Size), Dst(static_cast<char *>(Dst)),
        Pattern(std::move(Pattern)) {}

protected:
  void runPart(size_t I, size_t Parts) override;

private:
  char *Dst;
  std::vector<char> Pattern;
};

/// clEnqueueSVMFree: the application's callback on the pointers, or, with
/// none, each pointer freed as clSVMFree frees it. Ordered like any
/// command, so the pointers outlive the commands before it that use them.
class SvmFreeCommand final : public PoolCommand {
public:
  using FreeFn = void(CL_CALLBACK *)(cl_command_queue, cl_uint, void *[], void *);
  SvmFreeCommand(CommandQueue &Q, std::vector<void *> Pointers, FreeFn Fn, void *UserData)
      : PoolCommand(Q, CL_COMMAND_SVM_FREE), Pointers(std::move(Pointers)), Fn(Fn),
        UserData(UserData) {}

protected:
  cl_int run() override;

private:
  std::vector<void *> Pointers;
  FreeFn Fn;
  void *UserData;
};

/// Fills Size bytes at Dst with a pattern of PatternSize bytes (a power of
/// two up to 128; Size is a multiple of it).
void fillPattern(char *Dst, size_t Size, const char *Pattern, size_t PatternSize);

} // namespace weft::rt
