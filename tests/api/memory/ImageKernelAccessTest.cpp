// Image access without samplers in kernels: sampler-less reads of each
// channel order and data type compared with the specification's
// conversion rules (exact where it says exact, within its ulps elsewhere),
// writes byte for byte (round to nearest even, saturation, NaN to 0), the
// image queries of every image type, read_write images with a fence,
// images on buffers, and an OpenCL C 1.2 program. Sampled reads are in
// ImageKernelTest.cpp.
#include "ImageTestUtil.h"

using namespace weft::test;

namespace {

class ImageAccess : public Images {};

/// F as a half, for values a half holds exactly (zero or normal).
uint16_t exactHalf(float F) {
  const uint16_t Sign = std::signbit(F) ? 0x8000 : 0;
  if (F == 0)
    return Sign;
  int E;
  const float M = std::frexp(std::fabs(F), &E); // |F| = M * 2^E, M in [0.5, 1)
  return uint16_t(Sign | ((E + 14) << 10) | uint16_t((M * 2 - 1) * 1024));
}

/// convert_<T>_sat_rte(V): NaN is 0, the rest rounded to nearest even and
/// clamped.
template <typename T> T satRte(float V) {
  if (std::isnan(V))
    return 0;
  const double R = std::nearbyint(double(V));
  return T(std::clamp(R, double(std::numeric_limits<T>::lowest()),
                      double(std::numeric_limits<T>::max())));
}

template <typename T, typename V> T sat(V X) {
  return T(std::clamp<int64_t>(int64_t(X), std::numeric_limits<T>::lowest(),
                               std::numeric_limits<T>::max()));
}

/// The bytes write_image{f,i,ui} stores for Colour (the 16 bytes of a
/// float4, int4 or uint4; a depth image's float in the first 4).
std::vector<unsigned char> encode(cl_image_format F, const unsigned char *Colour) {
  std::vector<unsigned char> Out;
  auto put = [&](auto V) {
    const auto *B = reinterpret_cast<const unsigned char *>(&V);
    Out.insert(Out.end(), B, B + sizeof(V));
  };
  for (int Comp : storedComponents(F.image_channel_order)) {
    float Fv;
    int32_t Iv;
    uint32_t Uv;
    std::memcpy(&Fv, Colour + 4 * Comp, 4);
    std::memcpy(&Iv, Colour + 4 * Comp, 4);
    std::memcpy(&Uv, Colour + 4 * Comp, 4);
    switch (F.image_channel_data_type) {
    case CL_UNORM_INT8:
      put(satRte<uint8_t>(Fv * 255.0f));
      break;
    case CL_UNORM_INT16:
      put(satRte<uint16_t>(Fv * 65535.0f));
      break;
    case CL_SNORM_INT8:
      put(satRte<int8_t>(Fv * 127.0f));
      break;
    case CL_SNORM_INT16:
      put(satRte<int16_t>(Fv * 32767.0f));
      break;
    case CL_HALF_FLOAT:
      put(exactHalf(Fv));
      break;
    case CL_FLOAT:
      put(Fv);
      break;
    case CL_SIGNED_INT8:
      put(sat<int8_t>(Iv));
      break;
    case CL_SIGNED_INT16:
      put(sat<int16_t>(Iv));
      break;
    case CL_SIGNED_INT32:
      put(Iv);
      break;
    case CL_UNSIGNED_INT8:
      put(sat<uint8_t>(Uv));
      break;
    case CL_UNSIGNED_INT16:
      put(sat<uint16_t>(Uv));
      break;
    case CL_UNSIGNED_INT32:
      put(Uv);
      break;
    }
  }
  return Out;
}

template <typename T> std::vector<unsigned char> bytesOf(std::initializer_list<T> Values) {
  std::vector<unsigned char> B(Values.size() * sizeof(T));
  std::memcpy(B.data(), Values.begin(), B.size());
  return B;
}

/// One ulp of X: the distance from |X| to the next float up.
double ulp(float X) {
  X = std::fabs(X);
  return double(std::nextafter(X, std::numeric_limits<float>::infinity())) - X;
}

/// The sRGB value of a linear one (the inverse of read_imagef's step).
double srgbFromLinear(double L) {
  return L <= 0.0031308 ? 12.92 * L : 1.055 * std::pow(L, 1 / 2.4) - 0.055;
}

} // namespace

TEST_F(ImageAccess, SamplerlessReadsDecodeEveryOrderAndType) {
  cl_program P = program(R"(
__kernel void f(read_only image2d_t im, __global float4 *o) {
  int i = get_global_id(0);
  o[i] = read_imagef(im, (int2)(i, 0));
}
__kernel void i(read_only image2d_t im, __global int4 *o) {
  int i = get_global_id(0);
  o[i] = read_imagei(im, (int2)(i, 0));
}
__kernel void u(read_only image2d_t im, __global uint4 *o) {
  int i = get_global_id(0);
  o[i] = read_imageui(im, (int2)(i, 0));
}
__kernel void d(read_only image2d_depth_t im, __global float4 *o) {
  int i = get_global_id(0);
  o[i] = (float4)(read_imagef(im, (int2)(i, 0)), 0, 0, 1);
}
)");
  const float Inf = std::numeric_limits<float>::infinity();
  struct Case {
    cl_image_format F;
    char Fn;
    std::vector<unsigned char> Bytes; // the first pixels; a pattern fills the rest
  } Cases[] = {
      {{CL_R, CL_UNORM_INT8}, 'f', {0, 255, 128, 51}},
      {{CL_RG, CL_SNORM_INT8}, 'f', {0x80, 0x81, 0x00, 0x7f, 0x40, 0xc0}},
      {{CL_RGBA, CL_UNORM_INT16}, 'f', bytesOf<uint16_t>({0, 65535, 32768, 1})},
      {{CL_RGBA, CL_SNORM_INT16}, 'f', bytesOf<int16_t>({-32768, -32767, 32767, 0})},
      {{CL_BGRA, CL_UNORM_INT8}, 'f', {10, 20, 30, 40}},
      {{CL_ARGB, CL_UNORM_INT8}, 'f', {10, 20, 30, 40}},
      {{CL_ABGR, CL_UNORM_INT8}, 'f', {10, 20, 30, 40}},
      {{CL_A, CL_UNORM_INT8}, 'f', {0, 255, 17}},
      {{CL_INTENSITY, CL_FLOAT}, 'f', bytesOf<float>({0.25f, -3.0f, 1e30f})},
      {{CL_LUMINANCE, CL_UNORM_INT16}, 'f', bytesOf<uint16_t>({65535, 0, 1000})},
      {{CL_RA, CL_HALF_FLOAT}, 'f', bytesOf<uint16_t>({0x3c00, 0xc000, 0x0001, 0x7bff})},
      {{CL_RGB, CL_UNORM_SHORT_565}, 'f', bytesOf<uint16_t>({0xffff, 0x0000, 0xf800, 0x07e0})},
      {{CL_RGB, CL_UNORM_SHORT_555}, 'f', bytesOf<uint16_t>({0x7fff, 0x8000, 0x7c00, 0x001f})},
      {{CL_RGB, CL_UNORM_INT_101010}, 'f', bytesOf<uint32_t>({0x3fffffff, 0xc0000000, 0x3ff00000})},
      {{CL_sRGBA, CL_UNORM_INT8}, 'f', {0, 255, 10, 128, 200, 3, 60, 90}},
      {{CL_RGBA, CL_HALF_FLOAT}, 'f', bytesOf<uint16_t>({0x3555, 0x8000, 0x7c00, 0x0400})},
      {{CL_RGBA, CL_FLOAT}, 'f', bytesOf<float>({-0.0f, Inf, -Inf, 3.5e-38f, 1.0f / 3})},
      {{CL_R, CL_SIGNED_INT8}, 'i', {0x80, 0x7f, 0xff, 5}},
      {{CL_RG, CL_SIGNED_INT16}, 'i', bytesOf<int16_t>({-32768, 32767, -2, 9})},
      {{CL_RGBA, CL_SIGNED_INT32},
       'i',
       bytesOf<int32_t>({std::numeric_limits<int32_t>::min(), 0x7fffffff, -1, 0})},
      {{CL_R, CL_UNSIGNED_INT8}, 'u', {0, 255, 128, 1}},
      {{CL_RG, CL_UNSIGNED_INT16}, 'u', bytesOf<uint16_t>({65535, 0, 32768, 7})},
      {{CL_RGBA, CL_UNSIGNED_INT32}, 'u', bytesOf<uint32_t>({0xffffffff, 0, 0x80000000, 3})},
      {{CL_DEPTH, CL_FLOAT}, 'd', bytesOf<float>({0.0f, 1.0f, 0.375f, -2.0f})},
      {{CL_DEPTH, CL_UNORM_INT16}, 'd', bytesOf<uint16_t>({0, 65535, 32768, 12345})},
  };
  const size_t Pixels = 8;
  for (const Case &C : Cases) {
    const cl_channel_type T = C.F.image_channel_data_type;
    SCOPED_TRACE(testing::Message() << std::hex << C.F.image_channel_order << "/" << T);
    const size_t E = elementSize(C.F);
    // Float formats are filled with small integers, never NaNs.
    std::vector<unsigned char> Bytes = pattern(Pixels * E, 12);
    if (T == CL_FLOAT || T == CL_HALF_FLOAT)
      for (size_t I = 0; I < Pixels * E; I += T == CL_FLOAT ? 4 : 2) {
        const float V = float(I % 9) - 4;
        if (T == CL_FLOAT)
          std::memcpy(&Bytes[I], &V, 4);
        else {
          const uint16_t H = exactHalf(V);
          std::memcpy(&Bytes[I], &H, 2);
        }
      }
    std::copy(C.Bytes.begin(), C.Bytes.end(), Bytes.begin());
    const Shape S{CL_MEM_OBJECT_IMAGE2D, {Pixels, 1, 1}};
    cl_mem Img = image(C.F, S, CL_MEM_READ_ONLY);
    writeAll(Img, S, E, Bytes);
    cl_kernel K = make(P, std::string(1, C.Fn));
    cl_mem Out = buffer(Pixels * 16);
    setArg(K, 0, Img);
    setArg(K, 1, Out);
    run(K, 1, &Pixels);
    std::vector<unsigned char> Got = read<unsigned char>(Out, Pixels * 16);
    const bool Normalized = T == CL_UNORM_INT8 || T == CL_UNORM_INT16 || T == CL_SNORM_INT8 ||
                            T == CL_SNORM_INT16 || T == CL_UNORM_SHORT_565 ||
                            T == CL_UNORM_SHORT_555 || T == CL_UNORM_INT_101010;
    // 0 and the largest code must convert exactly, except for 5-6-5 and 5-5-5.
    const bool ExactEnds = T != CL_UNORM_SHORT_565 && T != CL_UNORM_SHORT_555;
    for (size_t I = 0; I < Pixels; ++I) {
      const std::array<double, 4> Want = decode(C.F, &Bytes[I * E]);
      for (int Ch = 0; Ch < 4; ++Ch) {
        const double G = resultChannel(C.Fn, Got, I, Ch);
        const double W = Want[Ch];
        if (C.F.image_channel_order == CL_sRGBA && Ch < 3) {
          // Back to sRGB without rounding: within half a step of the byte.
          EXPECT_NEAR(srgbFromLinear(G), W, 0.5 / 255) << "pixel " << I << " channel " << Ch;
        } else if (Normalized && !(ExactEnds && (W == 0 || std::fabs(W) == 1))) {
          EXPECT_NEAR(G, W, 1.5 * ulp(float(W))) << "pixel " << I << " channel " << Ch;
        } else {
          // Exact: the ends of most normalized types, halves, floats, integers.
          EXPECT_EQ(G, W) << "pixel " << I << " channel " << Ch;
        }
      }
    }
  }
}

TEST_F(ImageAccess, WritesConvertRoundAndSaturate) {
  cl_program P = program(R"(
__kernel void f(write_only image2d_t im, __global const float4 *c) {
  int i = get_global_id(0);
  write_imagef(im, (int2)(i, 0), c[i]);
}
__kernel void i(write_only image2d_t im, __global const int4 *c) {
  int i = get_global_id(0);
  write_imagei(im, (int2)(i, 0), c[i]);
}
__kernel void u(write_only image2d_t im, __global const uint4 *c) {
  int i = get_global_id(0);
  write_imageui(im, (int2)(i, 0), c[i]);
}
__kernel void d(write_only image2d_depth_t im, __global const float4 *c) {
  int i = get_global_id(0);
  write_imagef(im, (int2)(i, 0), c[i].x);
}
)");
  const float NaN = std::numeric_limits<float>::quiet_NaN();
  // Normalized: 0.5 * 255 = 127.5 rounds to the even 128, -0.1 and NaN to 0,
  // 2.0 saturates; the rest by the rule.
  const std::vector<unsigned char> Unit =
      bytesOf<float>({0.5f, -0.1f, 2.0f, NaN, 0.25f, 0.75f, 1.0f, 0.0f, 0.3f, 0.6f, -0.5f, -2.0f,
                      1.0f / 3, 0.999f, 1e-3f, -1.0f});
  // Values a half holds exactly (conversions to half may round either way).
  const std::vector<unsigned char> Exact =
      bytesOf<float>({1.5f, -2.0f, 65504.0f, 6.103515625e-05f, 0.0f, -0.0f, 0.25f, 1024.0f, -0.125f,
                      3.0f, 100.0f, -7.5f, 0.5f, 2048.0f, -1.0f, 0.09375f});
  const std::vector<unsigned char> Ints =
      bytesOf<int32_t>({300, -300, -5, 7, 40000, -40000, 32767, -32768,
                        std::numeric_limits<int32_t>::min(), 0x7fffffff, 0, -1, 128, -129, 1, 2});
  const std::vector<unsigned char> Uints = bytesOf<uint32_t>(
      {300, 0, 255, 17, 70000, 65535, 65536, 1, 0xffffffff, 0, 256, 42, 0x80000000, 5, 6, 7});
  struct Case {
    cl_image_format F;
    char Fn;
    const std::vector<unsigned char> &In;
  } Cases[] = {
      {{CL_RGBA, CL_UNORM_INT8}, 'f', Unit},
      {{CL_RGBA, CL_SNORM_INT8}, 'f', Unit},
      {{CL_RGBA, CL_UNORM_INT16}, 'f', Unit},
      {{CL_RGBA, CL_SNORM_INT16}, 'f', Unit},
      {{CL_BGRA, CL_UNORM_INT8}, 'f', Unit},
      {{CL_R, CL_UNORM_INT8}, 'f', Unit},
      {{CL_R, CL_FLOAT}, 'f', Exact},
      {{CL_RG, CL_HALF_FLOAT}, 'f', Exact},
      {{CL_RGBA, CL_FLOAT}, 'f', Exact},
      {{CL_RGBA, CL_SIGNED_INT8}, 'i', Ints},
      {{CL_RGBA, CL_SIGNED_INT16}, 'i', Ints},
      {{CL_R, CL_SIGNED_INT32}, 'i', Ints},
      {{CL_RGBA, CL_UNSIGNED_INT8}, 'u', Uints},
      {{CL_RG, CL_UNSIGNED_INT16}, 'u', Uints},
      {{CL_RGBA, CL_UNSIGNED_INT32}, 'u', Uints},
      {{CL_DEPTH, CL_FLOAT}, 'd', Exact},
      {{CL_DEPTH, CL_UNORM_INT16}, 'd', Unit},
  };
  const size_t Pixels = 4;
  for (const Case &C : Cases) {
    SCOPED_TRACE(testing::Message()
                 << std::hex << C.F.image_channel_order << "/" << C.F.image_channel_data_type);
    const Shape S{CL_MEM_OBJECT_IMAGE2D, {Pixels, 1, 1}};
    cl_mem Img = image(C.F, S, CL_MEM_WRITE_ONLY);
    cl_kernel K = make(P, std::string(1, C.Fn));
    cl_mem In = input(C.In);
    setArg(K, 0, Img);
    setArg(K, 1, In);
    run(K, 1, &Pixels);
    std::vector<unsigned char> Want;
    for (size_t I = 0; I < Pixels; ++I) {
      const std::vector<unsigned char> Px = encode(C.F, &C.In[I * 16]);
      Want.insert(Want.end(), Px.begin(), Px.end());
    }
    EXPECT_EQ(readAll(Img, S, elementSize(C.F)), Want);
  }
  // The rule spelled out once: (0.5, -0.1, 2.0, NaN) is (128, 0, 255, 0).
  EXPECT_EQ(encode(Rgba8, Unit.data()), (std::vector<unsigned char>{128, 0, 255, 0}));
}

TEST_F(ImageAccess, ImageQueriesInKernels) {
  cl_program P = program(R"(
// o: width, height, depth, array size, dim.x, .y, .z, .w, order, type; -1 if none.
#define COMMON(im)                                                                       \
  o[0] = get_image_width(im);                                                            \
  o[8] = get_image_channel_order(im);                                                    \
  o[9] = get_image_channel_data_type(im);
__kernel void q1d(read_only image1d_t im, __global int *o) { COMMON(im) }
__kernel void q1db(read_only image1d_buffer_t im, __global int *o) { COMMON(im) }
__kernel void q1da(read_only image1d_array_t im, __global int *o) {
  COMMON(im)
  o[3] = (int)get_image_array_size(im);
}
__kernel void q2d(read_only image2d_t im, __global int *o) {
  COMMON(im)
  o[1] = get_image_height(im);
  vstore2(get_image_dim(im), 0, o + 4);
}
__kernel void q2da(read_only image2d_array_t im, __global int *o) {
  COMMON(im)
  o[1] = get_image_height(im);
  o[3] = (int)get_image_array_size(im);
  vstore2(get_image_dim(im), 0, o + 4);
}
__kernel void q3d(read_only image3d_t im, __global int *o) {
  COMMON(im)
  o[1] = get_image_height(im);
  o[2] = get_image_depth(im);
  vstore4(get_image_dim(im), 0, o + 4);
}
__kernel void q2dd(read_only image2d_depth_t im, __global int *o) {
  COMMON(im)
  o[1] = get_image_height(im);
  vstore2(get_image_dim(im), 0, o + 4);
}
)");
  struct Case {
    const char *Kernel;
    Shape S;
    cl_image_format F;
    std::vector<int> Want;
  } Cases[] = {
      {"q1d", {CL_MEM_OBJECT_IMAGE1D, {7, 1, 1}}, {CL_RGBA, CL_UNORM_INT8}, {7, -1, -1, -1}},
      {"q1db", {CL_MEM_OBJECT_IMAGE1D_BUFFER, {9, 1, 1}}, {CL_R, CL_FLOAT}, {9, -1, -1, -1}},
      {"q1da", {CL_MEM_OBJECT_IMAGE1D_ARRAY, {5, 3, 1}}, {CL_RG, CL_SIGNED_INT16}, {5, -1, -1, 3}},
      {"q2d", {CL_MEM_OBJECT_IMAGE2D, {6, 4, 1}}, {CL_BGRA, CL_UNORM_INT8}, {6, 4, -1, -1, 6, 4}},
      {"q2da",
       {CL_MEM_OBJECT_IMAGE2D_ARRAY, {5, 4, 3}},
       {CL_RGBA, CL_HALF_FLOAT},
       {5, 4, -1, 3, 5, 4}},
      {"q3d",
       {CL_MEM_OBJECT_IMAGE3D, {3, 4, 5}},
       {CL_R, CL_UNSIGNED_INT32},
       {3, 4, 5, -1, 3, 4, 5, 0}},
      {"q2dd", {CL_MEM_OBJECT_IMAGE2D, {2, 3, 1}}, {CL_DEPTH, CL_FLOAT}, {2, 3, -1, -1, 2, 3}},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Kernel);
    cl_mem Img = image(C.F, C.S, CL_MEM_READ_ONLY);
    std::vector<int> Want(10, -1);
    std::copy(C.Want.begin(), C.Want.end(), Want.begin());
    // CLK_* channel orders and types have the values of CL_*.
    Want[8] = int(C.F.image_channel_order);
    Want[9] = int(C.F.image_channel_data_type);
    cl_mem Out = input(std::vector<int>(10, -1));
    cl_kernel K = make(P, C.Kernel);
    setArg(K, 0, Img);
    setArg(K, 1, Out);
    const size_t One = 1;
    run(K, 1, &One);
    EXPECT_EQ(read<int>(Out, 10), Want);
  }
}

TEST_F(ImageAccess, ReadWriteImagesSeeTheirOwnWritesAfterAFence) {
  cl_program P = program(R"(
#ifndef __opencl_c_read_write_images
#error "read_write images are reported but not defined"
#endif
__kernel void bump(read_write image2d_t im, __global int4 *seen) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  int4 v = read_imagei(im, p);
  write_imagei(im, p, v + (int4)(1, 2, 3, 4));
  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
  seen[p.y * get_global_size(0) + p.x] = read_imagei(im, p);
}
__kernel void copy(read_only image2d_t im, __global int4 *o) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  o[p.y * get_global_size(0) + p.x] = read_imagei(im, p);
}
)");
  const Shape S{CL_MEM_OBJECT_IMAGE2D, {16, 8, 1}};
  const cl_image_format F{CL_RGBA, CL_SIGNED_INT32};
  std::vector<int32_t> Start(16 * 8 * 4);
  for (size_t I = 0; I < Start.size(); ++I)
    Start[I] = int32_t(I * 37) - 1000;
  std::vector<unsigned char> Bytes(Start.size() * 4);
  std::memcpy(Bytes.data(), Start.data(), Bytes.size());
  cl_mem Img = image(F, S);
  writeAll(Img, S, 16, Bytes);
  cl_mem Seen = buffer(Bytes.size()), Copy = buffer(Bytes.size());
  cl_kernel Bump = make(P, "bump"), Reader = make(P, "copy");
  setArg(Bump, 0, Img);
  setArg(Bump, 1, Seen);
  setArg(Reader, 0, Img);
  setArg(Reader, 1, Copy);
  std::vector<int32_t> Want = Start;
  for (int Round = 1; Round <= 2; ++Round) {
    SCOPED_TRACE(Round);
    run(Bump, 2, S.Ext);
    for (size_t I = 0; I < Want.size(); ++I)
      Want[I] += int32_t(I % 4) + 1;
    EXPECT_EQ(read<int32_t>(Seen, Want.size()), Want) << "the read after the fence";
    run(Reader, 2, S.Ext);
    EXPECT_EQ(read<int32_t>(Copy, Want.size()), Want) << "the next kernel";
  }
  std::vector<unsigned char> After = readAll(Img, S, 16);
  EXPECT_EQ(std::memcmp(After.data(), Want.data(), After.size()), 0) << "the host";
}

TEST_F(ImageAccess, BufferImagesShareTheBuffersBytes) {
  cl_program P = program(R"(
__kernel void get(read_only image1d_buffer_t im, __global uint4 *o) {
  int i = get_global_id(0);
  o[i] = read_imageui(im, i);
}
__kernel void put(write_only image1d_buffer_t im) {
  uint i = get_global_id(0);
  write_imageui(im, i, (uint4)(i, 2 * i, 3 * i, 0xabcd0000u + i));
}
__kernel void get_bytes(read_only image1d_buffer_t im, __global uchar *o) {
  int i = get_global_id(0);
  o[i] = (uchar)read_imageui(im, i).x;
}
)");
  const size_t N = 300;
  const cl_image_format F{CL_RGBA, CL_UNSIGNED_INT32};
  std::vector<uint32_t> Data(N * 4);
  for (size_t I = 0; I < Data.size(); ++I)
    Data[I] = uint32_t(I * 2654435761u);
  cl_mem Buf = buffer(N * 16, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, Data.data());
  cl_mem Img = image(F, descOf(Shape{CL_MEM_OBJECT_IMAGE1D_BUFFER, {N, 1, 1}}, Buf), 0);
  cl_mem Out = buffer(N * 16);
  cl_kernel Get = make(P, "get"), Put = make(P, "put"), GetBytes = make(P, "get_bytes");
  setArg(Get, 0, Img);
  setArg(Get, 1, Out);
  run(Get, 1, &N);
  EXPECT_EQ(read<uint32_t>(Out, N * 4), Data) << "the image reads the buffer's data";
  setArg(Put, 0, Img);
  run(Put, 1, &N);
  for (uint32_t I = 0; I < N; ++I) {
    Data[I * 4] = I;
    Data[I * 4 + 1] = 2 * I;
    Data[I * 4 + 2] = 3 * I;
    Data[I * 4 + 3] = 0xabcd0000u + I;
  }
  EXPECT_EQ(read<uint32_t>(Buf, N * 4), Data) << "the buffer shows the image's writes";
  // The buffer written by the host, read through a byte view of it.
  std::vector<unsigned char> Bytes = pattern(N * 16, 14);
  ASSERT_EQ(
      clEnqueueWriteBuffer(Queue, Buf, CL_TRUE, 0, Bytes.size(), Bytes.data(), 0, nullptr, nullptr),
      CL_SUCCESS);
  cl_mem ByteView =
      image({CL_R, CL_UNSIGNED_INT8},
            descOf(Shape{CL_MEM_OBJECT_IMAGE1D_BUFFER, {N * 16, 1, 1}}, Buf), CL_MEM_READ_ONLY);
  cl_mem ByteOut = buffer(N * 16);
  setArg(GetBytes, 0, ByteView);
  setArg(GetBytes, 1, ByteOut);
  const size_t All = N * 16;
  run(GetBytes, 1, &All);
  EXPECT_EQ(read<unsigned char>(ByteOut, All), Bytes);
}

TEST_F(ImageAccess, OpenCL12ProgramsUseImagesToo) {
  // OpenCL C 1.2: __read_only/__write_only, and an image without a
  // qualifier is read_only.
  cl_program P = program(R"(
__kernel void mirror(__read_only image2d_t in, __write_only image2d_t out, sampler_t s) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(out, (int2)(get_image_width(in) - 1 - p.x, p.y), read_imageui(in, s, p));
}
__kernel void fetch(image2d_t in, __global uint4 *o) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  o[p.y * get_image_width(in) + p.x] = read_imageui(in, p);
}
)",
                         "-cl-std=CL1.2");
  const Shape S{CL_MEM_OBJECT_IMAGE2D, {8, 4, 1}};
  const cl_image_format F{CL_RGBA, CL_UNSIGNED_INT8};
  std::vector<unsigned char> Pixels = pattern(8 * 4 * 4, 15);
  cl_mem In = image(F, S, CL_MEM_READ_ONLY), Out = image(F, S);
  writeAll(In, S, 4, Pixels);
  const cl_sampler_properties Props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE,
                                         CL_SAMPLER_ADDRESSING_MODE, CL_ADDRESS_CLAMP_TO_EDGE, 0};
  cl_int Err;
  cl_sampler Smp = clCreateSamplerWithProperties(Context, Props, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  cl_kernel Mirror = make(P, "mirror"), Fetch = make(P, "fetch");
  setArg(Mirror, 0, In);
  setArg(Mirror, 1, Out);
  setArg(Mirror, 2, Smp);
  run(Mirror, 2, S.Ext);
  cl_mem O = buffer(8 * 4 * 16);
  setArg(Fetch, 0, Out);
  setArg(Fetch, 1, O);
  run(Fetch, 2, S.Ext);
  std::vector<uint32_t> Want;
  for (size_t Y = 0; Y < 4; ++Y)
    for (size_t X = 0; X < 8; ++X)
      for (size_t C = 0; C < 4; ++C)
        Want.push_back(Pixels[(Y * 8 + (7 - X)) * 4 + C]);
  EXPECT_EQ(read<uint32_t>(O, Want.size()), Want);
  EXPECT_EQ(clReleaseSampler(Smp), CL_SUCCESS);
}

// Regression (launch-time specialization, JitExecutable::specialize): one
// kernel object launched on images of changing formats reads each with its
// own format, whether the formats alternate or repeat, and whether the
// program came from the disk cache, which keeps what specialization needs.
TEST_F(ImageAccess, OneKernelReadsImagesOfChangingFormats) {
  const char *Source = R"(
kernel void sum(read_only image2d_t in, global float *out) {
  int x = get_global_id(0);
  float4 v = read_imagef(in, (int2)(x, 0));
  out[x] = v.x + 2.0f * v.y + 4.0f * v.z + 8.0f * v.w;
})";
  const Shape S{CL_MEM_OBJECT_IMAGE2D, {4, 1, 1}};
  // Pixel x is filled with (x, x + 1, x + 2, x + 3) / 8 and reads back as
  // that colour stored in the format (eighths are exact in half and float;
  // the normalized formats round to their steps); CL_R reads (r, 0, 0, 1).
  struct Case {
    cl_image_format F;
    bool OnlyRed;
  } Cases[] = {{{CL_RGBA, CL_UNORM_INT8}, false}, {{CL_RGBA, CL_FLOAT}, false},
               {{CL_BGRA, CL_UNORM_INT8}, false}, {{CL_R, CL_UNORM_INT16}, true},
               {{CL_RGBA, CL_UNORM_INT8}, false}, {{CL_RGBA, CL_HALF_FLOAT}, false}};
  for (const char *Cache : {"off", "on"}) {
    SCOPED_TRACE(std::string("disk cache ") + Cache);
    std::string Dir = ::testing::TempDir() + "weft-specialize-cache";
    if (std::string(Cache) == "on")
      setenv("WEFT_CACHE_DIR", Dir.c_str(), 1);
    // The second round with the cache on builds from the entry the first
    // round stored.
    for (int Round = 0; Round < (std::string(Cache) == "on" ? 2 : 1); ++Round) {
      cl_kernel K = make(program(Source), "sum");
      cl_mem Out = buffer(4 * sizeof(float));
      for (const Case &C : Cases) {
        cl_mem In = image(C.F, S, CL_MEM_READ_ONLY);
        std::vector<float> Rgba(16);
        for (size_t I = 0; I < 16; ++I)
          Rgba[I] = float(I / 4 + I % 4) / 8.0f;
        const size_t Origin[3] = {0, 0, 0}, Region[3] = {4, 1, 1};
        ASSERT_EQ(clEnqueueFillImage(Queue, In, Rgba.data(), Origin, Region, 0, nullptr, nullptr),
                  CL_SUCCESS);
        // Each pixel its own value: fill pixel by pixel.
        for (size_t X = 0; X < 4; ++X) {
          const size_t At[3] = {X, 0, 0}, One[3] = {1, 1, 1};
          ASSERT_EQ(clEnqueueFillImage(Queue, In, &Rgba[4 * X], At, One, 0, nullptr, nullptr),
                    CL_SUCCESS);
        }
        setArg(K, 0, In);
        setArg(K, 1, Out);
        const size_t Global = 4;
        run(K, 1, &Global);
        std::vector<float> Got = read<float>(Out, 4);
        auto stored = [&](float V) {
          switch (C.F.image_channel_data_type) {
          case CL_UNORM_INT8:
            return float(std::nearbyint(V * 255.0f)) / 255.0f;
          case CL_UNORM_INT16:
            return float(std::nearbyint(V * 65535.0f)) / 65535.0f;
          default:
            return V;
          }
        };
        for (size_t X = 0; X < 4; ++X) {
          float P[4];
          for (int Ch = 0; Ch < 4; ++Ch)
            P[Ch] = stored(Rgba[4 * X + Ch]);
          const float Want = C.OnlyRed ? P[0] + 8.0f : P[0] + 2 * P[1] + 4 * P[2] + 8 * P[3];
          // (Within rounding: the kernel may scale by 1/255 where the host
          // divides, and fuse the sum's products.)
          EXPECT_NEAR(Got[X], Want, 1e-5f) << std::hex << C.F.image_channel_order << "/"
                                  << C.F.image_channel_data_type << std::dec << " pixel " << X;
        }
      }
    }
    setenv("WEFT_CACHE_DIR", "off", 1);
  }
}
