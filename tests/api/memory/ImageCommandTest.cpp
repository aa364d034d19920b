// Image commands through the ICD loader: clEnqueueReadImage and
// clEnqueueWriteImage with explicit pitches and sub-regions for every image
// type, copies between images and between images and buffers, fills in
// every kind of format, maps, the origin and region rules with their
// errors, the host access flags, and images on host memory (USE_HOST_PTR
// and COPY_HOST_PTR with padded rows and slices). The images themselves
// (creation, queries, formats) are in ImageTest.cpp.
#include "ImageTestUtil.h"

using namespace weft::test;

namespace {

class ImageCommands : public Images {};

} // namespace

TEST_F(ImageCommands, WriteAndReadSubRegionsWithPitchesForEveryType) {
  const size_t E = 8; // CL_RGBA, CL_UNSIGNED_INT16
  struct Case {
    Shape S;
    size_t Origin[3], Region[3];
  } Cases[] = {
      {{CL_MEM_OBJECT_IMAGE1D, {40, 1, 1}}, {5, 0, 0}, {17, 1, 1}},
      {{CL_MEM_OBJECT_IMAGE1D_BUFFER, {40, 1, 1}}, {9, 0, 0}, {30, 1, 1}},
      {{CL_MEM_OBJECT_IMAGE1D_ARRAY, {24, 5, 1}}, {3, 1, 0}, {10, 3, 1}},
      {{CL_MEM_OBJECT_IMAGE2D, {24, 12, 1}}, {3, 2, 0}, {10, 7, 1}},
      {{CL_MEM_OBJECT_IMAGE2D_ARRAY, {16, 8, 4}}, {2, 1, 1}, {9, 5, 2}},
      {{CL_MEM_OBJECT_IMAGE3D, {12, 8, 6}}, {1, 2, 3}, {7, 4, 2}},
  };
  for (const Case &C : Cases) {
    const Shape &S = C.S;
    SCOPED_TRACE(testing::Message() << "type " << std::hex << S.Type);
    cl_mem M = image(Rgba16u, S);
    ASSERT_NE(M, nullptr);
    std::vector<unsigned char> Model = pattern(S.Ext[0] * S.Ext[1] * S.Ext[2] * E, 3);
    writeAll(M, S, E, Model);
    const size_t Row = packedRow(S, E), Slice = packedSlice(S, E);
    // The sub-region from host memory with padded rows and slices (layers
    // of a 1D array are a slice pitch apart).
    const bool HasSlices = hasSlices(S);
    const size_t InRow = C.Region[0] * E + 24;
    const size_t InSlice = HasSlices ? InRow * C.Region[1] + 40 : 0;
    std::vector<unsigned char> In = pattern(InRow * C.Region[1] * C.Region[2] + InSlice * 3, 4);
    ASSERT_EQ(writeImage(M, C.Origin, C.Region, InRow, InSlice, In.data()), CL_SUCCESS);
    const size_t Zero[3] = {0, 0, 0};
    copyRegion(S, E, C.Region, In.data(), Zero, InRow, InSlice, Model.data(), C.Origin, Row, Slice);
    EXPECT_EQ(readAll(M, S, E), Model);
    // And the same region read back into padded host memory: the padding
    // is not written.
    std::vector<unsigned char> Out(In.size(), 0xee), Want(In.size(), 0xee);
    ASSERT_EQ(readImage(M, C.Origin, C.Region, InRow, InSlice, Out.data()), CL_SUCCESS);
    copyRegion(S, E, C.Region, Model.data(), C.Origin, Row, Slice, Want.data(), Zero, InRow,
               InSlice);
    EXPECT_EQ(Out, Want);
    // Pitches of 0 are computed from the region.
    if (!HasSlices) {
      std::vector<unsigned char> Packed(C.Region[0] * C.Region[1] * E);
      ASSERT_EQ(readImage(M, C.Origin, C.Region, 0, 0, Packed.data()), CL_SUCCESS);
      copyRegion(S, E, C.Region, Model.data(), C.Origin, Row, Slice, Want.data(), Zero,
                 C.Region[0] * E, 0);
      EXPECT_TRUE(std::equal(Packed.begin(), Packed.end(), Want.begin()));
    }
  }
}

TEST_F(ImageCommands, CopyBetweenImages) {
  const Shape S2{CL_MEM_OBJECT_IMAGE2D, {16, 16, 1}}, S3{CL_MEM_OBJECT_IMAGE3D, {16, 16, 4}};
  const Shape SA{CL_MEM_OBJECT_IMAGE2D_ARRAY, {16, 16, 3}};
  cl_mem A = image(Rgba8, S2), B = image(Rgba8, S3), Arr = image(Rgba8, SA);
  std::vector<unsigned char> ModelA = pattern(16 * 16 * 4, 5), ModelB(16 * 16 * 4 * 4, 0);
  std::vector<unsigned char> ModelArr = pattern(16 * 16 * 3 * 4, 6);
  writeAll(A, S2, 4, ModelA);
  writeAll(B, S3, 4, ModelB);
  writeAll(Arr, SA, 4, ModelArr);
  auto copy = [&](cl_mem Src, cl_mem Dst, std::vector<size_t> SO, std::vector<size_t> DO,
                  std::vector<size_t> R) {
    return clEnqueueCopyImage(Queue, Src, Dst, SO.data(), DO.data(), R.data(), 0, nullptr, nullptr);
  };
  // A rectangle of the 2D image into slice 2 of the 3D image, and layer 1
  // of the array into the 2D image: any types, same region dimensions.
  ASSERT_EQ(copy(A, B, {2, 3, 0}, {4, 5, 2}, {10, 6, 1}), CL_SUCCESS);
  const size_t R1[3] = {10, 6, 1}, SO1[3] = {2, 3, 0}, DO1[3] = {4, 5, 2};
  copyRegion(S3, 4, R1, ModelA.data(), SO1, 64, 1024, ModelB.data(), DO1, 64, 1024);
  EXPECT_EQ(readAll(B, S3, 4), ModelB);
  ASSERT_EQ(copy(Arr, A, {0, 0, 1}, {0, 0, 0}, {16, 16, 1}), CL_SUCCESS);
  EXPECT_TRUE(
      std::equal(ModelArr.begin() + 1024, ModelArr.begin() + 2048, readAll(A, S2, 4).begin()));
  // Within one image, regions that do not overlap.
  ModelA.assign(ModelArr.begin() + 1024, ModelArr.begin() + 2048);
  ASSERT_EQ(copy(A, A, {0, 0, 0}, {8, 8, 0}, {4, 4, 1}), CL_SUCCESS);
  const size_t R2[3] = {4, 4, 1}, SO2[3] = {0, 0, 0}, DO2[3] = {8, 8, 0};
  std::vector<unsigned char> Before = ModelA;
  copyRegion(S2, 4, R2, Before.data(), SO2, 64, 0, ModelA.data(), DO2, 64, 0);
  EXPECT_EQ(readAll(A, S2, 4), ModelA);

  EXPECT_EQ(copy(A, A, {0, 0, 0}, {2, 2, 0}, {4, 4, 1}), CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(copy(B, B, {0, 0, 0}, {0, 0, 1}, {4, 4, 2}), CL_MEM_COPY_OVERLAP);
  cl_mem Other = image({CL_RGBA, CL_UNSIGNED_INT8}, S2);
  EXPECT_EQ(copy(A, Other, {0, 0, 0}, {0, 0, 0}, {4, 4, 1}), CL_IMAGE_FORMAT_MISMATCH)
      << "same element size, different format";
  EXPECT_EQ(copy(A, B, {10, 0, 0}, {0, 0, 0}, {8, 4, 1}), CL_INVALID_VALUE)
      << "source out of bounds";
  EXPECT_EQ(copy(A, B, {0, 0, 0}, {0, 0, 3}, {4, 4, 2}), CL_INVALID_VALUE)
      << "2D source with a depth of 2";
  EXPECT_EQ(copy(A, B, {0, 0, 0}, {0, 0, 4}, {4, 4, 1}), CL_INVALID_VALUE) << "past the last slice";
  EXPECT_EQ(copy(A, B, {0, 0, 1}, {0, 0, 0}, {4, 4, 1}), CL_INVALID_VALUE) << "2D origin[2] != 0";
  EXPECT_EQ(copy(A, B, {0, 0, 0}, {0, 0, 0}, {0, 4, 1}), CL_INVALID_VALUE) << "empty region";
  EXPECT_EQ(copy(buffer(4096), B, {0, 0, 0}, {0, 0, 0}, {4, 4, 1}), CL_INVALID_MEM_OBJECT);
}

TEST_F(ImageCommands, CopyBetweenImagesAndBuffersWithOffsets) {
  const cl_image_format F{CL_RG, CL_UNSIGNED_INT16};
  const size_t E = 4;
  const Shape S2{CL_MEM_OBJECT_IMAGE2D, {16, 8, 1}}, SA{CL_MEM_OBJECT_IMAGE2D_ARRAY, {6, 5, 3}};
  cl_mem Img = image(F, S2), Arr = image(F, SA);
  std::vector<unsigned char> Model = pattern(16 * 8 * E, 7), ModelArr(6 * 5 * 3 * E, 0);
  writeAll(Img, S2, E, Model);
  writeAll(Arr, SA, E, ModelArr);
  const size_t Size = 512;
  cl_mem Buf = buffer(Size);
  std::vector<unsigned char> BufModel(Size, 0xab);
  ASSERT_EQ(
      clEnqueueWriteBuffer(Queue, Buf, CL_TRUE, 0, Size, BufModel.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  // Image to buffer: a 5x4 rectangle lands packed at offset 12.
  const size_t O[3] = {3, 2, 0}, R[3] = {5, 4, 1}, Zero[3] = {0, 0, 0};
  ASSERT_EQ(clEnqueueCopyImageToBuffer(Queue, Img, Buf, O, R, 12, 0, nullptr, nullptr), CL_SUCCESS);
  copyRegion(S2, E, R, Model.data(), O, 16 * E, 0, BufModel.data() + 12, Zero, 5 * E, 0);
  EXPECT_EQ(read<unsigned char>(Buf, Size), BufModel);
  // Buffer to image: from offset 20 into layers 1 and 2 of the array.
  const size_t AO[3] = {1, 2, 1}, AR[3] = {4, 3, 2};
  ASSERT_EQ(clEnqueueCopyBufferToImage(Queue, Buf, Arr, 20, AO, AR, 0, nullptr, nullptr),
            CL_SUCCESS);
  copyRegion(SA, E, AR, BufModel.data() + 20, Zero, 4 * E, 12 * E, ModelArr.data(), AO, 6 * E,
             30 * E);
  EXPECT_EQ(readAll(Arr, SA, E), ModelArr);

  EXPECT_EQ(clEnqueueCopyImageToBuffer(Queue, Img, Buf, O, R, Size - 79, 0, nullptr, nullptr),
            CL_INVALID_VALUE)
      << "80 bytes do not fit";
  EXPECT_EQ(clEnqueueCopyBufferToImage(Queue, Buf, Arr, Size - 95, AO, AR, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  const size_t Outside[3] = {14, 0, 0};
  EXPECT_EQ(clEnqueueCopyImageToBuffer(Queue, Img, Buf, Outside, R, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueCopyImageToBuffer(Queue, Img, Arr, O, R, 0, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT)
      << "an image is not a buffer";
  EXPECT_EQ(clEnqueueCopyBufferToImage(Queue, Buf, Buf, 0, O, R, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  // A 1D image buffer cannot be copied into the buffer it was made on.
  cl_image_desc D = descOf(Shape{CL_MEM_OBJECT_IMAGE1D_BUFFER, {16, 1, 1}}, Buf);
  cl_mem OnBuf = image(F, D, 0);
  const size_t R1[3] = {4, 1, 1};
  EXPECT_EQ(clEnqueueCopyImageToBuffer(Queue, OnBuf, Buf, Zero, R1, 256, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
}

TEST_F(ImageCommands, FillConvertsTheColourToEveryFormat) {
  const size_t O[3] = {2, 3, 0}, R[3] = {4, 2, 1};
  auto inside = [&](size_t X, size_t Y, size_t Z, const size_t *Org, const size_t *Reg) {
    return X >= Org[0] && X < Org[0] + Reg[0] && Y >= Org[1] && Y < Org[1] + Reg[1] &&
           Z >= Org[2] && Z < Org[2] + Reg[2];
  };
  // Fills a zeroed image of format F and shape S at Org/Reg with Colour and
  // checks every pixel: Pixel inside, zeros outside.
  auto check = [&](cl_image_format F, const Shape &S, const size_t *Org, const size_t *Reg,
                   const void *Colour, std::vector<unsigned char> Pixel) {
    SCOPED_TRACE(testing::Message()
                 << std::hex << F.image_channel_order << "/" << F.image_channel_data_type);
    const size_t E = elementSize(F);
    ASSERT_EQ(Pixel.size(), E);
    cl_mem M = image(F, S);
    writeAll(M, S, E, std::vector<unsigned char>(S.Ext[0] * S.Ext[1] * S.Ext[2] * E, 0));
    ASSERT_EQ(clEnqueueFillImage(Queue, M, Colour, Org, Reg, 0, nullptr, nullptr), CL_SUCCESS);
    std::vector<unsigned char> Got = readAll(M, S, E);
    for (size_t Z = 0; Z < S.Ext[2]; ++Z)
      for (size_t Y = 0; Y < S.Ext[1]; ++Y)
        for (size_t X = 0; X < S.Ext[0]; ++X) {
          const unsigned char *P = &Got[((Z * S.Ext[1] + Y) * S.Ext[0] + X) * E];
          std::vector<unsigned char> Want =
              inside(X, Y, Z, Org, Reg) ? Pixel : std::vector<unsigned char>(E, 0);
          ASSERT_TRUE(std::equal(Want.begin(), Want.end(), P)) << X << "," << Y << "," << Z;
        }
  };
  const Shape S2{CL_MEM_OBJECT_IMAGE2D, {8, 8, 1}};
  // Normalized: round to nearest even (0.5 * 255 = 127.5 -> 128), saturate.
  const float Unit[4] = {0.5f, -0.1f, 2.0f, 0.25f};
  check(Rgba8, S2, O, R, Unit, {128, 0, 255, 64});
  // CL_BGRA stores the colour's blue first.
  const float Bgra[4] = {1.0f, 0.0f, 0.5f, 0.0f};
  check({CL_BGRA, CL_UNORM_INT8}, S2, O, R, Bgra, {128, 0, 255, 0});
  const float Half[4] = {0.5f, 0.0f, 0.0f, 0.0f};
  check({CL_R, CL_UNORM_INT16}, S2, O, R, Half, {0x00, 0x80});
  // Integer formats take int4 or uint4; only the channels the order has.
  const cl_int Ints[4] = {-5, 1234, -32768, 32767};
  const Shape SA{CL_MEM_OBJECT_IMAGE2D_ARRAY, {5, 4, 3}};
  const size_t AO[3] = {1, 1, 1}, AR[3] = {3, 2, 1};
  check({CL_RGBA, CL_SIGNED_INT16}, SA, AO, AR, Ints,
        {0xfb, 0xff, 0xd2, 0x04, 0x00, 0x80, 0xff, 0x7f});
  const cl_uint Uints[4] = {0xdeadbeef, 1, 2, 3};
  const Shape S3{CL_MEM_OBJECT_IMAGE3D, {4, 3, 3}};
  const size_t TO[3] = {1, 0, 1}, TR[3] = {2, 3, 2};
  check({CL_R, CL_UNSIGNED_INT32}, S3, TO, TR, Uints, {0xef, 0xbe, 0xad, 0xde});
  // A float image, and a depth image whose colour is one float.
  const float Floats[4] = {1.5f, -2.0f, 0, 0};
  check({CL_RG, CL_FLOAT}, S2, O, R, Floats, {0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0});
  const float Depth = 0.75f;
  check({CL_DEPTH, CL_FLOAT}, S2, O, R, &Depth, {0, 0, 0x40, 0x3f});
  // A 1D array's layer index is origin[1].
  const Shape S1A{CL_MEM_OBJECT_IMAGE1D_ARRAY, {6, 4, 1}};
  const size_t LO[3] = {2, 1, 0}, LR[3] = {3, 2, 1};
  check(Rgba8, S1A, LO, LR, Unit, {128, 0, 255, 64});

  cl_mem M = image(Rgba8, S2);
  EXPECT_EQ(clEnqueueFillImage(Queue, M, nullptr, O, R, 0, nullptr, nullptr), CL_INVALID_VALUE);
  const size_t Big[3] = {7, 2, 1};
  EXPECT_EQ(clEnqueueFillImage(Queue, M, Unit, O, Big, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillImage(Queue, buffer(256), Unit, O, R, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
}

TEST_F(ImageCommands, MapWriteAndReadBack) {
  const Shape S2{CL_MEM_OBJECT_IMAGE2D, {16, 8, 1}};
  cl_mem M = image(Rgba8, S2);
  std::vector<unsigned char> Model = pattern(16 * 8 * 4, 8);
  writeAll(M, S2, 4, Model);
  const size_t O[3] = {3, 2, 0}, R[3] = {6, 4, 1};
  size_t Row = 0, Slice = 99;
  cl_int Err;
  auto *P = static_cast<unsigned char *>(clEnqueueMapImage(Queue, M, CL_TRUE,
                                                           CL_MAP_READ | CL_MAP_WRITE, O, R, &Row,
                                                           &Slice, 0, nullptr, nullptr, &Err));
  ASSERT_EQ(Err, CL_SUCCESS);
  ASSERT_NE(P, nullptr);
  EXPECT_GE(Row, R[0] * 4);
  EXPECT_EQ(Slice, 0u) << "a 2D image's mapping has no slices";
  for (size_t Y = 0; Y < R[1]; ++Y)
    for (size_t X = 0; X < R[0] * 4; ++X) {
      unsigned char &B = P[Y * Row + X];
      EXPECT_EQ(B, Model[(O[1] + Y) * 64 + O[0] * 4 + X]) << "the mapping shows the pixels";
      Model[(O[1] + Y) * 64 + O[0] * 4 + X] = B = static_cast<unsigned char>(X * 3 + Y);
    }
  EXPECT_EQ(info<cl_uint>(clGetMemObjectInfo, M, CL_MEM_MAP_COUNT), 1u);
  ASSERT_EQ(clEnqueueUnmapMemObject(Queue, M, P, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(readAll(M, S2, 4), Model);

  // A 3D region: slices a slice pitch apart.
  const Shape S3{CL_MEM_OBJECT_IMAGE3D, {8, 4, 4}};
  cl_mem V = image(Rgba16u, S3);
  std::vector<unsigned char> Model3 = pattern(8 * 4 * 4 * 8, 9);
  writeAll(V, S3, 8, Model3);
  const size_t O3[3] = {1, 1, 1}, R3[3] = {5, 3, 2};
  P = static_cast<unsigned char *>(clEnqueueMapImage(Queue, V, CL_TRUE, CL_MAP_READ, O3, R3, &Row,
                                                     &Slice, 0, nullptr, nullptr, &Err));
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_GE(Row, R3[0] * 8);
  EXPECT_GE(Slice, Row * R3[1]);
  std::vector<unsigned char> Mapped(R3[0] * R3[1] * R3[2] * 8), Want(Mapped.size());
  const size_t Zero[3] = {0, 0, 0};
  copyRegion(S3, 8, R3, P, Zero, Row, Slice, Mapped.data(), Zero, R3[0] * 8, R3[0] * R3[1] * 8);
  copyRegion(S3, 8, R3, Model3.data(), O3, 64, 256, Want.data(), Zero, R3[0] * 8,
             R3[0] * R3[1] * 8);
  EXPECT_EQ(Mapped, Want);
  ASSERT_EQ(clEnqueueUnmapMemObject(Queue, V, P, 0, nullptr, nullptr), CL_SUCCESS);

  // Pitches the mapping must return somewhere.
  auto mapError = [&](cl_mem Img, const size_t *Org, const size_t *Reg, size_t *RowOut,
                      size_t *SliceOut) {
    cl_int E = CL_SUCCESS;
    void *Ptr = clEnqueueMapImage(Queue, Img, CL_TRUE, CL_MAP_READ, Org, Reg, RowOut, SliceOut, 0,
                                  nullptr, nullptr, &E);
    EXPECT_EQ(Ptr, nullptr);
    return E;
  };
  EXPECT_EQ(mapError(V, O3, R3, &Row, nullptr), CL_INVALID_VALUE) << "3D without a slice pitch";
  EXPECT_EQ(mapError(M, O, R, nullptr, &Slice), CL_INVALID_VALUE) << "no row pitch";
  cl_mem Arr = image(Rgba8, Shape{CL_MEM_OBJECT_IMAGE2D_ARRAY, {4, 4, 2}});
  cl_mem Arr1 = image(Rgba8, Shape{CL_MEM_OBJECT_IMAGE1D_ARRAY, {4, 2, 1}});
  const size_t One[3] = {1, 1, 1};
  EXPECT_EQ(mapError(Arr, Zero, One, &Row, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(mapError(Arr1, Zero, One, &Row, nullptr), CL_INVALID_VALUE);
  const size_t Past[3] = {0, 0, 2};
  EXPECT_EQ(mapError(Arr, Past, One, &Row, &Slice), CL_INVALID_VALUE) << "past the last layer";
  EXPECT_EQ(mapError(buffer(64), Zero, One, &Row, &Slice), CL_INVALID_MEM_OBJECT);
}

TEST_F(ImageCommands, RegionAndOriginErrors) {
  const Shape S2{CL_MEM_OBJECT_IMAGE2D, {8, 8, 1}};
  cl_mem M = image(Rgba8, S2);
  cl_mem M1 = image(Rgba8, Shape{CL_MEM_OBJECT_IMAGE1D, {8, 1, 1}});
  cl_mem M1A = image(Rgba8, Shape{CL_MEM_OBJECT_IMAGE1D_ARRAY, {8, 3, 1}});
  std::vector<unsigned char> Host(8 * 8 * 4 * 4);
  auto rd = [&](cl_mem Img, std::vector<size_t> O, std::vector<size_t> R, size_t Slice = 0) {
    return readImage(Img, O.data(), R.data(), 0, Slice, Host.data());
  };
  EXPECT_EQ(rd(M, {0, 0, 0}, {8, 8, 1}), CL_SUCCESS);
  EXPECT_EQ(rd(M, {1, 0, 0}, {8, 8, 1}), CL_INVALID_VALUE) << "past the right edge";
  EXPECT_EQ(rd(M, {0, 8, 0}, {1, 1, 1}), CL_INVALID_VALUE) << "past the last row";
  EXPECT_EQ(rd(M, {0, 0, 1}, {1, 1, 1}), CL_INVALID_VALUE) << "2D origin[2] != 0";
  EXPECT_EQ(rd(M, {0, 0, 0}, {1, 1, 2}), CL_INVALID_VALUE) << "2D region[2] != 1";
  EXPECT_EQ(rd(M, {0, 0, 0}, {1, 1, 0}), CL_INVALID_VALUE) << "region[2] == 0";
  EXPECT_EQ(rd(M, {0, 0, 0}, {0, 1, 1}), CL_INVALID_VALUE) << "region[0] == 0";
  EXPECT_EQ(rd(M, {0, 0, 0}, {1, 1, 1}, 64), CL_INVALID_VALUE) << "slice pitch for a 2D image";
  EXPECT_EQ(rd(M1, {0, 1, 0}, {1, 1, 1}), CL_INVALID_VALUE) << "1D origin[1] != 0";
  EXPECT_EQ(rd(M1, {0, 0, 0}, {1, 2, 1}), CL_INVALID_VALUE) << "1D region[1] != 1";
  EXPECT_EQ(rd(M1A, {0, 3, 0}, {1, 1, 1}), CL_INVALID_VALUE) << "past the last layer";
  EXPECT_EQ(rd(M1A, {0, 0, 0}, {1, 1, 2}), CL_INVALID_VALUE) << "1D array region[2] != 1";
  const size_t O[3] = {0, 0, 0}, R[3] = {1, 1, 1};
  EXPECT_EQ(readImage(M, nullptr, R, 0, 0, Host.data()), CL_INVALID_VALUE);
  EXPECT_EQ(readImage(M, O, nullptr, 0, 0, Host.data()), CL_INVALID_VALUE);
  EXPECT_EQ(readImage(M, O, R, 0, 0, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(writeImage(M, O, R, 0, 0, nullptr), CL_INVALID_VALUE);
  const size_t Wide[3] = {9, 1, 1};
  EXPECT_EQ(writeImage(M, O, Wide, 0, 0, Host.data()), CL_INVALID_VALUE);
  // A buffer is not an image, nor an image a buffer.
  cl_mem Buf = buffer(256);
  EXPECT_EQ(readImage(Buf, O, R, 0, 0, Host.data()), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(writeImage(Buf, O, R, 0, 0, Host.data()), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(readImage(wrongHandle<cl_mem>(Queue), O, R, 0, 0, Host.data()), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueReadBuffer(Queue, M, CL_TRUE, 0, 4, Host.data(), 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueCopyBuffer(Queue, Buf, M, 0, 0, 4, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueReadImage(wrongHandle<cl_command_queue>(Context), M, CL_TRUE, O, R, 0, 0,
                               Host.data(), 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
}

TEST_F(ImageCommands, HostAccessFlagsAreEnforced) {
  const Shape S{CL_MEM_OBJECT_IMAGE2D, {4, 4, 1}};
  cl_mem WriteOnly = image(Rgba8, S, CL_MEM_READ_WRITE | CL_MEM_HOST_WRITE_ONLY);
  cl_mem ReadOnly = image(Rgba8, S, CL_MEM_READ_WRITE | CL_MEM_HOST_READ_ONLY);
  cl_mem NoAccess = image(Rgba8, S, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS);
  std::vector<unsigned char> Host(64);
  const size_t O[3] = {0, 0, 0}, R[3] = {4, 4, 1};
  EXPECT_EQ(readImage(WriteOnly, O, R, 0, 0, Host.data()), CL_INVALID_OPERATION);
  EXPECT_EQ(writeImage(WriteOnly, O, R, 0, 0, Host.data()), CL_SUCCESS);
  EXPECT_EQ(writeImage(ReadOnly, O, R, 0, 0, Host.data()), CL_INVALID_OPERATION);
  EXPECT_EQ(readImage(ReadOnly, O, R, 0, 0, Host.data()), CL_SUCCESS);
  EXPECT_EQ(readImage(NoAccess, O, R, 0, 0, Host.data()), CL_INVALID_OPERATION);
  EXPECT_EQ(writeImage(NoAccess, O, R, 0, 0, Host.data()), CL_INVALID_OPERATION);
  size_t Row;
  cl_int Err;
  EXPECT_EQ(clEnqueueMapImage(Queue, WriteOnly, CL_TRUE, CL_MAP_READ, O, R, &Row, nullptr, 0,
                              nullptr, nullptr, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueMapImage(Queue, ReadOnly, CL_TRUE, CL_MAP_WRITE, O, R, &Row, nullptr, 0,
                              nullptr, nullptr, &Err),
            nullptr);
  EXPECT_EQ(Err, CL_INVALID_OPERATION);
}

TEST_F(ImageCommands, UseHostPtrImagesShowWritesInHostMemory) {
  // 16x4 pixels of CL_RGBA/CL_UNSIGNED_INT8 in rows of 96 bytes; the
  // padding must stay as it was.
  const cl_image_format F{CL_RGBA, CL_UNSIGNED_INT8};
  const size_t W = 16, H = 4, Row = 96;
  alignas(64) unsigned char Host[Row * H];
  std::memset(Host, 0xee, sizeof(Host));
  cl_image_desc D = descOf(Shape{CL_MEM_OBJECT_IMAGE2D, {W, H, 1}});
  D.image_row_pitch = Row;
  cl_mem M = image(F, D, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, Host);
  ASSERT_NE(M, nullptr);
  EXPECT_EQ(info<void *>(clGetMemObjectInfo, M, CL_MEM_HOST_PTR), static_cast<void *>(Host));
  EXPECT_EQ(info<size_t>(clGetImageInfo, M, CL_IMAGE_ROW_PITCH), Row);
  // A command's writes, after clFinish (Weft's images on host pointers are
  // the host memory; the specification promises it only after a map).
  const cl_uint Colour[4] = {1, 2, 3, 4};
  const size_t O[3] = {2, 1, 0}, R[3] = {3, 2, 1};
  ASSERT_EQ(clEnqueueFillImage(Queue, M, Colour, O, R, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
  for (size_t Y = 0; Y < H; ++Y)
    for (size_t X = 0; X < W; ++X) {
      const bool In = X >= 2 && X < 5 && Y >= 1 && Y < 3;
      for (size_t C = 0; C < 4; ++C)
        ASSERT_EQ(Host[Y * Row + X * 4 + C], In ? C + 1 : 0xee) << X << "," << Y;
    }
  // A kernel's writes, after a map, which points into the host memory.
  cl_kernel K = kernel(R"(
__kernel void mark(write_only image2d_t im) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(im, p, (uint4)(p.x, p.y, 7, 9));
})",
                       "mark", "-cl-std=CL3.0");
  setArg(K, 0, M);
  const size_t Global[2] = {W, H};
  run(K, 2, Global);
  size_t MapRow = 0;
  cl_int Err;
  const size_t Zero[3] = {0, 0, 0}, Whole[3] = {W, H, 1};
  auto *P = static_cast<unsigned char *>(clEnqueueMapImage(
      Queue, M, CL_TRUE, CL_MAP_READ, Zero, Whole, &MapRow, nullptr, 0, nullptr, nullptr, &Err));
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(P, Host) << "a mapping of a USE_HOST_PTR image is in host_ptr";
  EXPECT_EQ(MapRow, Row);
  for (size_t Y = 0; Y < H; ++Y) {
    for (size_t X = 0; X < W; ++X) {
      const unsigned char *Px = Host + Y * Row + X * 4;
      EXPECT_EQ(std::vector<unsigned char>(Px, Px + 4),
                (std::vector<unsigned char>{static_cast<unsigned char>(X),
                                            static_cast<unsigned char>(Y), 7, 9}));
    }
    for (size_t B = W * 4; B < Row; ++B)
      ASSERT_EQ(Host[Y * Row + B], 0xee) << "padding written in row " << Y;
  }
  // A region's mapping starts at its first pixel in host_ptr.
  const size_t MO[3] = {1, 2, 0}, MR[3] = {4, 2, 1};
  auto *Q = static_cast<unsigned char *>(clEnqueueMapImage(
      Queue, M, CL_TRUE, CL_MAP_READ, MO, MR, &MapRow, nullptr, 0, nullptr, nullptr, &Err));
  ASSERT_EQ(Err, CL_SUCCESS);
  EXPECT_EQ(Q, Host + 2 * Row + 1 * 4);
  ASSERT_EQ(clEnqueueUnmapMemObject(Queue, M, Q, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueUnmapMemObject(Queue, M, P, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(Queue), CL_SUCCESS);
}

TEST_F(ImageCommands, CopyHostPtrTakesPaddedRowsAndSlices) {
  struct Case {
    Shape S;
    size_t Row, Slice;
  } Cases[] = {
      {{CL_MEM_OBJECT_IMAGE2D, {10, 3, 1}}, 10 * 4 + 12, 0},
      // Slice pitches are multiples of the row pitch.
      {{CL_MEM_OBJECT_IMAGE3D, {4, 3, 2}}, 4 * 4 + 8, (4 * 4 + 8) * 4},
      {{CL_MEM_OBJECT_IMAGE1D_ARRAY, {5, 3, 1}}, 5 * 4, 5 * 4 * 2},
      {{CL_MEM_OBJECT_IMAGE2D_ARRAY, {3, 2, 3}}, 3 * 4 + 4, (3 * 4 + 4) * 3},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(testing::Message() << "type " << std::hex << C.S.Type);
    const size_t Bytes =
        (C.Slice ? C.Slice * (C.S.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? C.S.Ext[1] : C.S.Ext[2])
                 : C.Row * C.S.Ext[1]);
    std::vector<unsigned char> Host = pattern(Bytes, 10);
    cl_image_desc D = descOf(C.S);
    D.image_row_pitch = C.Row;
    D.image_slice_pitch = C.Slice;
    cl_mem M = image(Rgba8, D, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, Host.data());
    ASSERT_NE(M, nullptr);
    std::vector<unsigned char> Want(C.S.Ext[0] * C.S.Ext[1] * C.S.Ext[2] * 4);
    const size_t Zero[3] = {0, 0, 0};
    copyRegion(C.S, 4, C.S.Ext, Host.data(), Zero, C.Row, C.Slice, Want.data(), Zero,
               packedRow(C.S, 4), packedSlice(C.S, 4));
    std::fill(Host.begin(), Host.end(), 0); // a copy: later host writes do not reach it
    EXPECT_EQ(readAll(M, C.S, 4), Want);
    EXPECT_EQ(info<size_t>(clGetImageInfo, M, CL_IMAGE_ROW_PITCH), C.Row)
        << "the row pitch given is the one reported";
  }
}
