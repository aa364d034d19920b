// Rectangles inside linear memory: the geometry of the *BufferRect commands
// (a 3-D region at an origin, with row and slice pitches), checked with
// overflow-safe arithmetic, and the specification's overlap test.
#pragma once

#include <array>
#include <cstddef>

namespace weft::rt {

using Region3 = std::array<size_t, 3>;

/// A rectangle inside a linear allocation, pitches resolved.
struct BufferRect {
  Region3 Origin;
  size_t RowPitch, SlicePitch;
  /// The byte offset of the origin.
  size_t offset() const { return Origin[2] * SlicePitch + Origin[1] * RowPitch + Origin[0]; }
};

/// Whether a region at R lies inside a Size-byte allocation. Huge origins or
/// pitches must not wrap around into range.
bool rectFits(const BufferRect &R, const Region3 &Region, size_t Size);

/// The specification's check_copy_overlap (appendix "Checking for Memory
/// Copy Overlap") for two rectangles of one buffer with the same pitches:
/// bounding ranges that intersect may still interleave without touching.
bool rectsOverlap(const BufferRect &Src, const BufferRect &Dst, const Region3 &Region);

/// Copies Region from Src at S to Dst at D, row by row.
void copyRect(char *Dst, const BufferRect &D, const char *Src, const BufferRect &S,
              const Region3 &Region);

} // namespace weft::rt
