// The work of the image commands: rectangle copies and fills.
#include "runtime/commands/ImageCommands.h"

#include <cstring>

namespace weft::rt {

cl_int ImageRectCopyCommand::run() {
  copyRect(Dst.Base, Dst.Rect, Src.Base, Src.Rect, Region);
  return CL_COMPLETE;
}

cl_int FillImageCommand::run() {
  const size_t Element = Img->elementSize();
  const BufferRect R = Img->rect(Origin);
  // One row of pixels, then each row of the region a copy of it.
  // (Elements of 3, 6 or 12 bytes are no power of two: no fillPattern.)
  std::vector<char> Row(Region[0] * Element);
  for (size_t X = 0; X < Region[0]; ++X)
    std::memcpy(Row.data() + X * Element, Pixel.data(), Element);
  for (size_t Z = 0; Z < Region[2]; ++Z)
    for (size_t Y = 0; Y < Region[1]; ++Y) {
      char *Dst = Img->data() + R.offset() + Z * R.SlicePitch + Y * R.RowPitch;
      std::memcpy(Dst, Row.data(), Row.size());
    }
  return CL_COMPLETE;
}

} // namespace weft::rt
