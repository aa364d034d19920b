// The OpenCL 3.0 optional feature the device does not report (images and
// samplers): each entry point answers
// exactly as the specification requires of a device without the feature,
// and the device queries agree that the feature is absent.
#include "ApiTest.h"

using namespace weft::test;

namespace {

class Optional : public WithQueue {};

} // namespace

TEST_F(Optional, DeviceReportsTheFeaturesAbsent) {
  EXPECT_EQ(info<cl_bool>(clGetDeviceInfo, Device, CL_DEVICE_IMAGE_SUPPORT), cl_bool(CL_FALSE));
}

TEST_F(Optional, ImagesAndSamplers) {
  cl_int Err = CL_SUCCESS;
  cl_image_format Format{CL_RGBA, CL_UNORM_INT8};
  cl_image_desc Desc{};
  Desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  Desc.image_width = 16;
  Desc.image_height = 16;
  EXPECT_EQ(clCreateImage(Context, CL_MEM_READ_WRITE, &Format, &Desc, nullptr, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_OPERATION);
  EXPECT_EQ(clCreateImageWithProperties(Context, nullptr, CL_MEM_READ_WRITE, &Format, &Desc,
                                        nullptr, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_OPERATION);
  EXPECT_EQ(clCreateImage2D(Context, CL_MEM_READ_WRITE, &Format, 16, 16, 0, nullptr, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_OPERATION);
  EXPECT_EQ(clCreateImage3D(Context, CL_MEM_READ_WRITE, &Format, 16, 16, 4, 0, 0, nullptr, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_OPERATION);
  EXPECT_EQ(clCreateImage(wrongHandle<cl_context>(Queue), CL_MEM_READ_WRITE, &Format, &Desc,
                          nullptr, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_CONTEXT);

  EXPECT_EQ(clCreateSampler(Context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_OPERATION);
  cl_sampler_properties Props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0};
  EXPECT_EQ(clCreateSamplerWithProperties(Context, Props, &Err), nullptr);
  EXPECT_EQ(Err, CL_INVALID_OPERATION);

  cl_uint Num = 99;
  EXPECT_EQ(clGetSupportedImageFormats(Context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0,
                                       nullptr, &Num),
            CL_SUCCESS);
  EXPECT_EQ(Num, 0u);
  cl_image_format Formats[4];
  EXPECT_EQ(clGetSupportedImageFormats(Context, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0,
                                       Formats, &Num),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetSupportedImageFormats(wrongHandle<cl_context>(Queue), CL_MEM_READ_WRITE,
                                       CL_MEM_OBJECT_IMAGE2D, 4, Formats, &Num),
            CL_INVALID_CONTEXT);

  // A buffer is not an image.
  cl_mem Buf = buffer(256);
  size_t Width;
  EXPECT_EQ(clGetImageInfo(Buf, CL_IMAGE_WIDTH, sizeof(Width), &Width, nullptr),
            CL_INVALID_MEM_OBJECT);
  size_t Origin[3] = {0, 0, 0}, Region[3] = {1, 1, 1};
  char Host[16];
  EXPECT_EQ(
      clEnqueueReadImage(Queue, Buf, CL_TRUE, Origin, Region, 0, 0, Host, 0, nullptr, nullptr),
      CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(
      clEnqueueWriteImage(Queue, Buf, CL_TRUE, Origin, Region, 0, 0, Host, 0, nullptr, nullptr),
      CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueCopyImageToBuffer(Queue, Buf, Buf, Origin, Region, 0, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  size_t RowPitch;
  EXPECT_EQ(clEnqueueMapImage(Queue, Buf, CL_TRUE, CL_MAP_READ, Origin, Region, &RowPitch, nullptr,
                              0, nullptr, nullptr, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_MEM_OBJECT);
}

