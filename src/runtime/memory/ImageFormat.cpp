// The format table of the specification ("Image Format Descriptor"): the
// channel orders with the data types each allows, and the host-side pixel
// packing of clEnqueueFillImage.
#include "runtime/memory/ImageFormat.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace weft::rt {

namespace {

constexpr cl_channel_order AllOrders[] = {
    CL_R,     CL_A,    CL_RG,        CL_RA,        CL_RGB,   CL_RGBA, CL_BGRA,
    CL_ARGB,  CL_ABGR, CL_INTENSITY, CL_LUMINANCE, CL_Rx,    CL_RGx,  CL_RGBx,
    CL_DEPTH, CL_sRGB, CL_sRGBx,     CL_sRGBA,     CL_sBGRA,
};

constexpr cl_channel_type AllTypes[] = {
    CL_SNORM_INT8,      CL_SNORM_INT16,      CL_UNORM_INT8,     CL_UNORM_INT16,  CL_UNORM_SHORT_565,
    CL_UNORM_SHORT_555, CL_UNORM_INT_101010, CL_SIGNED_INT8,    CL_SIGNED_INT16, CL_SIGNED_INT32,
    CL_UNSIGNED_INT8,   CL_UNSIGNED_INT16,   CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT,
};

bool isPacked(cl_channel_type T) {
  return T == CL_UNORM_SHORT_565 || T == CL_UNORM_SHORT_555 || T == CL_UNORM_INT_101010;
}

/// Bytes of one channel of an unpacked type.
size_t channelBytes(cl_channel_type T) {
  switch (T) {
  case CL_SNORM_INT8:
  case CL_UNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8:
    return 1;
  case CL_SNORM_INT16:
  case CL_UNORM_INT16:
  case CL_SIGNED_INT16:
  case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT:
    return 2;
  case CL_SIGNED_INT32:
  case CL_UNSIGNED_INT32:
  case CL_FLOAT:
    return 4;
  default:
    return 0;
  }
}

/// The specification's table of channel orders and the data types each
/// takes.
bool validPair(cl_channel_order O, cl_channel_type T) {
  switch (O) {
  case CL_R:
  case CL_A:
  case CL_RG:
  case CL_RA:
  case CL_RGBA:
  case CL_Rx:
  case CL_RGx:
    return channelBytes(T) != 0;
  case CL_RGB:
  case CL_RGBx:
    return isPacked(T);
  case CL_BGRA:
  case CL_ARGB:
  case CL_ABGR:
    return T == CL_UNORM_INT8 || T == CL_SNORM_INT8 || T == CL_SIGNED_INT8 || T == CL_UNSIGNED_INT8;
  case CL_INTENSITY:
  case CL_LUMINANCE:
    return T == CL_UNORM_INT8 || T == CL_UNORM_INT16 || T == CL_SNORM_INT8 || T == CL_SNORM_INT16 ||
           T == CL_HALF_FLOAT || T == CL_FLOAT;
  case CL_DEPTH:
    return T == CL_UNORM_INT16 || T == CL_FLOAT;
  case CL_sRGB:
  case CL_sRGBx:
  case CL_sRGBA:
  case CL_sBGRA:
    return T == CL_UNORM_INT8;
  default:
    return false;
  }
}

/// Which colour component (0 r, 1 g, 2 b, 3 a) each channel of Order
/// holds, in memory order (-1: none; the channel count ends the list).
/// The x of CL_sRGBx holds alpha's, as write_image writes it (Images.cl).
std::array<int, 4> channelSources(cl_channel_order O) {
  switch (O) {
  case CL_R:
  case CL_INTENSITY:
  case CL_LUMINANCE:
  case CL_DEPTH:
    return {0, -1, -1, -1};
  case CL_A:
    return {3, -1, -1, -1};
  case CL_RG:
    return {0, 1, -1, -1};
  case CL_RA:
    return {0, 3, -1, -1};
  case CL_Rx:
    return {0, -1, -1, -1};
  case CL_RGx:
    return {0, 1, -1, -1};
  case CL_RGB:
  case CL_sRGB:
    return {0, 1, 2, -1};
  case CL_BGRA:
  case CL_sBGRA:
    return {2, 1, 0, 3};
  case CL_ARGB:
    return {3, 0, 1, 2};
  case CL_ABGR:
    return {3, 2, 1, 0};
  default: // CL_RGBA, CL_sRGBA
    return {0, 1, 2, 3};
  }
}

bool isSrgb(cl_channel_order O) {
  return O == CL_sRGB || O == CL_sRGBx || O == CL_sRGBA || O == CL_sBGRA;
}

/// Rounds to nearest even and saturates to [Lo, Hi]; NaN is 0.
int64_t roundSat(double V, double Lo, double Hi) {
  if (std::isnan(V))
    return 0;
  return int64_t(std::nearbyint(std::clamp(V, Lo, Hi)));
}

/// A float as IEEE half, rounded to nearest even (write_imagef on
/// CL_HALF_FLOAT; vstore_half_rte).
uint16_t toHalf(float F) {
  uint32_t Bits;
  std::memcpy(&Bits, &F, 4);
  const uint16_t Sign = uint16_t((Bits >> 16) & 0x8000);
  const uint32_t Abs = Bits & 0x7fffffff;
  if (Abs >= 0x7f800000) // Inf, or NaN kept quiet
    return Sign | (Abs > 0x7f800000 ? 0x7e00 : 0x7c00);
  if (Abs >= 0x477ff000) // rounds to above the largest half
    return Sign | 0x7c00;
  if (Abs < 0x38800000) {                      // a half denormal (or 0): multiples of 2^-24
    float Scaled = std::fabs(F) * 16777216.0f; // exact: a power of two
    return Sign | uint16_t(std::nearbyint(Scaled));
  }
  // Normal: rebias the exponent, round the 13 dropped mantissa bits to even.
  uint32_t H = ((Abs - 0x38000000) >> 13);
  const uint32_t Dropped = Abs & 0x1fff;
  if (Dropped > 0x1000 || (Dropped == 0x1000 && (H & 1)))
    ++H;
  return Sign | uint16_t(H);
}

/// The specification's linear to sRGB conversion (cl_khr_srgb_image_writes).
float linearToSrgb(float C) {
  if (std::isnan(C))
    return 0.0f;
  C = std::clamp(C, 0.0f, 1.0f);
  return C <= 0.0031308f ? 12.92f * C : 1.055f * std::pow(C, 1.0f / 2.4f) - 0.055f;
}

/// Channels stored per pixel of an unpacked type (CL_RGBA: 4).
size_t imageChannelCount(cl_channel_order Order) {
  // The x orders store what their linear forms store (CL_Rx: one channel);
  // only their border colour differs.
  switch (Order) {
  case CL_R:
  case CL_A:
  case CL_Rx:
  case CL_INTENSITY:
  case CL_LUMINANCE:
  case CL_DEPTH:
    return 1;
  case CL_RG:
  case CL_RA:
  case CL_RGx:
    return 2;
  case CL_RGB:
  case CL_sRGB:
    return 3;
  default:
    return 4;
  }
}

} // namespace

bool imageFormatDefined(const cl_image_format &F) {
  const cl_channel_order O = F.image_channel_order;
  const cl_channel_type T = F.image_channel_data_type;
  // Beyond what the built-ins decode: the 2.1 packed RGBA type and the
  // depth-stencil formats of the OpenGL sharing extensions.
  return validPair(O, T) || (O == CL_RGBA && T == CL_UNORM_INT_101010_2) ||
         (O == CL_DEPTH_STENCIL && (T == CL_UNORM_INT24 || T == CL_FLOAT)) ||
         (O == CL_DEPTH && T == CL_UNORM_INT24);
}

size_t imageElementSize(const cl_image_format &F) {
  if (!validPair(F.image_channel_order, F.image_channel_data_type))
    return 0;
  if (F.image_channel_data_type == CL_UNORM_INT_101010)
    return 4;
  if (isPacked(F.image_channel_data_type))
    return 2;
  return imageChannelCount(F.image_channel_order) * channelBytes(F.image_channel_data_type);
}

bool imageFormatSupported(const cl_image_format &F, cl_mem_object_type Type) {
  if (!imageElementSize(F))
    return false;
  // cl_khr_depth_images: depth formats for 2D images and 2D arrays only.
  if (F.image_channel_order == CL_DEPTH)
    return Type == CL_MEM_OBJECT_IMAGE2D || Type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  return true;
}

std::vector<cl_image_format> supportedImageFormats(cl_mem_object_type Type) {
  std::vector<cl_image_format> Out;
  for (cl_channel_order O : AllOrders)
    for (cl_channel_type T : AllTypes) {
      cl_image_format F{O, T};
      if (imageFormatSupported(F, Type))
        Out.push_back(F);
    }
  return Out;
}

std::array<unsigned char, 16> packImageColor(const cl_image_format &F, const void *Color) {
  std::array<unsigned char, 16> Pixel{};
  const cl_channel_type T = F.image_channel_data_type;
  const cl_channel_order O = F.image_channel_order;
  // "The fill color is a single floating-point value if the channel order
  // is CL_DEPTH", else four components.
  const size_t ColorBytes = O == CL_DEPTH ? 4 : 16;
  float Fv[4] = {};
  int32_t Iv[4] = {};
  uint32_t Uv[4] = {};
  std::memcpy(Fv, Color, ColorBytes);
  std::memcpy(Iv, Color, ColorBytes);
  std::memcpy(Uv, Color, ColorBytes);
  if (isSrgb(O))
    for (int C = 0; C < 3; ++C)
      Fv[C] = linearToSrgb(Fv[C]);

  if (isPacked(T)) {
    // R in the high bits; 565: 5-6-5, 555: x-5-5-5, 101010: xx-10-10-10.
    auto Scale = [&](int C, double Max) {
      return uint32_t(roundSat(double(Fv[C] * float(Max)), 0, Max));
    };
    uint32_t Word;
    if (T == CL_UNORM_SHORT_565)
      Word = Scale(0, 31) << 11 | Scale(1, 63) << 5 | Scale(2, 31);
    else if (T == CL_UNORM_SHORT_555)
      Word = Scale(0, 31) << 10 | Scale(1, 31) << 5 | Scale(2, 31);
    else
      Word = Scale(0, 1023) << 20 | Scale(1, 1023) << 10 | Scale(2, 1023);
    std::memcpy(Pixel.data(), &Word, T == CL_UNORM_INT_101010 ? 4 : 2);
    return Pixel;
  }

  const std::array<int, 4> Src = channelSources(O);
  const size_t Bytes = channelBytes(T);
  const size_t Stored = imageElementSize(F) / Bytes; // with padding channels
  for (size_t Ch = 0; Ch < Stored; ++Ch) {
    const int C = Src[Ch];
    unsigned char *Dst = Pixel.data() + Ch * Bytes;
    // Each conversion as the kernel's: the product in float, then rounded.
    switch (T) {
    case CL_UNORM_INT8:
      Dst[0] = uint8_t(roundSat(Fv[C] * 255.0f, 0, 255));
      break;
    case CL_SNORM_INT8:
      Dst[0] = uint8_t(int8_t(roundSat(Fv[C] * 127.0f, -128, 127)));
      break;
    case CL_UNORM_INT16: {
      uint16_t V = uint16_t(roundSat(Fv[C] * 65535.0f, 0, 65535));
      std::memcpy(Dst, &V, 2);
      break;
    }
    case CL_SNORM_INT16: {
      int16_t V = int16_t(roundSat(Fv[C] * 32767.0f, -32768, 32767));
      std::memcpy(Dst, &V, 2);
      break;
    }
    case CL_HALF_FLOAT: {
      uint16_t V = toHalf(Fv[C]);
      std::memcpy(Dst, &V, 2);
      break;
    }
    case CL_FLOAT:
      std::memcpy(Dst, &Fv[C], 4);
      break;
    case CL_SIGNED_INT8:
      Dst[0] = uint8_t(int8_t(std::clamp<int32_t>(Iv[C], INT8_MIN, INT8_MAX)));
      break;
    case CL_SIGNED_INT16: {
      int16_t V = int16_t(std::clamp<int32_t>(Iv[C], INT16_MIN, INT16_MAX));
      std::memcpy(Dst, &V, 2);
      break;
    }
    case CL_SIGNED_INT32:
      std::memcpy(Dst, &Iv[C], 4);
      break;
    case CL_UNSIGNED_INT8:
      Dst[0] = uint8_t(std::min<uint32_t>(Uv[C], UINT8_MAX));
      break;
    case CL_UNSIGNED_INT16: {
      uint16_t V = uint16_t(std::min<uint32_t>(Uv[C], UINT16_MAX));
      std::memcpy(Dst, &V, 2);
      break;
    }
    case CL_UNSIGNED_INT32:
      std::memcpy(Dst, &Uv[C], 4);
      break;
    default:
      break;
    }
  }
  return Pixel;
}

} // namespace weft::rt
