// Images (CL_MEM_OBJECT_IMAGE1D ... IMAGE3D): a memory object with a
// format and a geometry. The pixels are host memory laid out as
// ImageLayout.h says, so the host commands copy rectangles and a map
// returns a pointer into the image; kernels read the image through its
// WeftImage descriptor, which is what an image argument passes.
//
// An image has its own allocation (rows packed tight), the application's
// memory (CL_MEM_USE_HOST_PTR, with the application's pitches), or another
// object's: a 1D image buffer or a 2D image made from a buffer, or a 2D
// image viewing another 2D image with a compatible channel order.
#pragma once

#include "runtime/memory/BufferRect.h"
#include "runtime/memory/ImageLayout.h"
#include "runtime/memory/MemObject.h"

namespace weft::rt {

/// What an image is: the validated cl_image_desc, pitches resolved.
struct ImageGeometry {
  cl_mem_object_type Type;
  size_t Width, Height, Depth, ArraySize;
  size_t RowPitch, SlicePitch;
};

class Image final : public MemObject {
public:
  static bool isType(cl_mem_object_type T);

  /// An image of Format and Geometry (both validated by the caller, the
  /// pitches resolved: those of HostPtr or of the memory object Of, else
  /// rows packed tight). With Of (a buffer, or a 2D image) the image views
  /// Of's memory; else it allocates, or uses or copies HostPtr as Flags say.
  static Result<Ref<Image>> create(Context &Ctx, cl_mem_flags Flags, const cl_image_format &Format,
                                   const ImageGeometry &Geometry, void *HostPtr, MemObject *Of,
                                   std::vector<cl_mem_properties> Properties);

  cl_mem_object_type type() const override { return Geometry.Type; }
  const void *kernelArgument() const override { return &Descriptor; }

  const cl_image_format &format() const { return Format; }
  size_t elementSize() const { return ElementSize; }
  const ImageGeometry &geometry() const { return Geometry; }
  /// The extent of each coordinate the API gives: (width, height, depth),
  /// (width, layers, 1) of a 1D array, (width, height, layers) of a 2D
  /// array; 1 for the coordinates the type does not use.
  Region3 extent() const;
  /// Origin, a pixel coordinate as the API gives it, as a rectangle of
  /// data() whose rows and slices step the second and third coordinate.
  BufferRect rect(const Region3 &Origin) const;
  /// An API region in bytes: its width times the element size.
  Region3 byteRegion(const Region3 &Region) const;
  /// Whether Origin and Region follow the rules of the image's type
  /// (unused coordinates 0 and 1, no zero extent) and lie inside it.
  bool regionValid(const size_t *Origin, const size_t *Region) const;

private:
  Image(Context &Ctx, cl_mem_flags Flags, size_t Size, std::vector<cl_mem_properties> Properties,
        const cl_image_format &Format, const ImageGeometry &Geometry);

  cl_image_format Format;
  size_t ElementSize;
  ImageGeometry Geometry;
  WeftImage Descriptor{};
};

/// The number of bytes an image of Geometry occupies.
size_t imageBytes(const ImageGeometry &Geometry);

} // namespace weft::rt
