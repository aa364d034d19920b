// What the image tests share (ImageTest.cpp, ImageCommandTest.cpp,
// ImageKernelTest.cpp, ImageKernelAccessTest.cpp): an image's shape and its
// host-memory layout, the formats' pixel sizes, the specification's rules
// for turning a stored pixel into the colour a read returns, and a fixture
// that creates, writes and reads images and runs kernels on them.
#pragma once

#include "ApiTest.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace weft::test {

/// An image's type and its extents as the image commands count them:
/// width; height, or layers of a 1D array; depth, or layers of a 2D array.
struct Shape {
  cl_mem_object_type Type;
  size_t Ext[3];
};

inline cl_image_desc descOf(const Shape &S, cl_mem Buffer = nullptr) {
  cl_image_desc D{};
  D.image_type = S.Type;
  D.image_width = S.Ext[0];
  switch (S.Type) {
  case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    D.image_array_size = S.Ext[1];
    break;
  case CL_MEM_OBJECT_IMAGE2D:
    D.image_height = S.Ext[1];
    break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    D.image_height = S.Ext[1];
    D.image_array_size = S.Ext[2];
    break;
  case CL_MEM_OBJECT_IMAGE3D:
    D.image_height = S.Ext[1];
    D.image_depth = S.Ext[2];
    break;
  default:
    break;
  }
  D.buffer = Buffer;
  return D;
}

/// Whether S has slices: a slice pitch applies to it.
inline bool hasSlices(const Shape &S) {
  return S.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY || S.Type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
         S.Type == CL_MEM_OBJECT_IMAGE3D;
}

/// Byte offset of pixel (X, Y, Z) in host memory laid out with the given
/// pitches: a 1D array's layers are a slice pitch apart, as the
/// specification describes each image of an array.
inline size_t at(const Shape &S, size_t X, size_t Y, size_t Z, size_t Elem, size_t Row,
                 size_t Slice) {
  if (S.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY)
    return X * Elem + Y * Slice;
  return X * Elem + Y * Row + Z * Slice;
}

/// The pitches of S packed in host memory: rows of Ext[0] pixels, and (for
/// shapes with slices) slices of one row (1D array) or Ext[1] rows.
inline size_t packedRow(const Shape &S, size_t Elem) { return S.Ext[0] * Elem; }
inline size_t packedSlice(const Shape &S, size_t Elem) {
  if (!hasSlices(S))
    return 0;
  return S.Type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? S.Ext[0] * Elem : S.Ext[0] * Elem * S.Ext[1];
}

/// Copies Region from Src (at SrcOrigin, with its pitches) to Dst (at
/// DstOrigin, with its pitches), both host layouts of an image of type S.
inline void copyRegion(const Shape &S, size_t Elem, const size_t Region[3],
                       const unsigned char *Src, const size_t SrcOrigin[3], size_t SrcRow,
                       size_t SrcSlice, unsigned char *Dst, const size_t DstOrigin[3],
                       size_t DstRow, size_t DstSlice) {
  for (size_t Z = 0; Z < Region[2]; ++Z)
    for (size_t Y = 0; Y < Region[1]; ++Y)
      std::memcpy(
          Dst + at(S, DstOrigin[0], DstOrigin[1] + Y, DstOrigin[2] + Z, Elem, DstRow, DstSlice),
          Src + at(S, SrcOrigin[0], SrcOrigin[1] + Y, SrcOrigin[2] + Z, Elem, SrcRow, SrcSlice),
          Region[0] * Elem);
}

/// N bytes that differ from row to row and from Seed to Seed.
inline std::vector<unsigned char> pattern(size_t N, unsigned Seed) {
  std::vector<unsigned char> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = static_cast<unsigned char>(I * 31 + I / 13 + Seed * 101);
  return V;
}

inline bool sameFormat(const cl_image_format &A, const cl_image_format &B) {
  return A.image_channel_order == B.image_channel_order &&
         A.image_channel_data_type == B.image_channel_data_type;
}

inline size_t channelCount(cl_channel_order O) {
  switch (O) {
  case CL_R:
  case CL_A:
  case CL_INTENSITY:
  case CL_LUMINANCE:
  case CL_DEPTH:
    return 1;
  case CL_RG:
  case CL_RA:
  case CL_Rx:
    return 2;
  case CL_RGB:
  case CL_RGx:
  case CL_sRGB:
    return 3;
  default:
    return 4;
  }
}

inline size_t elementSize(cl_image_format F) {
  const size_t N = channelCount(F.image_channel_order);
  switch (F.image_channel_data_type) {
  case CL_UNORM_SHORT_565:
  case CL_UNORM_SHORT_555:
    return 2;
  case CL_UNORM_INT_101010:
  case CL_UNORM_INT_101010_2:
    return 4;
  case CL_UNORM_INT8:
  case CL_SNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8:
    return N;
  case CL_UNORM_INT16:
  case CL_SNORM_INT16:
  case CL_SIGNED_INT16:
  case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT:
    return 2 * N;
  default:
    return 4 * N;
  }
}

/// A half's value (every half is a float).
inline float halfToFloat(uint16_t H) {
  const int Exp = (H >> 10) & 0x1f, Man = H & 0x3ff;
  float V = Exp == 0    ? std::ldexp(float(Man), -24)
            : Exp == 31 ? (Man ? std::numeric_limits<float>::quiet_NaN()
                               : std::numeric_limits<float>::infinity())
                        : std::ldexp(float(Man | 0x400), Exp - 25);
  return H & 0x8000 ? -V : V;
}

/// Which colour component (r, g, b, a = 0..3) each stored channel holds.
inline std::vector<int> storedComponents(cl_channel_order O) {
  switch (O) {
  case CL_A:
    return {3};
  case CL_RG:
    return {0, 1};
  case CL_RA:
    return {0, 3};
  case CL_RGB:
    return {0, 1, 2};
  case CL_RGBA:
  case CL_sRGBA:
    return {0, 1, 2, 3};
  case CL_BGRA:
    return {2, 1, 0, 3};
  case CL_ARGB:
    return {3, 0, 1, 2};
  case CL_ABGR:
    return {3, 2, 1, 0};
  default: // CL_R, CL_INTENSITY, CL_LUMINANCE, CL_DEPTH
    return {0};
  }
}

/// The colour a read returns for the pixel at P, before any filter: the
/// stored channels converted as the specification says, placed by the
/// channel order, the missing ones (0, 0, 0, 1). Integers are exact in a
/// double. For sRGB orders the value is the stored one, before the step to
/// linear RGB.
inline std::array<double, 4> decode(cl_image_format F, const unsigned char *P) {
  std::vector<double> C;
  auto get = [&](auto Type) {
    decltype(Type) V;
    for (size_t I = 0; I < storedComponents(F.image_channel_order).size(); ++I) {
      std::memcpy(&V, P + I * sizeof(V), sizeof(V));
      C.push_back(double(V));
    }
  };
  uint32_t Packed = 0;
  if (F.image_channel_data_type == CL_UNORM_SHORT_565 ||
      F.image_channel_data_type == CL_UNORM_SHORT_555 ||
      F.image_channel_data_type == CL_UNORM_INT_101010)
    std::memcpy(&Packed, P, elementSize(F));
  switch (F.image_channel_data_type) {
  case CL_UNORM_INT8:
    get(uint8_t());
    for (double &V : C)
      V = float(V) / 255.0f;
    break;
  case CL_UNORM_INT16:
    get(uint16_t());
    for (double &V : C)
      V = float(V) / 65535.0f;
    break;
  case CL_SNORM_INT8:
    get(int8_t());
    for (double &V : C)
      V = std::max(-1.0f, float(V) / 127.0f);
    break;
  case CL_SNORM_INT16:
    get(int16_t());
    for (double &V : C)
      V = std::max(-1.0f, float(V) / 32767.0f);
    break;
  case CL_UNORM_SHORT_565:
    C = {(Packed >> 11 & 31) / 31.0f, (Packed >> 5 & 63) / 63.0f, (Packed & 31) / 31.0f};
    break;
  case CL_UNORM_SHORT_555:
    C = {(Packed >> 10 & 31) / 31.0f, (Packed >> 5 & 31) / 31.0f, (Packed & 31) / 31.0f};
    break;
  case CL_UNORM_INT_101010:
    C = {(Packed >> 20 & 1023) / 1023.0f, (Packed >> 10 & 1023) / 1023.0f,
         (Packed & 1023) / 1023.0f};
    break;
  case CL_HALF_FLOAT:
    get(uint16_t());
    for (double &V : C)
      V = halfToFloat(uint16_t(V));
    break;
  case CL_FLOAT:
    get(float());
    break;
  case CL_SIGNED_INT8:
    get(int8_t());
    break;
  case CL_SIGNED_INT16:
    get(int16_t());
    break;
  case CL_SIGNED_INT32:
    get(int32_t());
    break;
  case CL_UNSIGNED_INT8:
    get(uint8_t());
    break;
  case CL_UNSIGNED_INT16:
    get(uint16_t());
    break;
  case CL_UNSIGNED_INT32:
    get(uint32_t());
    break;
  }
  std::array<double, 4> Out = {0, 0, 0, 1};
  const std::vector<int> Map = storedComponents(F.image_channel_order);
  for (size_t I = 0; I < Map.size(); ++I)
    Out[Map[I]] = C[I];
  if (F.image_channel_order == CL_INTENSITY)
    Out = {C[0], C[0], C[0], C[0]};
  if (F.image_channel_order == CL_LUMINANCE)
    Out = {C[0], C[0], C[0], 1};
  return Out;
}

inline constexpr cl_mem_object_type AllImageTypes[] = {
    CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
    CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D};
inline constexpr cl_channel_type AllDataTypes[] = {
    CL_UNORM_INT8,     CL_UNORM_INT16,    CL_SNORM_INT8,   CL_SNORM_INT16,
    CL_SIGNED_INT8,    CL_SIGNED_INT16,   CL_SIGNED_INT32, CL_UNSIGNED_INT8,
    CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT};
inline constexpr cl_image_format Rgba8{CL_RGBA, CL_UNORM_INT8};
inline constexpr cl_image_format Rgba16u{CL_RGBA, CL_UNSIGNED_INT16};

/// A queue plus images of its context, released at TearDown.
/// Channel Ch of result I in Bytes, results of four 4-byte channels: a
/// float for Fn 'f' (and 'd', a depth read), an int for 'i', a uint else.
inline double resultChannel(char Fn, const std::vector<unsigned char> &Bytes, size_t I, int Ch) {
  const unsigned char *P = &Bytes[I * 16 + Ch * 4];
  if (Fn == 'f' || Fn == 'd') {
    float V;
    std::memcpy(&V, P, 4);
    return V;
  }
  if (Fn == 'i') {
    int32_t V;
    std::memcpy(&V, P, 4);
    return V;
  }
  uint32_t V;
  std::memcpy(&V, P, 4);
  return V;
}

class Images : public WithQueue {
protected:
  cl_mem image(cl_image_format F, const cl_image_desc &D, cl_mem_flags Flags = CL_MEM_READ_WRITE,
               void *Host = nullptr) {
    cl_int Err;
    cl_mem M = clCreateImage(Context, Flags, &F, &D, Host, &Err);
    EXPECT_EQ(Err, CL_SUCCESS) << "format " << std::hex << F.image_channel_order << "/"
                               << F.image_channel_data_type << ", type " << D.image_type;
    if (M)
      OwnedMems.push_back(M);
    return M;
  }
  /// An image of shape S (a 1D image buffer on a new buffer of its size).
  cl_mem image(cl_image_format F, const Shape &S, cl_mem_flags Flags = CL_MEM_READ_WRITE) {
    cl_mem Buffer = nullptr;
    if (S.Type == CL_MEM_OBJECT_IMAGE1D_BUFFER)
      Buffer = buffer(S.Ext[0] * elementSize(F));
    return image(F, descOf(S, Buffer), Flags);
  }
  /// The error clCreateImage returns, checking that it returns no image.
  cl_int createError(cl_mem_flags Flags, const cl_image_format *F, const cl_image_desc *D,
                     void *Host = nullptr) {
    cl_int Err = CL_SUCCESS;
    cl_mem M = clCreateImage(Context, Flags, F, D, Host, &Err);
    EXPECT_EQ(M, nullptr);
    if (M)
      clReleaseMemObject(M);
    return Err;
  }
  std::vector<cl_image_format> supported(cl_mem_flags Flags, cl_mem_object_type Type) {
    cl_uint Num = 0;
    EXPECT_EQ(clGetSupportedImageFormats(Context, Flags, Type, 0, nullptr, &Num), CL_SUCCESS);
    std::vector<cl_image_format> Formats(Num);
    if (Num) {
      EXPECT_EQ(clGetSupportedImageFormats(Context, Flags, Type, Num, Formats.data(), nullptr),
                CL_SUCCESS);
    }
    return Formats;
  }
  cl_int readImage(cl_mem M, const size_t *Origin, const size_t *Region, size_t Row, size_t Slice,
                   void *Ptr) {
    return clEnqueueReadImage(Queue, M, CL_TRUE, Origin, Region, Row, Slice, Ptr, 0, nullptr,
                              nullptr);
  }
  cl_int writeImage(cl_mem M, const size_t *Origin, const size_t *Region, size_t Row, size_t Slice,
                    const void *Ptr) {
    return clEnqueueWriteImage(Queue, M, CL_TRUE, Origin, Region, Row, Slice, Ptr, 0, nullptr,
                               nullptr);
  }
  /// The whole image's bytes, packed (packedRow, packedSlice).
  std::vector<unsigned char> readAll(cl_mem M, const Shape &S, size_t Elem) {
    std::vector<unsigned char> Out(S.Ext[0] * S.Ext[1] * S.Ext[2] * Elem);
    const size_t Origin[3] = {0, 0, 0};
    EXPECT_EQ(readImage(M, Origin, S.Ext, packedRow(S, Elem), packedSlice(S, Elem), Out.data()),
              CL_SUCCESS);
    return Out;
  }
  void writeAll(cl_mem M, const Shape &S, size_t Elem, const std::vector<unsigned char> &Bytes) {
    const size_t Origin[3] = {0, 0, 0};
    ASSERT_EQ(writeImage(M, Origin, S.Ext, packedRow(S, Elem), packedSlice(S, Elem), Bytes.data()),
              CL_SUCCESS);
  }
  bool hasFeature(const char *Name) {
    size_t Size = 0;
    EXPECT_EQ(clGetDeviceInfo(Device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &Size), CL_SUCCESS);
    std::vector<cl_name_version> Features(Size / sizeof(cl_name_version));
    EXPECT_EQ(clGetDeviceInfo(Device, CL_DEVICE_OPENCL_C_FEATURES, Size, Features.data(), nullptr),
              CL_SUCCESS);
    return std::any_of(Features.begin(), Features.end(),
                       [&](const cl_name_version &F) { return std::string(F.name) == Name; });
  }
  /// Builds Source as OpenCL C 3.0 (or with Options), released at TearDown.
  cl_program program(const std::string &Source, const char *Options = "-cl-std=CL3.0") {
    cl_program P = build(Source, Options);
    OwnedPrograms.push_back(P);
    return P;
  }
  cl_kernel make(cl_program P, const std::string &Name) { return kernelOf(P, Name); }
  /// A read-only buffer holding V.
  template <typename T> cl_mem input(const std::vector<T> &V) {
    return buffer(V.size() * sizeof(T), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                  const_cast<T *>(V.data()));
  }
  void run(cl_kernel K, size_t Dims, const size_t *Global) {
    ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, cl_uint(Dims), nullptr, Global, nullptr, 0, nullptr,
                                     nullptr),
              CL_SUCCESS);
  }
  template <typename T> void setArg(cl_kernel K, cl_uint I, const T &V) {
    ASSERT_EQ(clSetKernelArg(K, I, sizeof(T), &V), CL_SUCCESS) << "argument " << I;
  }
};

} // namespace weft::test
