// Images: clCreateImage and its variants, clGetImageInfo,
// clGetSupportedImageFormats, and every clEnqueue* on images (ImageCommands.h).
#include "runtime/api/Api.h"
#include "runtime/api/Entry.h"
#include "runtime/commands/ImageCommands.h"
#include "runtime/commands/MemoryCommands.h"
#include "runtime/memory/ImageFormat.h"
#include "runtime/platform/Capabilities.h"

namespace weft::api {

static_assert(Images.Supported, "the image entry points answer as a device with images");

namespace {

/// Whether two channel orders may view one image's pixels (a 2D image made
/// from another): the same order, or the sRGB and linear forms of one, or
/// CL_DEPTH and CL_R.
bool ordersCompatible(cl_channel_order A, cl_channel_order B) {
  auto Linear = [](cl_channel_order O) -> cl_channel_order {
    switch (O) {
    case CL_sRGB:
      return CL_RGB;
    case CL_sRGBx:
      return CL_RGBx;
    case CL_sRGBA:
      return CL_RGBA;
    case CL_sBGRA:
      return CL_BGRA;
    case CL_DEPTH:
      return CL_R;
    default:
      return O;
    }
  };
  return Linear(A) == Linear(B);
}

/// The cl_image_desc sizes against the device limits ("CL_INVALID_IMAGE_SIZE
/// if the image dimensions specified in image_desc are not valid or exceed
/// the maximum image dimensions").
Status checkImageSize(const cl_image_desc &D, size_t MaxBufferPixels) {
  auto Within = [](size_t V, size_t Max) { return V >= 1 && V <= Max; };
  bool Ok = true;
  switch (D.image_type) {
  case CL_MEM_OBJECT_IMAGE1D:
    Ok = Within(D.image_width, Images.Max2DWidth);
    break;
  case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    Ok = Within(D.image_width, MaxBufferPixels);
    break;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    Ok =
        Within(D.image_width, Images.Max2DWidth) && Within(D.image_array_size, Images.MaxArraySize);
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    Ok = Within(D.image_width, Images.Max2DWidth) && Within(D.image_height, Images.Max2DHeight);
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    Ok = Within(D.image_width, Images.Max2DWidth) && Within(D.image_height, Images.Max2DHeight) &&
         Within(D.image_array_size, Images.MaxArraySize);
    break;
  case CL_MEM_OBJECT_IMAGE3D:
    Ok = Within(D.image_width, Images.Max3DWidth) && Within(D.image_height, Images.Max3DHeight) &&
         Within(D.image_depth, Images.Max3DDepth);
    break;
  }
  WEFT_CHECK(!Ok, CL_INVALID_IMAGE_SIZE, "the image dimensions are 0 or above the device's limits");
  return {};
}

/// The geometry cl_image_desc describes, with its pitches checked and the
/// zero ones resolved (as the application's memory lays the image out).
Result<ImageGeometry> geometry(const cl_image_desc &D, size_t Element, bool PitchesAllowed) {
  const cl_mem_object_type T = D.image_type;
  const bool Array1D = T == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  const bool Has3 = T == CL_MEM_OBJECT_IMAGE3D || T == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  ImageGeometry G{T, D.image_width, 1, 1, 1, D.image_row_pitch, D.image_slice_pitch};
  if (T == CL_MEM_OBJECT_IMAGE2D || Has3)
    G.Height = D.image_height;
  if (T == CL_MEM_OBJECT_IMAGE3D)
    G.Depth = D.image_depth;
  if (Array1D || T == CL_MEM_OBJECT_IMAGE2D_ARRAY)
    G.ArraySize = D.image_array_size;
  // "The image_row_pitch must be zero if host_ptr is NULL and the image is
  // not a 2D image created from a buffer"; so the slice pitch.
  WEFT_CHECK(!PitchesAllowed && G.RowPitch != 0, CL_INVALID_IMAGE_DESCRIPTOR,
             "image_row_pitch is not 0 without host_ptr");
  WEFT_CHECK(!PitchesAllowed && G.SlicePitch != 0, CL_INVALID_IMAGE_DESCRIPTOR,
             "image_slice_pitch is not 0 without host_ptr");
  const bool UsesSlice = Array1D || Has3;
  // A pitch this large makes an image beyond any allocation; refusing it
  // here keeps the products below from overflowing.
  constexpr size_t MaxPitch = size_t(1) << 40;
  WEFT_CHECK(G.RowPitch > MaxPitch || G.SlicePitch > MaxPitch, CL_INVALID_IMAGE_SIZE,
             "the image's pitches make it larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  const size_t MinRow = G.Width * Element;
  if (G.RowPitch == 0)
    G.RowPitch = MinRow;
  WEFT_CHECK(G.RowPitch < MinRow || G.RowPitch % Element, CL_INVALID_IMAGE_DESCRIPTOR,
             "image_row_pitch is less than the width times the element size, or no multiple "
             "of the element size");
  const size_t MinSlice = Array1D ? G.RowPitch : G.RowPitch * G.Height;
  if (!UsesSlice || G.SlicePitch == 0)
    G.SlicePitch = UsesSlice ? MinSlice : 0;
  WEFT_CHECK(UsesSlice && (G.SlicePitch < MinSlice || G.SlicePitch % G.RowPitch),
             CL_INVALID_IMAGE_DESCRIPTOR,
             "image_slice_pitch is less than the slice's size, or no multiple of the row pitch");
  return G;
}

Result<cl_mem> createImage(cl_context C, const cl_mem_properties *Properties, cl_mem_flags Flags,
                           const cl_image_format *Format, const cl_image_desc *Desc,
                           void *HostPtr) {
  WEFT_TRY(Ctx, get<Context>(C));
  WEFT_TRY(Props, memProperties(Properties));
  if (Status S = checkMemFlags(Flags); !S)
    return S.error();
  WEFT_CHECK(!Format, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format is NULL");
  WEFT_CHECK(!imageFormatDefined(*Format), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
             "the channel order and data type are no format the specification defines");
  WEFT_CHECK(!Desc, CL_INVALID_IMAGE_DESCRIPTOR, "image_desc is NULL");
  WEFT_CHECK(!Image::isType(Desc->image_type), CL_INVALID_IMAGE_DESCRIPTOR,
             "image_type is not an image type");
  WEFT_CHECK(Desc->num_mip_levels != 0 || Desc->num_samples != 0, CL_INVALID_IMAGE_DESCRIPTOR,
             "num_mip_levels and num_samples must be 0");
  const size_t Element = imageElementSize(*Format);
  WEFT_CHECK(!Element || !imageFormatSupported(*Format, Desc->image_type),
             CL_IMAGE_FORMAT_NOT_SUPPORTED,
             "the device does not support this format for this image type");

  // The memory object the image is made from: a buffer for a 1D image
  // buffer or a 2D image, a 2D image for a 2D image.
  MemObject *Of = nullptr;
  if (Desc->mem_object) {
    Of = fromHandle<MemObject>(Desc->mem_object);
    WEFT_CHECK(!Of, CL_INVALID_IMAGE_DESCRIPTOR, "mem_object is not a valid memory object");
    WEFT_CHECK(&Of->context() != Ctx, CL_INVALID_IMAGE_DESCRIPTOR,
               "mem_object belongs to another context");
    const bool FromBuffer = Of->as<Buffer>() != nullptr;
    WEFT_CHECK(FromBuffer && Desc->image_type != CL_MEM_OBJECT_IMAGE1D_BUFFER &&
                   Desc->image_type != CL_MEM_OBJECT_IMAGE2D,
               CL_INVALID_IMAGE_DESCRIPTOR,
               "only a 1D image buffer or a 2D image is made from a buffer");
    WEFT_CHECK(!FromBuffer && (Of->type() != CL_MEM_OBJECT_IMAGE2D ||
                               Desc->image_type != CL_MEM_OBJECT_IMAGE2D),
               CL_INVALID_IMAGE_DESCRIPTOR, "only a 2D image is made from another 2D image");
  }
  WEFT_CHECK(Desc->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER && !Of, CL_INVALID_IMAGE_DESCRIPTOR,
             "a 1D image buffer needs a buffer in mem_object");

  size_t MaxBufferPixels = Images.MaxBufferSize;
  if (Status S = checkImageSize(*Desc, MaxBufferPixels); !S)
    return S.error();

  const bool NeedsPtr = Flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
  if (Of) {
    WEFT_TRY(Inherited, inheritMemFlags(Flags, Of->flags()));
    Flags = Inherited;
    WEFT_CHECK(HostPtr, CL_INVALID_HOST_PTR, "host_ptr given for an image made from mem_object");
  } else {
    WEFT_CHECK(NeedsPtr && !HostPtr, CL_INVALID_HOST_PTR,
               "host_ptr is NULL with CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR");
    WEFT_CHECK(!NeedsPtr && HostPtr, CL_INVALID_HOST_PTR,
               "host_ptr given without CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR");
  }

  const bool FromBuffer = Of && Of->as<Buffer>();
  WEFT_TRY(G, geometry(*Desc, Element, HostPtr != nullptr || Of));
  if (FromBuffer) {
    // cl_khr_image2d_from_buffer: "the image_row_pitch must also be a
    // multiple of ... CL_DEVICE_IMAGE_PITCH_ALIGNMENT" (in pixels); the
    // specification files this under CL_INVALID_IMAGE_FORMAT_DESCRIPTOR.
    WEFT_CHECK(G.Type == CL_MEM_OBJECT_IMAGE2D && G.RowPitch % (Images.PitchAlignment * Element),
               CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
               "image_row_pitch is no multiple of CL_DEVICE_IMAGE_PITCH_ALIGNMENT pixels");
    // "If the buffer object specified by mem_object was created with
    // CL_MEM_USE_HOST_PTR, the host_ptr ... must be aligned to ...
    // CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT" pixels (of a power-of-two
    // size; our own allocations are aligned for every format).
    const bool PowerOfTwo = (Element & (Element - 1)) == 0;
    WEFT_CHECK((Of->flags() & CL_MEM_USE_HOST_PTR) && PowerOfTwo &&
                   reinterpret_cast<uintptr_t>(Of->data()) %
                       (Images.BaseAddressAlignment * Element),
               CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
               "the buffer's host_ptr is not aligned to CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT");
    WEFT_CHECK(imageBytes(G) > Of->size(), CL_INVALID_IMAGE_SIZE,
               "the buffer is too small for the image");
  } else if (Of) {
    // "All of the values specified in image_desc must match the image
    // descriptor information associated with mem_object", and the formats
    // differ only in an sRGB or depth reading of the same pixels.
    const Image &Base = *Of->as<Image>();
    const ImageGeometry &B = Base.geometry();
    WEFT_CHECK(G.Width != B.Width || G.Height != B.Height ||
                   (Desc->image_row_pitch != 0 && G.RowPitch != B.RowPitch),
               CL_INVALID_IMAGE_DESCRIPTOR, "image_desc does not match mem_object's");
    WEFT_CHECK(
        Format->image_channel_data_type != Base.format().image_channel_data_type ||
            !ordersCompatible(Format->image_channel_order, Base.format().image_channel_order),
        CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "the format cannot view mem_object's pixels");
    G.RowPitch = B.RowPitch;
  }
  for (Device *D : Ctx->devices())
    WEFT_CHECK(imageBytes(G) > D->props().MaxMemAllocSize, CL_INVALID_IMAGE_SIZE,
               "the image is larger than CL_DEVICE_MAX_MEM_ALLOC_SIZE");
  WEFT_TRY(Img, Image::create(*Ctx, Flags, *Format, G, HostPtr, Of, std::move(Props)));
  return static_cast<cl_mem>(Img.release());
}

Result<InfoValue> imageInfo(const Image &I, cl_image_info Param) {
  const ImageGeometry &G = I.geometry();
  const cl_mem_object_type T = G.Type;
  const bool Array = T == CL_MEM_OBJECT_IMAGE1D_ARRAY || T == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  switch (Param) {
  case CL_IMAGE_FORMAT:
    return InfoValue(I.format());
  case CL_IMAGE_ELEMENT_SIZE:
    return InfoValue(I.elementSize());
  case CL_IMAGE_ROW_PITCH:
    return InfoValue(G.RowPitch);
  case CL_IMAGE_SLICE_PITCH:
    return InfoValue(size_t(Array || T == CL_MEM_OBJECT_IMAGE3D ? G.SlicePitch : 0));
  case CL_IMAGE_WIDTH:
    return InfoValue(G.Width);
  case CL_IMAGE_HEIGHT:
    return InfoValue(size_t(T == CL_MEM_OBJECT_IMAGE2D || T == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                                    T == CL_MEM_OBJECT_IMAGE3D
                                ? G.Height
                                : 0));
  case CL_IMAGE_DEPTH:
    return InfoValue(size_t(T == CL_MEM_OBJECT_IMAGE3D ? G.Depth : 0));
  case CL_IMAGE_ARRAY_SIZE:
    return InfoValue(size_t(Array ? G.ArraySize : 0));
  case CL_IMAGE_BUFFER: // the buffer the image was made from
    return InfoValue(static_cast<cl_mem>(
        I.associated() && I.associated()->as<Buffer>() ? I.associated() : nullptr));
  case CL_IMAGE_NUM_MIP_LEVELS:
  case CL_IMAGE_NUM_SAMPLES:
    return InfoValue(cl_uint(0));
  default:
    return makeError(CL_INVALID_VALUE, "unknown cl_image_info " + std::to_string(Param));
  }
}

/// An image that must belong to the queue's context.
Result<Image *> image(const Enqueue &E, cl_mem M) { return memObjectOf<Image>(E, M, "an image"); }

/// origin and region: given, following the rules of I's type, inside I.
Status checkRegion(const Image &I, const size_t *Origin, const size_t *Region) {
  WEFT_CHECK(!Origin || !Region, CL_INVALID_VALUE, "origin or region is NULL");
  WEFT_CHECK(!I.regionValid(Origin, Region), CL_INVALID_VALUE,
             "the region is out of the image's bounds, or does not follow the rules of its type");
  return {};
}

Region3 triple(const size_t *V) { return {V[0], V[1], V[2]}; }

/// The host memory of clEnqueueReadImage and WriteImage: its pitches
/// resolved and checked, as a rectangle whose rows and slices step the
/// region's second and third coordinate (a 1D array's layers are a slice
/// pitch apart).
Result<BufferRect> hostRect(const Image &I, const size_t *Region, size_t RowPitch,
                            size_t SlicePitch) {
  const cl_mem_object_type T = I.type();
  const size_t MinRow = Region[0] * I.elementSize();
  if (RowPitch == 0)
    RowPitch = MinRow;
  WEFT_CHECK(RowPitch < MinRow, CL_INVALID_VALUE, "row_pitch is less than the region's row");
  if (T == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
    if (SlicePitch == 0)
      SlicePitch = RowPitch;
    WEFT_CHECK(SlicePitch < RowPitch, CL_INVALID_VALUE, "slice_pitch is less than row_pitch");
    return BufferRect{{0, 0, 0}, SlicePitch, SlicePitch};
  }
  if (T == CL_MEM_OBJECT_IMAGE3D || T == CL_MEM_OBJECT_IMAGE2D_ARRAY) {
    if (SlicePitch == 0)
      SlicePitch = RowPitch * Region[1];
    WEFT_CHECK(SlicePitch < RowPitch * Region[1], CL_INVALID_VALUE,
               "slice_pitch is less than row_pitch times region[1]");
    return BufferRect{{0, 0, 0}, RowPitch, SlicePitch};
  }
  // "slice_pitch ... must be 0 if image is a 1D or 2D image."
  WEFT_CHECK(SlicePitch != 0, CL_INVALID_VALUE, "slice_pitch is not 0 for a 1D or 2D image");
  return BufferRect{{0, 0, 0}, RowPitch, RowPitch * Region[1]};
}

Status transfer(cl_command_queue Q, cl_mem M, bool IsRead, bool Blocking, const size_t *Origin,
                const size_t *Region, size_t RowPitch, size_t SlicePitch, void *Ptr,
                cl_uint NumEvents, const cl_event *Events, cl_event *Out) {
  WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
  WEFT_TRY(I, image(E, M));
  if (Status S = checkRegion(*I, Origin, Region); !S)
    return S;
  WEFT_CHECK(!Ptr, CL_INVALID_VALUE, "ptr is NULL");
  WEFT_TRY(Host, hostRect(*I, Region, RowPitch, SlicePitch));
  WEFT_CHECK(IsRead && hostCannotRead(*I), CL_INVALID_OPERATION,
             "reading an image the host may not read");
  WEFT_CHECK(!IsRead && hostCannotWrite(*I), CL_INVALID_OPERATION,
             "writing an image the host may not write");
  RectEnd InImage{Ref<MemObject>(I), I->data(), I->rect(triple(Origin))};
  RectEnd InHost{{}, static_cast<char *>(Ptr), Host};
  return submitNew<ImageRectCopyCommand>(
      E, Out, Blocking, IsRead ? CL_COMMAND_READ_IMAGE : CL_COMMAND_WRITE_IMAGE,
      IsRead ? InImage : InHost, IsRead ? InHost : InImage, I->byteRegion(triple(Region)));
}

/// Whether two boxes of one image intersect.
bool boxesOverlap(const size_t *A, const size_t *B, const size_t *Region) {
  for (int D = 0; D < 3; ++D)
    if (A[D] + Region[D] <= B[D] || B[D] + Region[D] <= A[D])
      return false;
  return true;
}

/// clEnqueueCopyImageToBuffer (ToBuffer) and CopyBufferToImage.
Status imageBufferCopy(cl_command_queue Q, cl_mem ImageHandle, cl_mem BufferHandle, bool ToBuffer,
                       const size_t *Origin, const size_t *Region, size_t Offset, cl_uint NumEvents,
                       const cl_event *Events, cl_event *Out) {
  WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
  WEFT_TRY(I, image(E, ImageHandle));
  WEFT_TRY(B, memObjectOf<Buffer>(E, BufferHandle, "a buffer"));
  // "if the image is a 1D image buffer object created from the buffer".
  WEFT_CHECK(I->associated() == B, CL_INVALID_MEM_OBJECT,
             "the image is a 1D image buffer made from the buffer");
  if (Status S = checkRegion(*I, Origin, Region); !S)
    return S;
  const Region3 Bytes = I->byteRegion(triple(Region));
  const size_t Size = Bytes[0] * Bytes[1] * Bytes[2];
  WEFT_CHECK(!B->contains(Offset, Size), CL_INVALID_VALUE,
             "the buffer region is out of the buffer's bounds");
  RectEnd InImage{Ref<MemObject>(I), I->data(), I->rect(triple(Origin))};
  RectEnd InBuffer{Ref<MemObject>(B), B->data(), {{Offset, 0, 0}, Bytes[0], Bytes[0] * Bytes[1]}};
  return submitNew<ImageRectCopyCommand>(
      E, Out, false, ToBuffer ? CL_COMMAND_COPY_IMAGE_TO_BUFFER : CL_COMMAND_COPY_BUFFER_TO_IMAGE,
      ToBuffer ? InImage : InBuffer, ToBuffer ? InBuffer : InImage, Bytes);
}

/// clCreateImage2D and clCreateImage3D: clCreateImage of Desc, with their
/// own error list, in which a pitch that breaks the rules is
/// CL_INVALID_IMAGE_SIZE, and so is a 3D image of depth 1.
Result<cl_mem> createLegacyImage(cl_context C, cl_mem_flags Flags, const cl_image_format *Format,
                                 const cl_image_desc &Desc, void *HostPtr) {
  WEFT_VALID(Context, C);
  WEFT_CHECK(Desc.image_type == CL_MEM_OBJECT_IMAGE3D && Desc.image_depth <= 1,
             CL_INVALID_IMAGE_SIZE, "image_depth is not above 1");
  Result<cl_mem> R = createImage(C, nullptr, Flags, Format, &Desc, HostPtr);
  if (!R && R.error().Code == CL_INVALID_IMAGE_DESCRIPTOR)
    return makeError(CL_INVALID_IMAGE_SIZE, R.error().Why);
  return R;
}

} // namespace

cl_mem CL_API_CALL clCreateImage(cl_context C, cl_mem_flags Flags, const cl_image_format *Format,
                                 const cl_image_desc *Desc, void *HostPtr, cl_int *ErrcodeRet) {
  return create<cl_mem>(ErrcodeRet,
                        [&] { return createImage(C, nullptr, Flags, Format, Desc, HostPtr); });
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context C, const cl_mem_properties *Properties,
                                               cl_mem_flags Flags, const cl_image_format *Format,
                                               const cl_image_desc *Desc, void *HostPtr,
                                               cl_int *ErrcodeRet) {
  return create<cl_mem>(ErrcodeRet,
                        [&] { return createImage(C, Properties, Flags, Format, Desc, HostPtr); });
}

cl_mem CL_API_CALL clCreateImage2D(cl_context C, cl_mem_flags Flags, const cl_image_format *Format,
                                   size_t Width, size_t Height, size_t RowPitch, void *HostPtr,
                                   cl_int *ErrcodeRet) {
  cl_image_desc Desc{};
  Desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  Desc.image_width = Width;
  Desc.image_height = Height;
  Desc.image_row_pitch = RowPitch;
  return create<cl_mem>(ErrcodeRet,
                        [&] { return createLegacyImage(C, Flags, Format, Desc, HostPtr); });
}

cl_mem CL_API_CALL clCreateImage3D(cl_context C, cl_mem_flags Flags, const cl_image_format *Format,
                                   size_t Width, size_t Height, size_t Depth, size_t RowPitch,
                                   size_t SlicePitch, void *HostPtr, cl_int *ErrcodeRet) {
  cl_image_desc Desc{};
  Desc.image_type = CL_MEM_OBJECT_IMAGE3D;
  Desc.image_width = Width;
  Desc.image_height = Height;
  Desc.image_depth = Depth;
  Desc.image_row_pitch = RowPitch;
  Desc.image_slice_pitch = SlicePitch;
  return create<cl_mem>(ErrcodeRet,
                        [&] { return createLegacyImage(C, Flags, Format, Desc, HostPtr); });
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context C, cl_mem_flags Flags,
                                              cl_mem_object_type Type, cl_uint NumEntries,
                                              cl_image_format *Formats, cl_uint *NumFormats) {
  return entry([&]() -> Status {
    WEFT_VALID(Context, C);
    // CL_MEM_KERNEL_READ_AND_WRITE asks for formats kernels both read and
    // write: here the same list.
    if (Status S = checkMemFlags(Flags & ~cl_mem_flags(CL_MEM_KERNEL_READ_AND_WRITE)); !S)
      return S;
    WEFT_CHECK(!Image::isType(Type), CL_INVALID_VALUE, "image_type is not an image type");
    WEFT_CHECK(NumEntries == 0 && Formats, CL_INVALID_VALUE, "num_entries is 0");
    const std::vector<cl_image_format> List = supportedImageFormats(Type);
    if (Formats)
      for (size_t I = 0; I < List.size() && I < NumEntries; ++I)
        Formats[I] = List[I];
    if (NumFormats)
      *NumFormats = cl_uint(List.size());
    return {};
  });
}

cl_int CL_API_CALL clGetImageInfo(cl_mem M, cl_image_info Param, size_t Size, void *Value,
                                  size_t *SizeRet) {
  return entry([&]() -> Status {
    WEFT_TRY(Mem, get<MemObject>(M));
    const Image *I = Mem->as<Image>();
    WEFT_CHECK(!I, CL_INVALID_MEM_OBJECT, "not an image object");
    WEFT_TRY(Info, imageInfo(*I, Param));
    return Info.write(Size, Value, SizeRet);
  });
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue Q, cl_mem M, cl_bool Blocking,
                                      const size_t *Origin, const size_t *Region, size_t RowPitch,
                                      size_t SlicePitch, void *Ptr, cl_uint NumEvents,
                                      const cl_event *Events, cl_event *Out) {
  return entry([&] {
    return transfer(Q, M, true, Blocking, Origin, Region, RowPitch, SlicePitch, Ptr, NumEvents,
                    Events, Out);
  });
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue Q, cl_mem M, cl_bool Blocking,
                                       const size_t *Origin, const size_t *Region, size_t RowPitch,
                                       size_t SlicePitch, const void *Ptr, cl_uint NumEvents,
                                       const cl_event *Events, cl_event *Out) {
  return entry([&] {
    return transfer(Q, M, false, Blocking, Origin, Region, RowPitch, SlicePitch,
                    const_cast<void *>(Ptr), NumEvents, Events, Out);
  });
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue Q, cl_mem Src, cl_mem Dst,
                                      const size_t *SrcOrigin, const size_t *DstOrigin,
                                      const size_t *Region, cl_uint NumEvents,
                                      const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    WEFT_TRY(S, image(E, Src));
    WEFT_TRY(D, image(E, Dst));
    WEFT_CHECK(S->format().image_channel_order != D->format().image_channel_order ||
                   S->format().image_channel_data_type != D->format().image_channel_data_type,
               CL_IMAGE_FORMAT_MISMATCH, "the images have different formats");
    if (Status St = checkRegion(*S, SrcOrigin, Region); !St)
      return St;
    if (Status St = checkRegion(*D, DstOrigin, Region); !St)
      return St;
    WEFT_CHECK(S == D && boxesOverlap(SrcOrigin, DstOrigin, Region), CL_MEM_COPY_OVERLAP,
               "the source and destination regions of one image overlap");
    return submitNew<ImageRectCopyCommand>(
        E, Out, false, CL_COMMAND_COPY_IMAGE,
        RectEnd{Ref<MemObject>(S), S->data(), S->rect(triple(SrcOrigin))},
        RectEnd{Ref<MemObject>(D), D->data(), D->rect(triple(DstOrigin))},
        S->byteRegion(triple(Region)));
  });
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue Q, cl_mem Src, cl_mem Dst,
                                              const size_t *SrcOrigin, const size_t *Region,
                                              size_t DstOffset, cl_uint NumEvents,
                                              const cl_event *Events, cl_event *Out) {
  return entry([&] {
    return imageBufferCopy(Q, Src, Dst, true, SrcOrigin, Region, DstOffset, NumEvents, Events, Out);
  });
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue Q, cl_mem Src, cl_mem Dst,
                                              size_t SrcOffset, const size_t *DstOrigin,
                                              const size_t *Region, cl_uint NumEvents,
                                              const cl_event *Events, cl_event *Out) {
  return entry([&] {
    return imageBufferCopy(Q, Dst, Src, false, DstOrigin, Region, SrcOffset, NumEvents, Events,
                           Out);
  });
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue Q, cl_mem M, const void *Color,
                                      const size_t *Origin, const size_t *Region, cl_uint NumEvents,
                                      const cl_event *Events, cl_event *Out) {
  return entry([&]() -> Status {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    WEFT_TRY(I, image(E, M));
    WEFT_CHECK(!Color, CL_INVALID_VALUE, "fill_color is NULL");
    if (Status S = checkRegion(*I, Origin, Region); !S)
      return S;
    return submitNew<FillImageCommand>(E, Out, false, *I, packImageColor(I->format(), Color),
                                       triple(Origin), triple(Region));
  });
}

void *CL_API_CALL clEnqueueMapImage(cl_command_queue Q, cl_mem M, cl_bool Blocking,
                                    cl_map_flags Flags, const size_t *Origin, const size_t *Region,
                                    size_t *RowPitch, size_t *SlicePitch, cl_uint NumEvents,
                                    const cl_event *Events, cl_event *Out, cl_int *ErrcodeRet) {
  return create<void *>(ErrcodeRet, [&]() -> Result<void *> {
    WEFT_TRY(E, beginEnqueue(Q, NumEvents, Events));
    WEFT_TRY(I, image(E, M));
    if (Status S = checkMapFlags(Flags); !S)
      return S.error();
    if (Status S = checkRegion(*I, Origin, Region); !S)
      return S.error();
    WEFT_CHECK(!RowPitch, CL_INVALID_VALUE, "image_row_pitch is NULL");
    const cl_mem_object_type T = I->type();
    const bool Slices = T == CL_MEM_OBJECT_IMAGE3D || T == CL_MEM_OBJECT_IMAGE1D_ARRAY ||
                        T == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    WEFT_CHECK(Slices && !SlicePitch, CL_INVALID_VALUE,
               "image_slice_pitch is NULL for a 3D image or an image array");
    // Zero-copy: the mapped pointer is the image's memory, with its pitches
    // (written once the map is enqueued).
    void *Ptr = I->data() + I->rect(triple(Origin)).offset();
    WEFT_TRY(Mapped, enqueueMap(E, *I, Flags, Ptr, CL_COMMAND_MAP_IMAGE, Blocking, Out));
    *RowPitch = I->geometry().RowPitch;
    if (SlicePitch)
      *SlicePitch = Slices ? I->geometry().SlicePitch : 0;
    return Mapped;
  });
}

} // namespace weft::api
