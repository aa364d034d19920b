// Images and samplers through the ICD loader, host side: the device's image
// limits and format lists, clCreateImage for every image type (and its
// deprecated and with-properties forms) with its queries and one negative
// test per error code it returns, samplers with their queries and errors,
// and image and sampler kernel arguments. The image commands and the
// host-pointer images are in ImageCommandTest.cpp, kernels that use images
// in ImageKernelTest.cpp and ImageKernelAccessTest.cpp.
#include "ImageTestUtil.h"

#include <map>

using namespace weft::test;

namespace {

/// The formats Weft must list for Flags and Type: the full-profile
/// minimum lists of OpenCL 2.0 to 2.2, which OpenCL C 2.0 programs count
/// on (OpenCL 3.0 itself asks for less: CL_RGBA without the SNORM types,
/// and CL_BGRA).
std::vector<cl_image_format> requiredFormats(cl_mem_flags Flags, cl_mem_object_type Type) {
  std::vector<cl_image_format> R;
  if (Flags == CL_MEM_KERNEL_READ_AND_WRITE) {
    for (cl_channel_order O : {CL_R, CL_RGBA})
      for (cl_channel_type T : AllDataTypes)
        if (T != CL_UNORM_INT16 && T != CL_SNORM_INT8 && T != CL_SNORM_INT16)
          R.push_back({O, T});
    return R;
  }
  for (cl_channel_order O : {CL_R, CL_RG, CL_RGBA})
    for (cl_channel_type T : AllDataTypes)
      R.push_back({O, T});
  R.push_back({CL_BGRA, CL_UNORM_INT8});
  // Reading sRGBA is optional for 1D image buffers, writing it for all types.
  if (Flags == CL_MEM_READ_ONLY && Type != CL_MEM_OBJECT_IMAGE1D_BUFFER)
    R.push_back({CL_sRGBA, CL_UNORM_INT8});
  // CL_DEPTH is required for 2D images and 2D arrays only.
  if (Type == CL_MEM_OBJECT_IMAGE2D || Type == CL_MEM_OBJECT_IMAGE2D_ARRAY) {
    R.push_back({CL_DEPTH, CL_UNORM_INT16});
    R.push_back({CL_DEPTH, CL_FLOAT});
  }
  return R;
}

} // namespace

TEST_F(Images, DeviceReportsImagesAndTheirLimits) {
  EXPECT_EQ(info<cl_bool>(clGetDeviceInfo, Device, CL_DEVICE_IMAGE_SUPPORT), cl_bool(CL_TRUE));
  auto sizeQ = [&](cl_device_info P) { return info<size_t>(clGetDeviceInfo, Device, P); };
  auto uintQ = [&](cl_device_info P) { return info<cl_uint>(clGetDeviceInfo, Device, P); };
  EXPECT_GE(sizeQ(CL_DEVICE_IMAGE2D_MAX_WIDTH), 16384u);
  EXPECT_GE(sizeQ(CL_DEVICE_IMAGE2D_MAX_HEIGHT), 16384u);
  EXPECT_GE(sizeQ(CL_DEVICE_IMAGE3D_MAX_WIDTH), 2048u);
  EXPECT_GE(sizeQ(CL_DEVICE_IMAGE3D_MAX_HEIGHT), 2048u);
  EXPECT_GE(sizeQ(CL_DEVICE_IMAGE3D_MAX_DEPTH), 2048u);
  EXPECT_GE(sizeQ(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE), 2048u);
  EXPECT_GE(sizeQ(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE), 65536u);
  EXPECT_GE(uintQ(CL_DEVICE_MAX_READ_IMAGE_ARGS), 128u);
  EXPECT_GE(uintQ(CL_DEVICE_MAX_WRITE_IMAGE_ARGS), 64u);
  EXPECT_GE(uintQ(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS), 64u);
  EXPECT_GE(uintQ(CL_DEVICE_MAX_SAMPLERS), 16u);
  // 2D images from buffers: both alignments nonzero powers of two.
  for (cl_device_info P :
       {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT}) {
    cl_uint A = uintQ(P);
    EXPECT_NE(A, 0u) << P;
    EXPECT_EQ(A & (A - 1), 0u) << P;
  }
  EXPECT_TRUE(hasFeature("__opencl_c_images"));
  EXPECT_TRUE(hasFeature("__opencl_c_read_write_images"));
  // And the compiler defines the macros.
  cl_kernel K = kernel("__kernel void k(__global int *o) {\n"
                       "#if defined(__opencl_c_images) && defined(__opencl_c_read_write_images)\n"
                       "  *o = 1;\n#else\n  *o = 2;\n#endif\n}",
                       "k", "-cl-std=CL3.0");
  cl_mem Out = buffer(sizeof(int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  size_t One = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &One, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read<int>(Out, 1)[0], 1);
}

TEST_F(Images, SupportedFormatsIncludeTheMinimumLists) {
  const bool Writes3D = hasFeature("__opencl_c_3d_image_writes");
  for (cl_mem_flags Flags :
       {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE, CL_MEM_KERNEL_READ_AND_WRITE})
    for (cl_mem_object_type Type : AllImageTypes) {
      SCOPED_TRACE(testing::Message() << "flags " << Flags << ", type " << std::hex << Type);
      std::vector<cl_image_format> Have = supported(Flags, Type);
      for (size_t I = 0; I < Have.size(); ++I)
        for (size_t J = I + 1; J < Have.size(); ++J)
          EXPECT_FALSE(sameFormat(Have[I], Have[J])) << "listed twice";
      if (Type == CL_MEM_OBJECT_IMAGE3D && Flags != CL_MEM_READ_ONLY && !Writes3D)
        continue; // writing 3D images is optional in OpenCL 3.0
      for (const cl_image_format &F : requiredFormats(Flags, Type))
        EXPECT_TRUE(std::any_of(Have.begin(), Have.end(),
                                [&](const cl_image_format &H) { return sameFormat(H, F); }))
            << "missing " << std::hex << F.image_channel_order << "/" << F.image_channel_data_type;
    }
}

TEST_F(Images, SupportedFormatsCountsAndErrors) {
  cl_uint Num = 0;
  ASSERT_EQ(clGetSupportedImageFormats(Context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, nullptr,
                                       &Num),
            CL_SUCCESS);
  ASSERT_GT(Num, 4u);
  // Fewer entries than there are formats: only those are written, and the
  // count is still the whole list's.
  std::vector<cl_image_format> Some(Num, cl_image_format{0x7777, 0x7777});
  cl_uint Total = 0;
  ASSERT_EQ(clGetSupportedImageFormats(Context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 3,
                                       Some.data(), &Total),
            CL_SUCCESS);
  EXPECT_EQ(Total, Num);
  std::vector<cl_image_format> All = supported(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D);
  for (size_t I = 0; I < Num; ++I)
    EXPECT_TRUE(sameFormat(Some[I], I < 3 ? All[I] : cl_image_format{0x7777, 0x7777})) << I;
  // A NULL count is ignored.
  EXPECT_EQ(clGetSupportedImageFormats(Context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 1,
                                       Some.data(), nullptr),
            CL_SUCCESS);

  auto query = [&](cl_context C, cl_mem_flags F, cl_mem_object_type T, cl_uint N,
                   cl_image_format *Out) {
    return clGetSupportedImageFormats(C, F, T, N, Out, &Num);
  };
  EXPECT_EQ(query(Context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, Some.data()),
            CL_INVALID_VALUE);
  EXPECT_EQ(query(Context, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(query(Context, cl_mem_flags(1) << 40, CL_MEM_OBJECT_IMAGE2D, 0, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(query(Context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 0, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(query(Context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_PIPE, 0, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(query(Context, CL_MEM_READ_ONLY, 0x7777, 0, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(query(nullptr, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, nullptr),
            CL_INVALID_CONTEXT);
  EXPECT_EQ(
      query(wrongHandle<cl_context>(Queue), CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, nullptr),
      CL_INVALID_CONTEXT);
}

TEST_F(Images, CreateEveryTypeAndQueryIt) {
  const cl_image_format F{CL_RG, CL_FLOAT};
  const size_t E = 8;
  const size_t PitchAlign =
      info<cl_uint>(clGetDeviceInfo, Device, CL_DEVICE_IMAGE_PITCH_ALIGNMENT) * E;
  struct Case {
    Shape S;
    bool FromBuffer;
  };
  for (Case C : {Case{{CL_MEM_OBJECT_IMAGE1D, {40, 1, 1}}, false},
                 Case{{CL_MEM_OBJECT_IMAGE1D_BUFFER, {40, 1, 1}}, true},
                 Case{{CL_MEM_OBJECT_IMAGE1D_ARRAY, {24, 5, 1}}, false},
                 Case{{CL_MEM_OBJECT_IMAGE2D, {24, 12, 1}}, false},
                 Case{{CL_MEM_OBJECT_IMAGE2D_ARRAY, {16, 8, 4}}, false},
                 Case{{CL_MEM_OBJECT_IMAGE3D, {12, 8, 6}}, false},
                 Case{{CL_MEM_OBJECT_IMAGE2D, {21, 6, 1}}, true}}) {
    const Shape &S = C.S;
    SCOPED_TRACE(testing::Message()
                 << "type " << std::hex << S.Type << ", from buffer " << C.FromBuffer);
    size_t Row = S.Ext[0] * E;
    cl_mem Buf = nullptr;
    if (C.FromBuffer) {
      // A 2D image on a buffer: the row pitch is a multiple of the alignment.
      if (S.Type == CL_MEM_OBJECT_IMAGE2D)
        Row = (Row + PitchAlign) / PitchAlign * PitchAlign;
      Buf = buffer(Row * S.Ext[1]);
    }
    cl_image_desc D = descOf(S, Buf);
    if (C.FromBuffer && S.Type == CL_MEM_OBJECT_IMAGE2D)
      D.image_row_pitch = Row;
    cl_mem M = image(F, D, C.FromBuffer ? 0 : CL_MEM_READ_WRITE);
    ASSERT_NE(M, nullptr);
    const bool OneD = S.Type == CL_MEM_OBJECT_IMAGE1D || S.Type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
                      S.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    size_t Slice = S.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? Row
                   : S.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY || S.Type == CL_MEM_OBJECT_IMAGE3D
                       ? Row * S.Ext[1]
                       : 0;
    auto Format = info<cl_image_format>(clGetImageInfo, M, CL_IMAGE_FORMAT);
    EXPECT_TRUE(sameFormat(Format, F));
    EXPECT_EQ(info<size_t>(clGetImageInfo, M, CL_IMAGE_ELEMENT_SIZE), E);
    EXPECT_EQ(info<size_t>(clGetImageInfo, M, CL_IMAGE_ROW_PITCH), Row);
    EXPECT_EQ(info<size_t>(clGetImageInfo, M, CL_IMAGE_SLICE_PITCH), Slice);
    EXPECT_EQ(info<size_t>(clGetImageInfo, M, CL_IMAGE_WIDTH), S.Ext[0]);
    EXPECT_EQ(info<size_t>(clGetImageInfo, M, CL_IMAGE_HEIGHT), OneD ? 0 : S.Ext[1]);
    EXPECT_EQ(info<size_t>(clGetImageInfo, M, CL_IMAGE_DEPTH),
              S.Type == CL_MEM_OBJECT_IMAGE3D ? S.Ext[2] : 0);
    EXPECT_EQ(info<size_t>(clGetImageInfo, M, CL_IMAGE_ARRAY_SIZE),
              S.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY   ? S.Ext[1]
              : S.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? S.Ext[2]
                                                      : 0);
    EXPECT_EQ(info<cl_mem>(clGetImageInfo, M, CL_IMAGE_BUFFER), Buf);
    EXPECT_EQ(info<cl_uint>(clGetImageInfo, M, CL_IMAGE_NUM_MIP_LEVELS), 0u);
    EXPECT_EQ(info<cl_uint>(clGetImageInfo, M, CL_IMAGE_NUM_SAMPLES), 0u);

    EXPECT_EQ(info<cl_mem_object_type>(clGetMemObjectInfo, M, CL_MEM_TYPE), S.Type);
    const size_t Bytes = S.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? Slice * S.Ext[1]
                         : Slice                               ? Slice * S.Ext[2]
                                                               : Row * S.Ext[1];
    EXPECT_GE(info<size_t>(clGetMemObjectInfo, M, CL_MEM_SIZE), Bytes);
    EXPECT_EQ(info<void *>(clGetMemObjectInfo, M, CL_MEM_HOST_PTR), nullptr);
    EXPECT_EQ(info<cl_mem>(clGetMemObjectInfo, M, CL_MEM_ASSOCIATED_MEMOBJECT), Buf);
    EXPECT_EQ(info<cl_context>(clGetMemObjectInfo, M, CL_MEM_CONTEXT), Context);
    if (!C.FromBuffer) {
      EXPECT_EQ(info<cl_mem_flags>(clGetMemObjectInfo, M, CL_MEM_FLAGS),
                cl_mem_flags(CL_MEM_READ_WRITE));
    }
    // A buffer-backed image's pixels are the buffer's bytes, at its pitch.
    if (Buf) {
      const size_t Origin[3] = {3, OneD ? 0u : 2u, 0}, One[3] = {1, 1, 1};
      const float Pixel[2] = {1.25f, -7.5f};
      ASSERT_EQ(writeImage(M, Origin, One, 0, 0, Pixel), CL_SUCCESS);
      float Got[2] = {};
      ASSERT_EQ(clEnqueueReadBuffer(Queue, Buf, CL_TRUE, Origin[1] * Row + Origin[0] * E, E, Got, 0,
                                    nullptr, nullptr),
                CL_SUCCESS);
      EXPECT_EQ(Got[0], Pixel[0]);
      EXPECT_EQ(Got[1], Pixel[1]);
    }
  }
}

TEST_F(Images, ImageInfoErrors) {
  cl_mem M = image(Rgba8, Shape{CL_MEM_OBJECT_IMAGE2D, {4, 4, 1}});
  size_t V;
  EXPECT_EQ(clGetImageInfo(M, 0x7777, sizeof(V), &V, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetImageInfo(M, CL_IMAGE_WIDTH, 1, &V, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetImageInfo(M, CL_IMAGE_FORMAT, sizeof(cl_image_format) - 1, &V, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetImageInfo(buffer(64), CL_IMAGE_WIDTH, sizeof(V), &V, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clGetImageInfo(wrongHandle<cl_mem>(Queue), CL_IMAGE_WIDTH, sizeof(V), &V, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clGetImageInfo(nullptr, CL_IMAGE_WIDTH, sizeof(V), &V, nullptr), CL_INVALID_MEM_OBJECT);
}

TEST_F(Images, CreateWithPropertiesAndTheDeprecatedForms) {
  cl_image_desc D = descOf(Shape{CL_MEM_OBJECT_IMAGE2D, {8, 4, 1}});
  cl_int Err;
  auto propsSize = [&](cl_mem M) {
    size_t Size = 99;
    EXPECT_EQ(clGetMemObjectInfo(M, CL_MEM_PROPERTIES, 0, nullptr, &Size), CL_SUCCESS);
    return Size;
  };
  cl_mem A =
      clCreateImageWithProperties(Context, nullptr, CL_MEM_READ_WRITE, &Rgba8, &D, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedMems.push_back(A);
  EXPECT_EQ(propsSize(A), 0u);
  EXPECT_EQ(info<size_t>(clGetImageInfo, A, CL_IMAGE_HEIGHT), 4u);
  cl_mem_properties Empty[] = {0};
  cl_mem B =
      clCreateImageWithProperties(Context, Empty, CL_MEM_READ_WRITE, &Rgba8, &D, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedMems.push_back(B);
  EXPECT_EQ(propsSize(B), sizeof(cl_mem_properties));
  EXPECT_EQ(propsSize(image(Rgba8, D)), 0u) << "clCreateImage has no properties to report";
  cl_mem_properties Unknown[] = {0x7777, 1, 0};
  EXPECT_EQ(
      clCreateImageWithProperties(Context, Unknown, CL_MEM_READ_WRITE, &Rgba8, &D, nullptr, &Err),
      nullptr);
  EXPECT_EQ(Err, CL_INVALID_PROPERTY);

  // clCreateImage2D and clCreateImage3D with padded host data.
  std::vector<unsigned char> Host2D = pattern(24 * 3, 1), Host3D = pattern(64 * 2, 2);
  cl_mem I2 = clCreateImage2D(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &Rgba8, 5, 3, 24,
                              Host2D.data(), &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedMems.push_back(I2);
  cl_mem I3 = clCreateImage3D(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &Rgba8, 4, 3, 2,
                              16, 64, Host3D.data(), &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedMems.push_back(I3);
  EXPECT_EQ(info<cl_mem_object_type>(clGetMemObjectInfo, I2, CL_MEM_TYPE),
            cl_mem_object_type(CL_MEM_OBJECT_IMAGE2D));
  EXPECT_EQ(info<cl_mem_object_type>(clGetMemObjectInfo, I3, CL_MEM_TYPE),
            cl_mem_object_type(CL_MEM_OBJECT_IMAGE3D));
  EXPECT_EQ(info<size_t>(clGetImageInfo, I3, CL_IMAGE_DEPTH), 2u);
  const Shape S2{CL_MEM_OBJECT_IMAGE2D, {5, 3, 1}}, S3{CL_MEM_OBJECT_IMAGE3D, {4, 3, 2}};
  std::vector<unsigned char> Want2(5 * 3 * 4), Want3(4 * 3 * 2 * 4);
  const size_t Zero[3] = {0, 0, 0};
  copyRegion(S2, 4, S2.Ext, Host2D.data(), Zero, 24, 0, Want2.data(), Zero, 20, 60);
  copyRegion(S3, 4, S3.Ext, Host3D.data(), Zero, 16, 64, Want3.data(), Zero, 16, 48);
  EXPECT_EQ(readAll(I2, S2, 4), Want2);
  EXPECT_EQ(readAll(I3, S3, 4), Want3);

  // Their own error lists: sizes and pitches are CL_INVALID_IMAGE_SIZE.
  EXPECT_EQ(clCreateImage2D(Context, CL_MEM_READ_WRITE, &Rgba8, 0, 3, 0, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_IMAGE_SIZE);
  EXPECT_EQ(clCreateImage2D(Context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &Rgba8, 5, 3, 18,
                            Host2D.data(), &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_IMAGE_SIZE) << "row pitch below width * element size";
  EXPECT_EQ(clCreateImage3D(Context, CL_MEM_READ_WRITE, &Rgba8, 4, 3, 1, 0, 0, nullptr, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_IMAGE_SIZE) << "a 3D image needs a depth above 1";
  EXPECT_EQ(clCreateImage2D(Context, CL_MEM_READ_WRITE, nullptr, 5, 3, 0, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
}

TEST_F(Images, InvalidImageFormatDescriptor) {
  const cl_image_desc D = descOf(Shape{CL_MEM_OBJECT_IMAGE2D, {8, 8, 1}});
  EXPECT_EQ(createError(CL_MEM_READ_WRITE, nullptr, &D), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  // Unknown orders and types; a packed type with an order it does not
  // pack; an order and type whose bits per pixel are no power of two.
  for (cl_image_format F :
       {cl_image_format{0x7777, CL_UNORM_INT8}, cl_image_format{CL_RGBA, 0x7777},
        cl_image_format{CL_RGBA, CL_UNORM_SHORT_565}, cl_image_format{CL_R, CL_UNORM_INT_101010},
        cl_image_format{CL_RGB, CL_UNORM_INT8}, cl_image_format{CL_RGB, CL_FLOAT}}) {
    EXPECT_EQ(createError(CL_MEM_READ_WRITE, &F, &D), CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        << std::hex << F.image_channel_order << "/" << F.image_channel_data_type;
  }
}

TEST_F(Images, InvalidImageDescriptor) {
  // OpenCL 3.0.18 and earlier: "CL_INVALID_IMAGE_DESCRIPTOR if values
  // specified in image_desc are not valid or if image_desc is NULL".
  EXPECT_EQ(createError(CL_MEM_READ_WRITE, &Rgba8, nullptr), CL_INVALID_IMAGE_DESCRIPTOR);
  auto with = [](void (*Change)(cl_image_desc &)) {
    cl_image_desc D = descOf(Shape{CL_MEM_OBJECT_IMAGE2D, {16, 8, 1}});
    Change(D);
    return D;
  };
  std::vector<unsigned char> Host(64 * 8 * 4);
  struct Case {
    const char *Why;
    cl_image_desc D;
    bool HostPtr;
  } Cases[] = {
      {"not an image type", with([](cl_image_desc &D) { D.image_type = CL_MEM_OBJECT_BUFFER; }),
       false},
      {"unknown type", with([](cl_image_desc &D) { D.image_type = 0x7777; }), false},
      {"mip levels", with([](cl_image_desc &D) { D.num_mip_levels = 1; }), false},
      {"samples", with([](cl_image_desc &D) { D.num_samples = 1; }), false},
      {"row pitch without host_ptr", with([](cl_image_desc &D) { D.image_row_pitch = 64; }), false},
      {"row pitch not a multiple of the element",
       with([](cl_image_desc &D) { D.image_row_pitch = 66; }), true},
      {"row pitch below width * element", with([](cl_image_desc &D) { D.image_row_pitch = 60; }),
       true},
  };
  for (const Case &C : Cases)
    EXPECT_EQ(createError(C.HostPtr ? CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE,
                          &Rgba8, &C.D, C.HostPtr ? Host.data() : nullptr),
              CL_INVALID_IMAGE_DESCRIPTOR)
        << C.Why;
  // Slice pitches of a 3D image: below row pitch * height, not a multiple.
  cl_image_desc D3 = descOf(Shape{CL_MEM_OBJECT_IMAGE3D, {4, 4, 4}});
  D3.image_slice_pitch = 48;
  EXPECT_EQ(createError(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &Rgba8, &D3, Host.data()),
            CL_INVALID_IMAGE_DESCRIPTOR);
  D3.image_slice_pitch = 72;
  EXPECT_EQ(createError(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &Rgba8, &D3, Host.data()),
            CL_INVALID_IMAGE_DESCRIPTOR);
  // mem_object: a 1D image buffer needs one; a 3D image takes none.
  cl_image_desc B = descOf(Shape{CL_MEM_OBJECT_IMAGE1D_BUFFER, {16, 1, 1}});
  EXPECT_EQ(createError(CL_MEM_READ_WRITE, &Rgba8, &B), CL_INVALID_IMAGE_DESCRIPTOR);
  D3.image_slice_pitch = 0;
  D3.buffer = buffer(4096);
  EXPECT_EQ(createError(CL_MEM_READ_WRITE, &Rgba8, &D3), CL_INVALID_IMAGE_DESCRIPTOR);

  // A zero extent. OpenCL 3.0.18 also allows CL_INVALID_IMAGE_SIZE for
  // dimensions that "are not valid" (KhronosGroup/OpenCL-Docs#1343).
  for (void (*Zero)(cl_image_desc &) :
       {+[](cl_image_desc &D) { D.image_width = 0; }, +[](cl_image_desc &D) { D.image_height = 0; },
        +[](cl_image_desc &D) {
          D.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY;
          D.image_array_size = 0;
        },
        +[](cl_image_desc &D) {
          D.image_type = CL_MEM_OBJECT_IMAGE3D;
          D.image_depth = 0;
        }}) {
    cl_image_desc D = with(Zero);
    cl_int Err = createError(CL_MEM_READ_WRITE, &Rgba8, &D);
    EXPECT_TRUE(Err == CL_INVALID_IMAGE_DESCRIPTOR || Err == CL_INVALID_IMAGE_SIZE) << Err;
  }
}

TEST_F(Images, InvalidImageSize) {
  auto limit = [&](cl_device_info P) { return info<size_t>(clGetDeviceInfo, Device, P); };
  struct Case {
    Shape S;
    const char *Why;
  } Cases[] = {
      {{CL_MEM_OBJECT_IMAGE1D, {limit(CL_DEVICE_IMAGE2D_MAX_WIDTH) + 1, 1, 1}}, "1D width"},
      {{CL_MEM_OBJECT_IMAGE2D, {limit(CL_DEVICE_IMAGE2D_MAX_WIDTH) + 1, 1, 1}}, "2D width"},
      {{CL_MEM_OBJECT_IMAGE2D, {1, limit(CL_DEVICE_IMAGE2D_MAX_HEIGHT) + 1, 1}}, "2D height"},
      {{CL_MEM_OBJECT_IMAGE3D, {limit(CL_DEVICE_IMAGE3D_MAX_WIDTH) + 1, 1, 2}}, "3D width"},
      {{CL_MEM_OBJECT_IMAGE3D, {1, limit(CL_DEVICE_IMAGE3D_MAX_HEIGHT) + 1, 2}}, "3D height"},
      {{CL_MEM_OBJECT_IMAGE3D, {1, 1, limit(CL_DEVICE_IMAGE3D_MAX_DEPTH) + 1}}, "3D depth"},
      {{CL_MEM_OBJECT_IMAGE1D_ARRAY, {1, limit(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) + 1, 1}},
       "1D array size"},
      {{CL_MEM_OBJECT_IMAGE2D_ARRAY, {1, 1, limit(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE) + 1}},
       "2D array size"},
  };
  for (const Case &C : Cases) {
    cl_image_desc D = descOf(C.S);
    EXPECT_EQ(createError(CL_MEM_READ_WRITE, &Rgba8, &D), CL_INVALID_IMAGE_SIZE) << C.Why;
  }
  // Regression: pitches whose products overflow size_t (a 3D image's slice
  // pitch from a huge row pitch) are refused, not wrapped into a small
  // allocation.
  std::vector<unsigned char> Host(64);
  cl_image_desc Huge = descOf(Shape{CL_MEM_OBJECT_IMAGE3D, {1, 16, 2}});
  Huge.image_row_pitch = (SIZE_MAX / 8) & ~size_t(3);
  EXPECT_EQ(createError(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &Rgba8, &Huge, Host.data()),
            CL_INVALID_IMAGE_SIZE);
  Huge.image_row_pitch = 0;
  Huge.image_slice_pitch = (SIZE_MAX / 2) & ~size_t(3);
  EXPECT_EQ(createError(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &Rgba8, &Huge, Host.data()),
            CL_INVALID_IMAGE_SIZE);
}

TEST_F(Images, InvalidHostPtrAndFlags) {
  const cl_image_desc D = descOf(Shape{CL_MEM_OBJECT_IMAGE2D, {4, 4, 1}});
  std::vector<unsigned char> Host(64);
  EXPECT_EQ(createError(CL_MEM_READ_WRITE, &Rgba8, &D, Host.data()), CL_INVALID_HOST_PTR);
  EXPECT_EQ(createError(CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, &Rgba8, &D), CL_INVALID_HOST_PTR);
  EXPECT_EQ(createError(CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &Rgba8, &D), CL_INVALID_HOST_PTR);
  for (cl_mem_flags F : std::initializer_list<cl_mem_flags>{
           CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
           CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
           CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY,
           CL_MEM_HOST_NO_ACCESS | CL_MEM_HOST_READ_ONLY, cl_mem_flags(1) << 40}) {
    const bool NeedsPtr = F & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    EXPECT_EQ(createError(F, &Rgba8, &D, NeedsPtr ? Host.data() : nullptr), CL_INVALID_VALUE) << F;
  }
  // An image on a buffer: access that the buffer does not allow, or host
  // pointer flags (they come from the buffer).
  cl_mem ReadOnly = buffer(256, CL_MEM_READ_ONLY);
  cl_image_desc B = descOf(Shape{CL_MEM_OBJECT_IMAGE1D_BUFFER, {16, 1, 1}}, ReadOnly);
  EXPECT_EQ(createError(CL_MEM_WRITE_ONLY, &Rgba8, &B), CL_INVALID_VALUE);
  EXPECT_EQ(createError(CL_MEM_READ_WRITE, &Rgba8, &B), CL_INVALID_VALUE);
  EXPECT_EQ(createError(CL_MEM_READ_ONLY | CL_MEM_ALLOC_HOST_PTR, &Rgba8, &B), CL_INVALID_VALUE);
  cl_mem HostWriteOnly = buffer(256, CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY);
  B.buffer = HostWriteOnly;
  EXPECT_EQ(createError(CL_MEM_HOST_READ_ONLY, &Rgba8, &B), CL_INVALID_VALUE);
  cl_int Err;
  EXPECT_EQ(
      clCreateImage(wrongHandle<cl_context>(Queue), CL_MEM_READ_WRITE, &Rgba8, &D, nullptr, &Err),
      nullptr);
  EXPECT_EQ(Err, CL_INVALID_CONTEXT);
}

TEST_F(Images, FormatsNotSupportedAreRefused) {
  // Every format the specification defines (as unambiguously valid) either
  // creates a 2D image or fails with CL_IMAGE_FORMAT_NOT_SUPPORTED, as the
  // lists say.
  std::vector<cl_image_format> Valid;
  for (cl_channel_order O : {CL_R, CL_A, CL_RG, CL_RA, CL_RGBA})
    for (cl_channel_type T : AllDataTypes)
      Valid.push_back({O, T});
  for (cl_channel_order O : {CL_INTENSITY, CL_LUMINANCE})
    for (cl_channel_type T :
         {CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8, CL_SNORM_INT16, CL_HALF_FLOAT, CL_FLOAT})
      Valid.push_back({O, T});
  for (cl_channel_order O : {CL_BGRA, CL_ARGB, CL_ABGR})
    for (cl_channel_type T : {CL_UNORM_INT8, CL_SNORM_INT8, CL_SIGNED_INT8, CL_UNSIGNED_INT8})
      Valid.push_back({O, T});
  for (cl_channel_type T : {CL_UNORM_SHORT_565, CL_UNORM_SHORT_555, CL_UNORM_INT_101010})
    Valid.push_back({CL_RGB, T});
  Valid.push_back({CL_RGBA, CL_UNORM_INT_101010_2});
  Valid.push_back({CL_sRGBA, CL_UNORM_INT8});
  Valid.push_back({CL_sBGRA, CL_UNORM_INT8});
  auto listed = [](const std::vector<cl_image_format> &List, const cl_image_format &F) {
    return std::any_of(List.begin(), List.end(),
                       [&](const cl_image_format &L) { return sameFormat(L, F); });
  };
  std::map<cl_mem_flags, std::vector<cl_image_format>> Lists;
  for (cl_mem_flags F :
       {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE, CL_MEM_KERNEL_READ_AND_WRITE})
    Lists[F] = supported(F, CL_MEM_OBJECT_IMAGE2D);
  const cl_image_desc D = descOf(Shape{CL_MEM_OBJECT_IMAGE2D, {4, 4, 1}});
  size_t Refused = 0;
  for (cl_mem_flags Flags : {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE})
    for (const cl_image_format &F : Valid) {
      bool Anywhere = false;
      for (const auto &L : Lists)
        Anywhere |= listed(L.second, F);
      if (Anywhere && !listed(Lists[Flags], F))
        continue; // supported, but not for this access: either answer is fair
      cl_int Err;
      cl_mem M = clCreateImage(Context, Flags, &F, &D, nullptr, &Err);
      EXPECT_EQ(Err, Anywhere ? CL_SUCCESS : CL_IMAGE_FORMAT_NOT_SUPPORTED)
          << "flags " << Flags << ", " << std::hex << F.image_channel_order << "/"
          << F.image_channel_data_type;
      Refused += !Anywhere;
      if (M)
        clReleaseMemObject(M);
    }
  RecordProperty("UnsupportedFormatsChecked", int(Refused));
}

namespace {

const cl_addressing_mode AddressModes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE,
                                           CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                           CL_ADDRESS_MIRRORED_REPEAT};

class Samplers : public Images {
protected:
  void TearDown() override {
    for (cl_sampler S : OwnedSamplers)
      EXPECT_EQ(clReleaseSampler(S), CL_SUCCESS);
    Images::TearDown();
  }
  cl_sampler sampler(const cl_sampler_properties *Props) {
    cl_int Err;
    cl_sampler S = clCreateSamplerWithProperties(Context, Props, &Err);
    EXPECT_EQ(Err, CL_SUCCESS);
    if (S)
      OwnedSamplers.push_back(S);
    return S;
  }
  std::vector<cl_sampler_properties> properties(cl_sampler S) {
    size_t Size = 99;
    EXPECT_EQ(clGetSamplerInfo(S, CL_SAMPLER_PROPERTIES, 0, nullptr, &Size), CL_SUCCESS);
    std::vector<cl_sampler_properties> P(Size / sizeof(cl_sampler_properties));
    if (Size) {
      EXPECT_EQ(clGetSamplerInfo(S, CL_SAMPLER_PROPERTIES, Size, P.data(), nullptr), CL_SUCCESS);
    }
    return P;
  }
  void expectState(cl_sampler S, cl_bool Normalized, cl_addressing_mode A, cl_filter_mode F) {
    EXPECT_EQ(info<cl_bool>(clGetSamplerInfo, S, CL_SAMPLER_NORMALIZED_COORDS), Normalized);
    EXPECT_EQ(info<cl_addressing_mode>(clGetSamplerInfo, S, CL_SAMPLER_ADDRESSING_MODE), A);
    EXPECT_EQ(info<cl_filter_mode>(clGetSamplerInfo, S, CL_SAMPLER_FILTER_MODE), F);
    EXPECT_EQ(info<cl_context>(clGetSamplerInfo, S, CL_SAMPLER_CONTEXT), Context);
    EXPECT_EQ(info<cl_uint>(clGetSamplerInfo, S, CL_SAMPLER_REFERENCE_COUNT), 1u);
  }
  std::vector<cl_sampler> OwnedSamplers;
};

} // namespace

TEST_F(Samplers, CreateEveryCombinationAndQueryIt) {
  for (cl_bool N : {CL_FALSE, CL_TRUE})
    for (cl_addressing_mode A : AddressModes)
      for (cl_filter_mode F : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
        SCOPED_TRACE(testing::Message()
                     << "normalized " << N << ", addressing " << std::hex << A << ", filter " << F);
        // The properties in either order: the query returns them as given.
        std::vector<cl_sampler_properties> Props =
            F == CL_FILTER_NEAREST
                ? std::vector<cl_sampler_properties>{CL_SAMPLER_NORMALIZED_COORDS,
                                                     N,
                                                     CL_SAMPLER_ADDRESSING_MODE,
                                                     A,
                                                     CL_SAMPLER_FILTER_MODE,
                                                     F,
                                                     0}
                : std::vector<cl_sampler_properties>{CL_SAMPLER_FILTER_MODE,
                                                     F,
                                                     CL_SAMPLER_ADDRESSING_MODE,
                                                     A,
                                                     CL_SAMPLER_NORMALIZED_COORDS,
                                                     N,
                                                     0};
        // No error of clCreateSamplerWithProperties is about a combination:
        // the repeat modes take unnormalized coordinates too (OpenCL C
        // leaves such reads undefined).
        cl_sampler S = sampler(Props.data());
        ASSERT_NE(S, nullptr);
        expectState(S, N, A, F);
        EXPECT_EQ(properties(S), Props);
        // clCreateSampler may call "a combination of these arguments" not
        // valid: the only candidates are the repeat modes unnormalized.
        cl_int Err;
        cl_sampler Old = clCreateSampler(Context, N, A, F, &Err);
        const bool Questionable = !N && (A == CL_ADDRESS_REPEAT || A == CL_ADDRESS_MIRRORED_REPEAT);
        if (Questionable && !Old) {
          EXPECT_EQ(Err, CL_INVALID_VALUE);
          continue;
        }
        ASSERT_EQ(Err, CL_SUCCESS);
        OwnedSamplers.push_back(Old);
        expectState(Old, N, A, F);
        EXPECT_TRUE(properties(Old).empty()) << "clCreateSampler has no properties";
      }
  // Defaults: normalized coordinates, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST.
  cl_sampler Default = sampler(nullptr);
  expectState(Default, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
  EXPECT_TRUE(properties(Default).empty());
  const cl_sampler_properties OnlyFilter[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  cl_sampler Linear = sampler(OnlyFilter);
  expectState(Linear, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR);
  EXPECT_EQ(properties(Linear), std::vector<cl_sampler_properties>(OnlyFilter, OnlyFilter + 3));
}

TEST_F(Samplers, CreateErrors) {
  cl_int Err;
  auto fails = [&](std::vector<cl_sampler_properties> Props, cl_int Want) {
    EXPECT_EQ(clCreateSamplerWithProperties(Context, Props.data(), &Err), nullptr);
    EXPECT_EQ(Err, Want) << Props[0] << " " << Props[1];
  };
  fails({0x7777, 0, 0}, CL_INVALID_VALUE);
  fails({CL_SAMPLER_ADDRESSING_MODE, 0x7777, 0}, CL_INVALID_VALUE);
  fails({CL_SAMPLER_FILTER_MODE, 0x7777, 0}, CL_INVALID_VALUE);
  fails({CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0},
        CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSamplerWithProperties(nullptr, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_CONTEXT);
  EXPECT_EQ(clCreateSampler(Context, CL_TRUE, 0x7777, CL_FILTER_NEAREST, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSampler(Context, CL_TRUE, CL_ADDRESS_CLAMP, 0x7777, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateSampler(wrongHandle<cl_context>(Queue), CL_TRUE, CL_ADDRESS_CLAMP,
                            CL_FILTER_NEAREST, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_CONTEXT);
}

TEST_F(Samplers, ReferenceCountsAndInvalidHandles) {
  cl_sampler S = sampler(nullptr);
  ASSERT_EQ(clRetainSampler(S), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetSamplerInfo, S, CL_SAMPLER_REFERENCE_COUNT), 2u);
  ASSERT_EQ(clReleaseSampler(S), CL_SUCCESS);
  EXPECT_EQ(info<cl_uint>(clGetSamplerInfo, S, CL_SAMPLER_REFERENCE_COUNT), 1u);
  cl_uint V;
  EXPECT_EQ(clGetSamplerInfo(S, 0x7777, sizeof(V), &V, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetSamplerInfo(S, CL_SAMPLER_REFERENCE_COUNT, 1, &V, nullptr), CL_INVALID_VALUE);
  for (cl_sampler Bad : {wrongHandle<cl_sampler>(Queue), wrongHandle<cl_sampler>(buffer(16)),
                         static_cast<cl_sampler>(nullptr)}) {
    EXPECT_EQ(clRetainSampler(Bad), CL_INVALID_SAMPLER);
    EXPECT_EQ(clReleaseSampler(Bad), CL_INVALID_SAMPLER);
    EXPECT_EQ(clGetSamplerInfo(Bad, CL_SAMPLER_REFERENCE_COUNT, sizeof(V), &V, nullptr),
              CL_INVALID_SAMPLER);
  }
  // A sampler is no memory object either.
  EXPECT_EQ(clRetainMemObject(wrongHandle<cl_mem>(S)), CL_INVALID_MEM_OBJECT);
}

TEST_F(Samplers, ImageAndSamplerKernelArguments) {
  const char *Source = R"(
constant sampler_t Fixed = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
__kernel void args(read_only image2d_t in, write_only image2d_t out, read_write image2d_t both,
                   sampler_t s, __global float4 *p, read_only image3d_t vol) {
  int x = get_global_id(0);
  float4 v = read_imagef(in, s, (int2)(x, 0)) + read_imagef(vol, Fixed, (int4)(x, 0, 0, 0)) +
             read_imagef(both, (int2)(x, 0));
  write_imagef(out, (int2)(x, 0), v);
  p[x] = v;
})";
  cl_kernel K = kernel(Source, "args", "-cl-std=CL3.0 -cl-kernel-arg-info");
  const cl_image_format F{CL_RGBA, CL_FLOAT};
  const Shape S2{CL_MEM_OBJECT_IMAGE2D, {4, 1, 1}}, S3{CL_MEM_OBJECT_IMAGE3D, {4, 1, 2}};
  cl_mem In = image(F, S2, CL_MEM_READ_ONLY), Out = image(F, S2, CL_MEM_WRITE_ONLY);
  cl_mem Both = image(F, S2), Vol = image(F, S3, CL_MEM_READ_ONLY), Buf = buffer(4 * 16);
  const cl_sampler_properties Props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0};
  cl_sampler Smp = sampler(Props);
  auto set = [&](cl_uint I, size_t Size, const void *V) { return clSetKernelArg(K, I, Size, V); };
  EXPECT_EQ(set(0, sizeof(cl_mem), &In), CL_SUCCESS);
  EXPECT_EQ(set(0, sizeof(cl_mem), &Buf), CL_INVALID_MEM_OBJECT) << "a buffer for an image";
  EXPECT_EQ(set(0, sizeof(cl_mem), &Vol), CL_INVALID_MEM_OBJECT) << "a 3D image for a 2D one";
  EXPECT_EQ(set(5, sizeof(cl_mem), &In), CL_INVALID_MEM_OBJECT) << "a 2D image for a 3D one";
  EXPECT_EQ(set(0, 4, &In), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(set(0, sizeof(cl_mem), &Smp), CL_INVALID_MEM_OBJECT) << "a sampler for an image";
  EXPECT_EQ(set(0, sizeof(cl_mem), &Out), CL_INVALID_ARG_VALUE) << "write-only into read_only";
  EXPECT_EQ(set(1, sizeof(cl_mem), &In), CL_INVALID_ARG_VALUE) << "read-only into write_only";
  EXPECT_EQ(set(4, sizeof(cl_mem), &In), CL_INVALID_MEM_OBJECT) << "an image for a pointer";
  EXPECT_EQ(set(3, sizeof(cl_sampler), &Smp), CL_SUCCESS);
  EXPECT_EQ(set(3, sizeof(cl_sampler), &Buf), CL_INVALID_SAMPLER);
  EXPECT_EQ(set(3, 4, &Smp), CL_INVALID_ARG_SIZE);
  // Every argument right: the kernel reads through all of them.
  const float A[4] = {0.25f, 0.25f, 0.25f, 0.25f}, B[4] = {0.5f, 1, 2, 4}, C[4] = {1, 0, 0, 0};
  const size_t O[3] = {0, 0, 0};
  ASSERT_EQ(clEnqueueFillImage(Queue, In, A, O, S2.Ext, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueFillImage(Queue, Vol, B, O, S3.Ext, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueFillImage(Queue, Both, C, O, S2.Ext, 0, nullptr, nullptr), CL_SUCCESS);
  setArg(K, 0, In);
  setArg(K, 1, Out);
  setArg(K, 2, Both);
  setArg(K, 4, Buf);
  setArg(K, 5, Vol);
  run(K, 1, &S2.Ext[0]);
  std::vector<float> Want;
  for (int X = 0; X < 4; ++X)
    Want.insert(Want.end(), {1.75f, 1.25f, 2.25f, 4.25f});
  EXPECT_EQ(read<float>(Buf, 16), Want);

  auto arg = [&](cl_uint I) {
    return [I](cl_kernel Kn, cl_kernel_arg_info P, size_t S, void *V, size_t *R) {
      return clGetKernelArgInfo(Kn, I, P, S, V, R);
    };
  };
  const char *Types[] = {"image2d_t", "image2d_t", "image2d_t",
                         "sampler_t", "float4*",   "image3d_t"};
  const cl_kernel_arg_access_qualifier Access[] = {
      CL_KERNEL_ARG_ACCESS_READ_ONLY,  CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
      CL_KERNEL_ARG_ACCESS_READ_WRITE, CL_KERNEL_ARG_ACCESS_NONE,
      CL_KERNEL_ARG_ACCESS_NONE,       CL_KERNEL_ARG_ACCESS_READ_ONLY};
  for (cl_uint I = 0; I < 6; ++I) {
    EXPECT_EQ(infoString(arg(I), K, CL_KERNEL_ARG_TYPE_NAME), Types[I]) << I;
    EXPECT_EQ(info<cl_kernel_arg_access_qualifier>(arg(I), K, CL_KERNEL_ARG_ACCESS_QUALIFIER),
              Access[I])
        << I;
  }
}
