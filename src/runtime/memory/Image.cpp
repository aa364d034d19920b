// Image objects: their memory, their kernel descriptor and the geometry
// the host commands use.
#include "runtime/memory/Image.h"

#include "runtime/memory/ImageFormat.h"

namespace weft::rt {

bool Image::isType(cl_mem_object_type T) {
  switch (T) {
  case CL_MEM_OBJECT_IMAGE1D:
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
  case CL_MEM_OBJECT_IMAGE3D:
    return true;
  default:
    return false;
  }
}

size_t imageBytes(const ImageGeometry &G) {
  switch (G.Type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    return G.SlicePitch * G.ArraySize;
  case CL_MEM_OBJECT_IMAGE3D:
    return G.SlicePitch * G.Depth;
  case CL_MEM_OBJECT_IMAGE2D:
    return G.RowPitch * G.Height;
  default:
    return G.RowPitch;
  }
}

Image::Image(Context &Ctx, cl_mem_flags Flags, size_t Size,
             std::vector<cl_mem_properties> Properties, const cl_image_format &Format,
             const ImageGeometry &Geometry)
    : MemObject(Ctx, Flags, Size, std::move(Properties)), Format(Format),
      ElementSize(imageElementSize(Format)), Geometry(Geometry) {}

Result<Ref<Image>> Image::create(Context &Ctx, cl_mem_flags Flags, const cl_image_format &Format,
                                 const ImageGeometry &G, void *HostPtr, MemObject *Of,
                                 std::vector<cl_mem_properties> Properties) {
  auto I =
      Ref<Image>::adopt(new Image(Ctx, Flags, imageBytes(G), std::move(Properties), Format, G));
  if (Of)
    I->viewOf(*Of, 0);
  else if (Status S = I->allocate(HostPtr, imageBytes(G)); !S)
    return S.error();
  WeftImage &D = I->Descriptor;
  D.Data = reinterpret_cast<unsigned char *>(I->data());
  // A 1D array's layers are a slice pitch apart, whichever pitch a kernel
  // steps by.
  D.RowPitch = G.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? G.SlicePitch : G.RowPitch;
  D.SlicePitch = G.SlicePitch;
  D.Width = int32_t(G.Width);
  D.Height = int32_t(G.Height);
  D.Depth = int32_t(G.Depth);
  D.ArraySize = int32_t(G.ArraySize);
  D.ChannelOrder = Format.image_channel_order;
  D.ChannelDataType = Format.image_channel_data_type;
  D.ElementSize = uint32_t(I->ElementSize);
  D.Type = G.Type;
  return I;
}

BufferRect Image::rect(const Region3 &Origin) const {
  // A 1D array's second coordinate is its layer, a slice pitch apart.
  const size_t Row =
      Geometry.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? Geometry.SlicePitch : Geometry.RowPitch;
  return {{Origin[0] * ElementSize, Origin[1], Origin[2]}, Row, Geometry.SlicePitch};
}

Region3 Image::byteRegion(const Region3 &Region) const {
  return {Region[0] * ElementSize, Region[1], Region[2]};
}

Region3 Image::extent() const {
  const ImageGeometry &G = Geometry;
  Region3 Extent = {G.Width, 1, 1};
  switch (G.Type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    Extent[1] = G.ArraySize;
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    Extent[1] = G.Height;
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    Extent[1] = G.Height;
    Extent[2] = G.ArraySize;
    break;
  case CL_MEM_OBJECT_IMAGE3D:
    Extent[1] = G.Height;
    Extent[2] = G.Depth;
    break;
  default:
    break;
  }
  return Extent;
}

bool Image::regionValid(const size_t *Origin, const size_t *Region) const {
  const Region3 Extent = extent();
  for (int D = 0; D < 3; ++D) {
    // Unused coordinates: origin 0 and region 1; every extent at least 1.
    if (Region[D] == 0 || Origin[D] > Extent[D] || Region[D] > Extent[D] - Origin[D])
      return false;
  }
  return true;
}

} // namespace weft::rt
