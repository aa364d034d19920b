// The image commands. Every image transfer (read, write, copy between
// images, to and from buffers) moves a rectangle of bytes between two
// memories, each with its own row and slice steps (Image::rect), so one
// command class does them all, under the command type of its entry point;
// a fill converts its colour once and repeats the pixel. Maps are
// zero-copy (MemoryFenceCommand). The API layer has checked every
// argument before one is made.
#pragma once

#include "runtime/commands/Command.h"
#include "runtime/memory/BufferRect.h"
#include "runtime/memory/Image.h"

#include <array>
#include <vector>

namespace weft::rt {

/// One end of a rectangle copy: a memory object (or the host's memory,
/// with no object) and the rectangle in it.
struct RectEnd {
  Ref<MemObject> Object; ///< kept alive while the command is
  char *Base;            ///< the object's data(), or the host pointer
  BufferRect Rect;
};

/// clEnqueueReadImage, WriteImage, CopyImage, CopyImageToBuffer and
/// CopyBufferToImage: Region (bytes, rows, slices) from Src to Dst.
class ImageRectCopyCommand final : public PoolCommand {
public:
  ImageRectCopyCommand(CommandQueue &Q, cl_command_type Type, RectEnd Src, RectEnd Dst,
                       const Region3 &Region)
      : PoolCommand(Q, Type), Src(std::move(Src)), Dst(std::move(Dst)), Region(Region) {}

protected:
  cl_int run() override;

private:
  RectEnd Src, Dst;
  Region3 Region;
};

/// clEnqueueFillImage: Region (pixels) at Origin, each set to Pixel.
class FillImageCommand final : public PoolCommand {
public:
  FillImageCommand(CommandQueue &Q, Image &I, std::array<unsigned char, 16> Pixel,
                   const Region3 &Origin, const Region3 &Region)
      : PoolCommand(Q, CL_COMMAND_FILL_IMAGE), Img(&I), Pixel(Pixel), Origin(Origin),
        Region(Region) {}

protected:
  cl_int run() override;

private:
  Ref<Image> Img;
  std::array<unsigned char, 16> Pixel;
  Region3 Origin, Region;
};

} // namespace weft::rt
