// Rectangle geometry of the *BufferRect commands.
#include "runtime/memory/BufferRect.h"

#include <cstring>

namespace weft::rt {

bool rectFits(const BufferRect &R, const Region3 &Region, size_t Size) {
  const size_t Terms[][2] = {
      {R.Origin[2], R.SlicePitch}, {R.Origin[1], R.RowPitch}, {Region[2] - 1, R.SlicePitch},
      {Region[1] - 1, R.RowPitch}, {R.Origin[0], 1},          {Region[0], 1}};
  size_t End = 0;
  for (const auto &T : Terms) {
    size_t Product;
    if (__builtin_mul_overflow(T[0], T[1], &Product) || __builtin_add_overflow(End, Product, &End))
      return false;
  }
  return End <= Size;
}

bool rectsOverlap(const BufferRect &Src, const BufferRect &Dst, const Region3 &Region) {
  const size_t RowPitch = Src.RowPitch, SlicePitch = Src.SlicePitch;
  const size_t SliceSize = (Region[1] - 1) * RowPitch + Region[0];
  const size_t BlockSize = (Region[2] - 1) * SlicePitch + SliceSize;
  const size_t SrcStart = Src.offset(), SrcEnd = SrcStart + BlockSize;
  const size_t DstStart = Dst.offset(), DstEnd = DstStart + BlockSize;
  if (DstEnd <= SrcStart || SrcEnd <= DstStart)
    return false;
  const size_t SrcDx = Src.Origin[0] % RowPitch, DstDx = Dst.Origin[0] % RowPitch;
  if ((DstDx >= SrcDx + Region[0] && DstDx + Region[0] <= SrcDx + RowPitch) ||
      (SrcDx >= DstDx + Region[0] && SrcDx + Region[0] <= DstDx + RowPitch))
    return false;
  const size_t SrcDy = (Src.Origin[1] * RowPitch + Src.Origin[0]) % SlicePitch;
  const size_t DstDy = (Dst.Origin[1] * RowPitch + Dst.Origin[0]) % SlicePitch;
  if ((DstDy >= SrcDy + SliceSize && DstDy + SliceSize <= SrcDy + SlicePitch) ||
      (SrcDy >= DstDy + SliceSize && SrcDy + SliceSize <= DstDy + SlicePitch))
    return false;
  return true;
}

void copyRect(char *Dst, const BufferRect &D, const char *Src, const BufferRect &S,
              const Region3 &Region) {
  for (size_t Z = 0; Z < Region[2]; ++Z)
    for (size_t Y = 0; Y < Region[1]; ++Y)
      std::memmove(Dst + D.offset() + Z * D.SlicePitch + Y * D.RowPitch,
                   Src + S.offset() + Z * S.SlicePitch + Y * S.RowPitch, Region[0]);
}

} // namespace weft::rt
