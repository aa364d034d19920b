// The image built-ins (OpenCL C 6.15.15): read_image{f,i,ui} with and
// without a sampler, write_image{f,i,ui} and the get_image_* queries, for
// every image type of core OpenCL C and cl_khr_depth_images, with the
// addressing, filtering and conversion rules of the specification's chapter
// 8. Not here: the half forms (cl_khr_fp16), the mipmap and the MSAA ones,
// extensions Weft does not report.
//
// An image argument points at the image's WeftImage; a sampler argument is
// its CLK_* bits carried as a pointer value, and so is what
// __translate_sampler_initializer (below) makes of a sampler literal, which
// thus folds into the reads once they are inlined. src/runtime/memory/ImageLayout.h
// is that contract; this file is its kernel side.
//
// Each overload is a line of a macro that puts its coordinates in (x, y, z),
// z the slice of a 3D image or the layer of an array, and calls readF/readI
// (a sampler, float coordinates), readAtF/readAtI (integer coordinates) or
// writeF/writeL. Those locate the texels (8.2) and fetch or store each as
// its channels in memory order, raw integers converted by data type (8.3)
// and put in (r, g, b, a) order by channel order (6.15.15.7).
//
// What the specification leaves undefined never reads or writes outside the
// image: a texel outside it reads as the border colour whatever the
// addressing mode (8.2 says so for CLAMP and NONE; a read without a sampler
// is NONE), a write outside it is dropped, a NaN or infinite coordinate
// picks a texel like another, read_image{i,ui} with a linear sampler takes
// the nearest texel. An image's format is the same for every work-item: its
// properties come from two small tables and the code selects on them rather
// than switching, since the kernel pipeline inlines all this into work-item
// loops the loop vectorizer must still widen. Nothing here calls the rest of
// the builtin library but powr (sRGB). The compile needs cl_khr_3d_image_writes
// and cl_khr_depth_images on: their overloads use their types.
#include "BuiltinMacros.h"
#include "runtime/memory/ImageLayout.h"

typedef __global const WeftImage *Img;

// Clang refuses casts of image and sampler types, but not __builtin_astype.
#define IMG(I) ((Img)__builtin_astype((I), __global void *))
#define SMP(S) ((uint)__builtin_astype((S), ulong))

// A pixel is only as aligned as the application's host_ptr and row pitch
// made it; the channel accesses say so, so that nothing widened from them
// assumes more.
typedef ushort __attribute__((aligned(1))) UnalignedUShort;
typedef uint __attribute__((aligned(1))) UnalignedUInt;

// Lane-wise min and max (maxnum and minnum for floats: a NaN operand gives
// the other one) and the rounding functions, as LLVM intrinsics rather than
// calls of Math.cl's.
#define VMIN __builtin_elementwise_min
#define VMAX __builtin_elementwise_max
#define VFLOOR __builtin_elementwise_floor
#define VRINT __builtin_elementwise_roundeven // rint in the default rounding mode
#define VFABS __builtin_elementwise_abs

// ---------------------------------------------------------------------------
// Formats
// ---------------------------------------------------------------------------

// Per channel order (indexed by order - CLK_R), 3 bits for each of r, g, b
// and a saying where a read takes it from (a channel in memory, 0 to 3, or
// Z for 0 or O for 1: 6.15.15.7's table of missing components), 2 bits for
// each channel in memory saying which of r, g, b, a (0 to 3) a write puts
// there, and two flags: the order has alpha (its border colour is then
// (0, 0, 0, 0), else (0, 0, 0, 1)) and it is sRGB. A padding channel (the x
// of CL_RGBx) is written with the component in its place, as the CTS's
// reference packs it; CL_INTENSITY and CL_LUMINANCE store red.
#define Z 4
#define O 5
#define I4 0, 1, 2, 3
#define ORDER(...) ORDER_BITS(__VA_ARGS__) // expands I4 first
#define ORDER_BITS(R, G, B, A, W0, W1, W2, W3, Alpha, Srgb)                                        \
  ((R) | (G) << 3 | (B) << 6 | (A) << 9 | (W0) << 12 | (W1) << 14 | (W2) << 16 | (W3) << 18 |      \
   (Alpha) << 20 | (Srgb) << 21)
#define ORDER_HAS_ALPHA (1u << 20)
#define ORDER_SRGB (1u << 21)
static __constant uint OrderTable[20] = {
    ORDER(0, Z, Z, O, I4, 0, 0),         // CLK_R
    ORDER(Z, Z, Z, 0, 3, 1, 2, 3, 1, 0), // CLK_A
    ORDER(0, 1, Z, O, I4, 0, 0),         // CLK_RG
    ORDER(0, Z, Z, 1, 0, 3, 2, 3, 1, 0), // CLK_RA
    ORDER(0, 1, 2, O, I4, 0, 0),         // CLK_RGB
    ORDER(0, 1, 2, 3, I4, 1, 0),         // CLK_RGBA
    ORDER(2, 1, 0, 3, 2, 1, 0, 3, 1, 0), // CLK_BGRA
    ORDER(1, 2, 3, 0, 3, 0, 1, 2, 1, 0), // CLK_ARGB
    ORDER(0, 0, 0, 0, I4, 1, 0),         // CLK_INTENSITY
    ORDER(0, 0, 0, O, I4, 0, 0),         // CLK_LUMINANCE
    // The border colour of the x orders: the specification lists them with
    // (0, 0, 0, 0), the CTS's reference gives them (0, 0, 0, 1) (they have
    // no alpha, and read alpha as 1); we follow the CTS.
    ORDER(0, Z, Z, O, I4, 0, 0),         // CLK_Rx
    ORDER(0, 1, Z, O, I4, 0, 0),         // CLK_RGx
    ORDER(0, 1, 2, O, I4, 0, 0),         // CLK_RGBx
    ORDER(0, Z, Z, O, I4, 0, 0),         // CLK_DEPTH: the value is r, its border 0
    ORDER(0, Z, Z, O, I4, 0, 0),         // CLK_DEPTH_STENCIL: not supported, read as R
    ORDER(0, 1, 2, O, I4, 0, 1),         // CLK_sRGB
    ORDER(0, 1, 2, O, I4, 0, 1),         // CLK_sRGBx
    ORDER(0, 1, 2, 3, I4, 1, 1),         // CLK_sRGBA
    ORDER(2, 1, 0, 3, 2, 1, 0, 3, 1, 1), // CLK_sBGRA
    ORDER(3, 2, 1, 0, 3, 2, 1, 0, 1, 0), // CLK_ABGR
};
#undef Z
#undef O
#undef I4
#undef ORDER
#undef ORDER_BITS

// How a data type's channels are stored and converted.
enum {
  KindNorm,     // CL_{S,U}NORM_INT{8,16}: c / (2^bits - 1), 8.3.1.1
  KindInt,      // CL_{UN,}SIGNED_INT{8,16,32}: the integer, 8.3.4
  KindHalf,     // CL_HALF_FLOAT
  KindFloat,    // CL_FLOAT
  KindUnorm565, // the packed types: one word, red in the high bits
  KindUnorm555,
  KindUnorm101010,
};

// Per data type (indexed by type - CLK_SNORM_INT8): the bytes of a channel
// (of the pixel, for a packed type), whether it is signed, and its kind.
#define TYPE(Bytes, Signed, Kind) ((Bytes) | (Signed) << 3 | (Kind) << 4)
static __constant uchar TypeTable[15] = {
    TYPE(1, 1, KindNorm),        // CLK_SNORM_INT8
    TYPE(2, 1, KindNorm),        // CLK_SNORM_INT16
    TYPE(1, 0, KindNorm),        // CLK_UNORM_INT8
    TYPE(2, 0, KindNorm),        // CLK_UNORM_INT16
    TYPE(2, 0, KindUnorm565),    // CLK_UNORM_SHORT_565
    TYPE(2, 0, KindUnorm555),    // CLK_UNORM_SHORT_555
    TYPE(4, 0, KindUnorm101010), // CLK_UNORM_INT_101010
    TYPE(1, 1, KindInt),         // CLK_SIGNED_INT8
    TYPE(2, 1, KindInt),         // CLK_SIGNED_INT16
    TYPE(4, 1, KindInt),         // CLK_SIGNED_INT32
    TYPE(1, 0, KindInt),         // CLK_UNSIGNED_INT8
    TYPE(2, 0, KindInt),         // CLK_UNSIGNED_INT16
    TYPE(4, 0, KindInt),         // CLK_UNSIGNED_INT32
    TYPE(2, 0, KindHalf),        // CLK_HALF_FLOAT
    TYPE(4, 0, KindFloat),       // CLK_FLOAT
};
#undef TYPE

typedef struct {
  uint Order;    // the OrderTable entry
  uint Bytes;    // per channel (per pixel for a packed type)
  uint Channels; // in memory, padding included: 1 for a packed type
  uint Kind;
  uint Signed; // 0 or 1
} Format;

static INL Format format(Img I) {
  Format F;
  // Out-of-range values (which the runtime never stores) still index the
  // tables safely.
  F.Order = OrderTable[VMIN(I->ChannelOrder - CLK_R, 19u)];
  const uint Type = TypeTable[VMIN(I->ChannelDataType - CLK_SNORM_INT8, 14u)];
  F.Bytes = Type & 7;
  F.Signed = (Type >> 3) & 1;
  F.Kind = Type >> 4;
  F.Channels = VMAX(I->ElementSize / F.Bytes, 1u);
  return F;
}

// The fields of a packed word, in memory order (r, g, b), and their maxima.
static INL uint4 packedShifts(uint Kind) {
  return Kind == KindUnorm565   ? (uint4)(11, 5, 0, 0)
         : Kind == KindUnorm555 ? (uint4)(10, 5, 0, 0)
                                : (uint4)(20, 10, 0, 0);
}
static INL uint4 packedMaxima(uint Kind) {
  return Kind == KindUnorm565   ? (uint4)(31, 63, 31, 0)
         : Kind == KindUnorm555 ? (uint4)(31, 31, 31, 0)
                                : (uint4)(1023, 1023, 1023, 0);
}

// The largest value of a normalized or integer channel: 2^(bits - signed) - 1.
static INL long channelMax(Format F) { return (1L << (8 * F.Bytes - F.Signed)) - 1; }

// ---------------------------------------------------------------------------
// Half conversions, exact, on the bits: the channels are already loaded.
// ---------------------------------------------------------------------------

static INL float4 halfToFloat(uint4 H) {
  const uint4 Exp = (H >> 10) & 0x1f, Mant = H & 0x3ff;
  uint4 Bits = ((Exp + 112) << 23) | (Mant << 13);       // normal: rebias
  Bits = Exp == 31 ? (0x7f800000 | (Mant << 13)) : Bits; // infinity, NaN
  // Zero and subnormals: Mant * 2^-24, exact, and computed from an integer
  // so that a flush-to-zero mode cannot drop it.
  Bits = Exp == 0 ? as_uint4(__builtin_convertvector(Mant, float4) * 0x1p-24f) : Bits;
  return as_float4(Bits | ((H & 0x8000) << 16));
}

// Round to nearest even (8.3.2 allows that or toward zero), to infinity past
// the largest half; a NaN stays a quiet NaN.
static INL uint4 floatToHalf(float4 V) {
  const uint4 Abs = as_uint4(V) & 0x7fffffff;
  // Normal: rebias the exponent (127 -> 15) and round off 13 bits; a carry
  // out of the mantissa moves into the exponent, up to 0x7c00, infinity.
  const uint4 Normal = VMIN((Abs - 0x38000000 + 0xfff + ((Abs >> 13) & 1)) >> 13, (uint4)0x7c00);
  // Below 2^-14 the half is subnormal, in units of 2^-24: scaling by 2^24 is
  // exact and rint rounds to nearest even (1024 is the smallest normal).
  const float4 Small = as_float4(VMIN(Abs, (uint4)0x38800000)) * 0x1p24f;
  const uint4 Subnormal = __builtin_convertvector(VRINT(Small), uint4);
  uint4 H = Abs < 0x38800000 ? Subnormal : Normal;
  H = Abs > 0x7f800000 ? (0x7e00 | ((Abs >> 13) & 0x3ff)) : H;
  return H | ((as_uint4(V) >> 16) & 0x8000);
}

// ---------------------------------------------------------------------------
// sRGB (8.3.5): only r, g and b; alpha is linear.
// ---------------------------------------------------------------------------

static INL float4 srgbToLinear(float4 C) {
  const float3 Rgb = C.xyz;
  const float3 Curve = powr((Rgb + 0.055f) / 1.055f, (float3)2.4f);
  return (float4)(Rgb <= 0.04045f ? Rgb / 12.92f : Curve, C.w);
}

static INL float4 linearToSrgb(float4 C) {
  // The specification's chain of tests: a NaN becomes 0 (maxnum), then the
  // value is clamped to [0, 1]; its curve maps 1 to 1 within rounding.
  const float3 Rgb = VMIN(VMAX(C.xyz, (float3)0.0f), (float3)1.0f);
  const float3 Curve = 1.055f * powr(Rgb, (float3)(1.0f / 2.4f)) - 0.055f;
  return (float4)(Rgb < 0.0031308f ? 12.92f * Rgb : Curve, C.w);
}

// ---------------------------------------------------------------------------
// Channels in memory
// ---------------------------------------------------------------------------

// P is inside the image (a read clamps it, a write tests it), so its
// coordinates widen as unsigned: a zero-extended work-item coordinate is
// one ScalarEvolution follows across the work-item loop, where a
// sign-extended one (InstCombine makes it a shift pair) it cannot, and the
// vectorizer then finds no bounds for the stores.
static INL __global uchar *pixelAt(Img I, int4 P) {
  return I->Data + (size_t)(uint)P.x * I->ElementSize + (size_t)(uint)P.y * I->RowPitch +
         (size_t)(uint)P.z * I->SlicePitch;
}

// Loads of the channels of a pixel, through a __global pointer, or through
// a __constant one for a read_only image: the kernel cannot write such an
// image, and AddressSpaceAA then knows its pixels from everything the kernel
// stores, so a work-item loop reading one and writing another needs no
// run-time alias check to vectorize.
#define LOAD_CHANNELS(AS, Suffix)                                                                  \
  static INL uint loadChannel##Suffix(AS const uchar *P, uint Bytes, uint Index) {                 \
    return Bytes == 1   ? P[Index]                                                                 \
           : Bytes == 2 ? ((AS const UnalignedUShort *)P)[Index]                                   \
                        : ((AS const UnalignedUInt *)P)[Index];                                    \
  }                                                                                                \
  /* The channels of the pixel at P, zero-extended, in memory order; those */                      \
  /* the format does not have are 0. Every load stays inside the pixel: a */                       \
  /* missing channel loads the last one and the select drops it. */                                \
  static INL uint4 loadChannels##Suffix(AS const uchar *P, Format F) {                             \
    const uint Last = F.Channels - 1;                                                              \
    const uint4 Raw = (uint4)(loadChannel##Suffix(P, F.Bytes, 0),                                  \
                              loadChannel##Suffix(P, F.Bytes, VMIN(1u, Last)),                     \
                              loadChannel##Suffix(P, F.Bytes, VMIN(2u, Last)),                     \
                              loadChannel##Suffix(P, F.Bytes, VMIN(3u, Last)));                    \
    return (uint4)(0, 1, 2, 3) <= Last ? Raw : (uint4)0;                                           \
  }
LOAD_CHANNELS(__global, )
LOAD_CHANNELS(__constant, Constant)
#undef LOAD_CHANNELS

// The channels of the pixel at P (inside the image) of an image the kernel
// may write (ReadOnly false), or may not.
static INL uint4 loadPixel(Img I, int4 P, Format F, bool ReadOnly) {
  __global uchar *Pixel = pixelAt(I, P);
  return ReadOnly ? loadChannelsConstant((__constant uchar *)(ulong)Pixel, F)
                  : loadChannels(Pixel, F);
}

static INL void storeChannel(__global uchar *P, uint Bytes, uint Index, uint V) {
  if (Bytes == 1)
    P[Index] = (uchar)V;
  else if (Bytes == 2)
    ((__global UnalignedUShort *)P)[Index] = (ushort)V;
  else
    ((__global UnalignedUInt *)P)[Index] = V;
}

static INL void storeChannels(__global uchar *P, uint4 Raw, Format F) {
  storeChannel(P, F.Bytes, 0, Raw.x);
  if (F.Channels > 1)
    storeChannel(P, F.Bytes, 1, Raw.y);
  if (F.Channels > 2)
    storeChannel(P, F.Bytes, 2, Raw.z);
  if (F.Channels > 3)
    storeChannel(P, F.Bytes, 3, Raw.w);
}

// ---------------------------------------------------------------------------
// Conversions (8.3), channel by channel in memory order
// ---------------------------------------------------------------------------

// Sign-extends the channels of a signed type.
static INL uint4 extendChannels(uint4 Raw, Format F) {
  const uint Shift = 32 - 8 * F.Bytes;
  return F.Signed ? as_uint4(as_int4(Raw << Shift) >> (int)Shift) : Raw;
}

// N / D correctly rounded, from the reciprocal of D: a multiplication and
// two fused multiply-adds, several times the speed of a division. The
// first product is within an ulp of N / D, its remainder exact (a fused
// multiply-add), and one correction by the correctly rounded reciprocal
// then gives the correctly rounded quotient (Markstein's theorem), for the
// integers up to 2^32 and divisors up to 2^16 a channel holds.
static INL float4 quotient(float4 N, float4 D) {
  const float4 R = 1.0f / D;
  const float4 Q = N * R;
  return fma(fma(-Q, D, N), R, Q);
}

// For read_imagef. An integer type (undefined there) reads as its value.
static INL float4 channelsToFloat(uint4 Raw, Format F) {
  const uint4 Ext = extendChannels(Raw, F);
  const float4 Int = F.Signed ? __builtin_convertvector(as_int4(Ext), float4)
                              : __builtin_convertvector(Ext, float4);
  // Normalized: max(-1, c / (2^(bits - signed) - 1)), the -1 for the most
  // negative signed value; the quotient correctly rounded, as the
  // specification's division is, so that 255 is exactly 1.0f.
  const float4 Quotient = quotient(Int, (float4)(float)channelMax(F));
  const float4 Norm = F.Signed ? VMAX(Quotient, (float4)-1.0f) : Quotient;
  const uint4 Maxima = packedMaxima(F.Kind);
  const uint4 Fields = ((uint4)Raw.x >> packedShifts(F.Kind)) & Maxima;
  const float4 Packed = quotient(__builtin_convertvector(Fields, float4),
                                 __builtin_convertvector(VMAX(Maxima, (uint4)1), float4));
  float4 V = F.Kind == KindNorm ? Norm : Int;
  V = F.Kind == KindHalf ? halfToFloat(Raw) : V;
  V = F.Kind == KindFloat ? as_float4(Raw) : V;
  return F.Kind >= KindUnorm565 ? Packed : V;
}

// For write_imagef: convert_<type>_sat_rte(c * max) for a normalized type
// (8.3.1.3; the packed fields alike), NaN to 0; an integer type (undefined
// there) is rounded and saturated to its range.
static INL uint4 floatToChannels(float4 V, Format F) {
  const float Max = (float)channelMax(F);
  const bool Packed = F.Kind >= KindUnorm565;
  const uint4 Shifts = packedShifts(F.Kind);
  const float4 PackedMax = __builtin_convertvector(packedMaxima(F.Kind), float4);
  const float4 Scale = Packed ? PackedMax : (float4)(F.Kind == KindNorm ? Max : 1.0f);
  const float4 Hi = Packed ? PackedMax : (float4)Max;
  const float4 Lo = (float4)(F.Signed ? -Max - 1.0f : 0.0f);
  const float4 X = V * Scale;
  const float4 Rounded = X != X ? (float4)0.0f : VRINT(VMIN(VMAX(X, Lo), Hi));
  // Through long: the 32-bit types' bounds do not fit an int or a uint.
  const uint4 N = __builtin_convertvector(__builtin_convertvector(Rounded, long4), uint4);
  const uint Word = (N.x << Shifts.x) | (N.y << Shifts.y) | (N.z << Shifts.z);
  uint4 Raw = Packed ? (uint4)(Word, 0, 0, 0) : N;
  Raw = F.Kind == KindHalf ? floatToHalf(V) : Raw;
  return F.Kind == KindFloat ? as_uint4(V) : Raw;
}

// For write_image{i,ui}: convert_<type>_sat (8.3.4), from the int4 or uint4
// value extended to long.
static INL uint4 longToChannels(long4 V, Format F) {
  const long Max = channelMax(F);
  const long Min = F.Signed ? -Max - 1 : 0;
  return __builtin_convertvector(VMIN(VMAX(V, (long4)Min), (long4)Max), uint4);
}

// ---------------------------------------------------------------------------
// Channel order
// ---------------------------------------------------------------------------

static INL uint pickComponent(uint4 C, uint Code, uint One) {
  const uint V = Code == 0 ? C.x : Code == 1 ? C.y : Code == 2 ? C.z : C.w;
  return Code == 4 ? 0 : Code == 5 ? One : V;
}

// Memory order to (r, g, b, a); One is the bits of the missing alpha.
static INL uint4 toRgba(uint4 C, uint Order, uint One) {
  return (uint4)(pickComponent(C, Order & 7, One), pickComponent(C, (Order >> 3) & 7, One),
                 pickComponent(C, (Order >> 6) & 7, One), pickComponent(C, (Order >> 9) & 7, One));
}

// (r, g, b, a) to memory order.
static INL uint4 fromRgba(uint4 C, uint Order) {
  return (uint4)(pickComponent(C, (Order >> 12) & 3, 0), pickComponent(C, (Order >> 14) & 3, 0),
                 pickComponent(C, (Order >> 16) & 3, 0), pickComponent(C, (Order >> 18) & 3, 0));
}

static INL uint4 borderColour(uint Order, uint One) {
  return (uint4)(0, 0, 0, (Order & ORDER_HAS_ALPHA) ? 0 : One);
}

// ---------------------------------------------------------------------------
// Texels
// ---------------------------------------------------------------------------

// The image's extent in (x, y, z): z counts layers for an array. The axes
// an image of Dims dimensions lacks are 1 as constants (the descriptor says
// so too), so that their coordinate, 0, folds out of every clamp and
// address.
static INL int4 extent(Img I, int Dims, bool Array) {
  return (int4)(I->Width, Dims >= 2 ? I->Height : 1,
                Array ? I->ArraySize : Dims == 3 ? I->Depth : 1, 1);
}

static INL bool outside(int4 P, int4 Size) {
  const int4 Out = P < 0 | P >= Size;
  return (Out.x | Out.y | Out.z) != 0;
}

static INL int4 clampInt(int4 P, int4 Lo, int4 Hi) { return VMIN(VMAX(P, Lo), Hi); }

// The same lane by lane, in scalars, for integer coordinates: the taps of a
// filter along a row share their y, whose clamp (and the row's address) the
// compiler then computes once; in a vector, each tap's y lane is its own.
static INL int4 clampLanes(int4 P, int4 Lo, int4 Hi) {
  return (int4)(min(max(P.x, Lo.x), Hi.x), min(max(P.y, Lo.y), Hi.y), min(max(P.z, Lo.z), Hi.z),
                min(max(P.w, Lo.w), Hi.w));
}

// The texel at P for read_imagef, or the border colour if P is outside the
// image (which is then not read: the load is from P clamped into it).
// Inside: the addressing has clamped P into the image already (a constant
// of the sampler), so neither the clamp nor the test is needed.
static INL float4 texelF(Img I, int4 Size, int4 P, bool ReadOnly, bool Inside) {
  const Format F = format(I);
  const uint4 Raw = loadPixel(I, Inside ? P : clampInt(P, (int4)0, Size - 1), F, ReadOnly);
  const uint One = as_uint(1.0f);
  float4 V = as_float4(toRgba(as_uint4(channelsToFloat(Raw, F)), F.Order, One));
  // Before any filtering (8.3.5).
  V = (F.Order & ORDER_SRGB) ? srgbToLinear(V) : V;
  return !Inside && outside(P, Size) ? as_float4(borderColour(F.Order, One)) : V;
}

// The same for read_image{i,ui}; a normalized or floating type (undefined
// there) reads as its raw channels.
static INL int4 texelI(Img I, int4 Size, int4 P, bool ReadOnly, bool Inside) {
  const Format F = format(I);
  const uint4 Raw = loadPixel(I, Inside ? P : clampInt(P, (int4)0, Size - 1), F, ReadOnly);
  const uint4 V = toRgba(extendChannels(Raw, F), F.Order, 1);
  return as_int4(!Inside && outside(P, Size) ? borderColour(F.Order, 1) : V);
}

// ---------------------------------------------------------------------------
// Addressing and filtering (8.2)
// ---------------------------------------------------------------------------

// Whether locate() leaves every texel inside the image, whatever the
// coordinates: the addressing modes that clamp (a repeat wraps once, which
// an infinite coordinate overshoots); the axes it does not address are 0
// or the clamped layer.
static INL bool clampsInside(uint S) {
  const uint Mode = S & WEFT_SAMPLER_ADDRESS_MASK;
  return Mode == WEFT_SAMPLER_ADDRESS_CLAMP_TO_EDGE ||
         Mode == WEFT_SAMPLER_ADDRESS_MIRRORED_REPEAT;
}

// Whole floats (floors, rints of coordinates) as texel indices. Clamped
// first: converting a NaN or infinite coordinate (undefined for the reads)
// would otherwise give poison, and the index could be anything.
static INL int4 toIndex(float4 F) {
  return __builtin_convertvector(VMIN(VMAX(F, (float4)-0x1p30f), (float4)0x1p30f), int4);
}

// The texels a read with sampler bits S and float coordinates C samples:
// Lo, the nearest texel or the first corner of the linear footprint, Hi
// its opposite corner and Frac the weights (a, b, c). Dims axes are
// addressed; for an array, z is the layer, rint(w) clamped to the layers
// (8.4), never normalized. Where 8.2's formulas for the five addressing
// modes differ between the nearest and the linear filter they apply only
// to values the other filter cannot produce, so one form serves both.
static INL void locate(float4 C, int4 Size, uint S, int Dims, bool Array, bool Linear, int4 *Lo,
                       int4 *Hi, float4 *Frac) {
  const uint Mode = S & WEFT_SAMPLER_ADDRESS_MASK;
  const float4 SizeF = __builtin_convertvector(Size, float4);
  // (u, v, w). The repeat modes work on the normalized coordinates; they
  // are not defined for unnormalized ones, which they then treat the same.
  float4 U = (S & WEFT_SAMPLER_NORMALIZED) ? C * SizeF : C;
  if (Mode == WEFT_SAMPLER_ADDRESS_REPEAT)
    U = (C - VFLOOR(C)) * SizeF;
  else if (Mode == WEFT_SAMPLER_ADDRESS_MIRRORED_REPEAT)
    U = VFABS(C - 2.0f * VRINT(0.5f * C)) * SizeF;
  U = Linear ? U - 0.5f : U;
  const float4 Floor = VFLOOR(U);
  int4 I0 = toIndex(Floor);
  int4 I1 = I0 + 1;
  if (Mode == WEFT_SAMPLER_ADDRESS_REPEAT) {
    // Nearest: i > size - 1 wraps down; linear: also i0 < 0 wraps up.
    I0 = I0 < 0 ? I0 + Size : I0 > Size - 1 ? I0 - Size : I0;
    I1 = I1 < 0 ? I1 + Size : I1 > Size - 1 ? I1 - Size : I1;
  } else if (Mode == WEFT_SAMPLER_ADDRESS_CLAMP_TO_EDGE ||
             Mode == WEFT_SAMPLER_ADDRESS_MIRRORED_REPEAT) {
    // Mirrored: min(i, size - 1); linear: max(i0, 0), min(i1, size - 1).
    I0 = clampInt(I0, (int4)0, Size - 1);
    I1 = clampInt(I1, (int4)0, Size - 1);
  }
  // CLAMP's clamp(i, -1, size) and NONE leave i outside the image: the
  // texel reads as the border colour.
  const int4 Addressed = (int4)(0, 1, 2, 3) < Dims;
  const int Layer = clampInt(toIndex((float4)VRINT(C.z)), (int4)0, Size - 1).z;
  const int4 NotAddressed = Array ? (int4)(0, 0, Layer, 0) : (int4)0;
  *Lo = Addressed ? I0 : NotAddressed;
  *Hi = Addressed ? I1 : NotAddressed;
  *Frac = Addressed ? U - Floor : (float4)0.0f;
}

static INL float4 readF(Img I, uint S, float4 C, int Dims, bool Array) {
  const int4 Size = extent(I, Dims, Array);
  const bool Linear = (S & WEFT_SAMPLER_FILTER_LINEAR) != 0;
  int4 Lo, Hi;
  float4 Frac;
  locate(C, Size, S, Dims, Array, Linear, &Lo, &Hi, &Frac);
  const bool Inside = clampsInside(S);
  if (!Linear)
    return texelF(I, Size, Lo, true, Inside);
  // The sum of 8.2 term by term in its order: corner K takes Hi on the axes
  // of its set bits, with weight a (b, c) there and 1 - a elsewhere. Fully
  // unrolled: a loop left in a work-item's code would keep the work-item
  // loop from being the innermost one, which the loop vectorizer needs.
  float4 Sum = 0.0f;
#pragma unroll
  for (int K = 0; K < (1 << Dims); ++K) {
    const int4 Corner = ((int4)(K, K >> 1, K >> 2, 0) & 1) != 0;
    const float4 W = Corner ? Frac : 1.0f - Frac;
    Sum += W.x * W.y * W.z * texelF(I, Size, Corner ? Hi : Lo, true, Inside);
  }
  return Sum;
}

// read_image{i,ui} with float coordinates: always the nearest texel.
static INL int4 readI(Img I, uint S, float4 C, int Dims, bool Array) {
  const int4 Size = extent(I, Dims, Array);
  int4 Lo, Hi;
  float4 Frac;
  locate(C, Size, S, Dims, Array, false, &Lo, &Hi, &Frac);
  return texelI(I, Size, Lo, true, clampsInside(S));
}

// Integer coordinates with a sampler: defined for unnormalized, nearest
// samplers with CLAMP_TO_EDGE, CLAMP or NONE, which only the first changes;
// the layer of an array is clamped (8.4). Without a sampler (S = NONE,
// Array false) the coordinates are used as they are.
static INL int4 locateAt(int4 P, int4 Size, uint S, bool Array) {
  int4 Q = (S & WEFT_SAMPLER_ADDRESS_MASK) == WEFT_SAMPLER_ADDRESS_CLAMP_TO_EDGE
               ? clampLanes(P, (int4)0, Size - 1)
               : P;
  Q.z = Array ? clampLanes(P, (int4)0, Size - 1).z : Q.z;
  return Q;
}

// The same for locateAt(): CLAMP_TO_EDGE clamps every axis (a 2D image's z
// is 0, inside its depth of 1).
static INL bool clampsAtInside(uint S) {
  return (S & WEFT_SAMPLER_ADDRESS_MASK) == WEFT_SAMPLER_ADDRESS_CLAMP_TO_EDGE;
}

static INL float4 readAtF(Img I, uint S, int4 P, int Dims, bool Array, bool Sampled,
                          bool ReadOnly) {
  const int4 Size = extent(I, Dims, Array);
  return texelF(I, Size, locateAt(P, Size, S, Array && Sampled), ReadOnly,
                Sampled && clampsAtInside(S));
}

static INL int4 readAtI(Img I, uint S, int4 P, int Dims, bool Array, bool Sampled,
                        bool ReadOnly) {
  const int4 Size = extent(I, Dims, Array);
  return texelI(I, Size, locateAt(P, Size, S, Array && Sampled), ReadOnly,
                Sampled && clampsAtInside(S));
}

// ---------------------------------------------------------------------------
// Writes: outside the image (undefined), nothing is written. The test is
// scalar comparisons of the coordinates, which the compiler's bounds-check
// versioning recognises (a work-item loop whose writes all land inside gets
// a copy without it), and the store's address comes from the coordinates
// themselves, consecutive across work-items.
// ---------------------------------------------------------------------------

// One unsigned comparison a coordinate (a negative one is a huge one):
// signed tests against 0 of two coordinates InstCombine merges into one
// test of their `or`, which the versioning cannot follow.
static INL bool inside(int4 P, int4 Size) {
  return ((uint)P.x < (uint)Size.x) & ((uint)P.y < (uint)Size.y) & ((uint)P.z < (uint)Size.z);
}

static INL void writeF(Img I, int4 P, float4 Colour, int Dims, bool Array) {
  if (inside(P, extent(I, Dims, Array))) {
    const Format F = format(I);
    const float4 C = (F.Order & ORDER_SRGB) ? linearToSrgb(Colour) : Colour;
    const float4 M = as_float4(fromRgba(as_uint4(C), F.Order));
    storeChannels(pixelAt(I, P), floatToChannels(M, F), F);
  }
}

static INL void writeL(Img I, int4 P, long4 Colour, int Dims, bool Array) {
  if (inside(P, extent(I, Dims, Array))) {
    const Format F = format(I);
    storeChannels(pixelAt(I, P), fromRgba(longToChannels(Colour, F), F.Order), F);
  }
}

// ---------------------------------------------------------------------------
// The built-ins
// ---------------------------------------------------------------------------

// Coordinates of each image type as (x, y, z) of type T##4: a 1D array's
// layer (its y) goes to z, where a 2D array has its own.
#define POS_X(T, C) ((T##4)((C), 0, 0, 0))
#define POS_XL(T, C) ((T##4)((C).x, 0, (C).y, 0))
#define POS_XY(T, C) ((T##4)((C), 0, 0))
#define POS_XYZ(T, C) ((T##4)((C).xyz, 0))

// The image types with their number of filtered axes, whether they are
// arrays, their coordinates' macro and their integer and float coordinate
// types; M gets those after the leading arguments (an access qualifier, or
// 0 where the access is fixed).
#define SAMPLED_IMAGES(M, ...)                                                                     \
  M(__VA_ARGS__, image1d_t, 1, false, POS_X, int, float)                                           \
  M(__VA_ARGS__, image1d_array_t, 1, true, POS_XL, int2, float2)                                   \
  M(__VA_ARGS__, image2d_t, 2, false, POS_XY, int2, float2)                                        \
  M(__VA_ARGS__, image2d_array_t, 2, true, POS_XYZ, int4, float4)                                  \
  M(__VA_ARGS__, image3d_t, 3, false, POS_XYZ, int4, float4)
#define COLOUR_IMAGES(M, ...)                                                                      \
  SAMPLED_IMAGES(M, __VA_ARGS__)                                                                   \
  M(__VA_ARGS__, image1d_buffer_t, 1, false, POS_X, int, float)
#define DEPTH_IMAGES(M, ...)                                                                       \
  M(__VA_ARGS__, image2d_depth_t, 2, false, POS_XY, int2, float2)                                  \
  M(__VA_ARGS__, image2d_array_depth_t, 2, true, POS_XYZ, int4, float4)

// read_image{f,i,ui} with a sampler (read_only images only).
#define READ_SAMPLED(Unused, Image, Dims, Array, Pos, IC, FC)                                      \
  OVL float4 read_imagef(read_only Image I, sampler_t S, FC C) {                                   \
    return readF(IMG(I), SMP(S), Pos(float, C), Dims, Array);                                      \
  }                                                                                                \
  OVL float4 read_imagef(read_only Image I, sampler_t S, IC C) {                                   \
    return readAtF(IMG(I), SMP(S), Pos(int, C), Dims, Array, true, true);                                      \
  }                                                                                                \
  OVL int4 read_imagei(read_only Image I, sampler_t S, FC C) {                                     \
    return readI(IMG(I), SMP(S), Pos(float, C), Dims, Array);                                      \
  }                                                                                                \
  OVL int4 read_imagei(read_only Image I, sampler_t S, IC C) {                                     \
    return readAtI(IMG(I), SMP(S), Pos(int, C), Dims, Array, true, true);                                      \
  }                                                                                                \
  OVL uint4 read_imageui(read_only Image I, sampler_t S, FC C) {                                   \
    return as_uint4(readI(IMG(I), SMP(S), Pos(float, C), Dims, Array));                            \
  }                                                                                                \
  OVL uint4 read_imageui(read_only Image I, sampler_t S, IC C) {                                   \
    return as_uint4(readAtI(IMG(I), SMP(S), Pos(int, C), Dims, Array, true, true));                            \
  }
SAMPLED_IMAGES(READ_SAMPLED, 0)

// read_image{f,i,ui} without a sampler: as with an unnormalized, nearest,
// ADDRESS_NONE sampler, the layer not clamped. A read_write image's pixels
// are read as __global memory (the kernel writes them too).
#define READ_ONLY_read_only true
#define READ_ONLY_read_write false
#define READ_PLAIN(Access, Image, Dims, Array, Pos, IC, FC)                                        \
  OVL float4 read_imagef(Access Image I, IC C) {                                                   \
    return readAtF(IMG(I), WEFT_SAMPLER_ADDRESS_NONE, Pos(int, C), Dims, Array, false, READ_ONLY_##Access);                  \
  }                                                                                                \
  OVL int4 read_imagei(Access Image I, IC C) {                                                     \
    return readAtI(IMG(I), WEFT_SAMPLER_ADDRESS_NONE, Pos(int, C), Dims, Array, false, READ_ONLY_##Access);                  \
  }                                                                                                \
  OVL uint4 read_imageui(Access Image I, IC C) {                                                   \
    return as_uint4(readAtI(IMG(I), WEFT_SAMPLER_ADDRESS_NONE, Pos(int, C), Dims, Array, false, READ_ONLY_##Access));        \
  }
COLOUR_IMAGES(READ_PLAIN, read_only)
COLOUR_IMAGES(READ_PLAIN, read_write)

// write_image{f,i,ui}.
#define WRITE(Access, Image, Dims, Array, Pos, IC, FC)                                             \
  OVL void write_imagef(Access Image I, IC C, float4 V) { writeF(IMG(I), Pos(int, C), V, Dims, Array); } \
  OVL void write_imagei(Access Image I, IC C, int4 V) {                                            \
    writeL(IMG(I), Pos(int, C), __builtin_convertvector(V, long4), Dims, Array);                         \
  }                                                                                                \
  OVL void write_imageui(Access Image I, IC C, uint4 V) {                                          \
    writeL(IMG(I), Pos(int, C), __builtin_convertvector(V, long4), Dims, Array);                         \
  }
COLOUR_IMAGES(WRITE, write_only)
COLOUR_IMAGES(WRITE, read_write)

// Depth images: read_imagef and write_imagef with a float, the r channel.
#define READ_DEPTH_SAMPLED(Unused, Image, Dims, Array, Pos, IC, FC)                                \
  OVL float read_imagef(read_only Image I, sampler_t S, FC C) {                                    \
    return readF(IMG(I), SMP(S), Pos(float, C), Dims, Array).x;                                    \
  }                                                                                                \
  OVL float read_imagef(read_only Image I, sampler_t S, IC C) {                                    \
    return readAtF(IMG(I), SMP(S), Pos(int, C), Dims, Array, true, true).x;                                    \
  }
#define READ_DEPTH_PLAIN(Access, Image, Dims, Array, Pos, IC, FC)                                  \
  OVL float read_imagef(Access Image I, IC C) {                                                    \
    return readAtF(IMG(I), WEFT_SAMPLER_ADDRESS_NONE, Pos(int, C), Dims, Array, false, READ_ONLY_##Access).x;                \
  }
#define WRITE_DEPTH(Access, Image, Dims, Array, Pos, IC, FC)                                       \
  OVL void write_imagef(Access Image I, IC C, float V) {                                           \
    writeF(IMG(I), Pos(int, C), (float4)(V, 0.0f, 0.0f, 0.0f), Dims, Array);                             \
  }
DEPTH_IMAGES(READ_DEPTH_SAMPLED, 0)
DEPTH_IMAGES(READ_DEPTH_PLAIN, read_only)
DEPTH_IMAGES(READ_DEPTH_PLAIN, read_write)
DEPTH_IMAGES(WRITE_DEPTH, write_only)
DEPTH_IMAGES(WRITE_DEPTH, read_write)

// The queries, for each access qualifier. get_image_dim of a 3D image has
// w = 0; get_image_array_size returns a size_t.
#define QUERY_ANY(Access, Image, ...)                                                              \
  OVL int get_image_width(Access Image I) { return IMG(I)->Width; }                                \
  OVL int get_image_channel_data_type(Access Image I) { return (int)IMG(I)->ChannelDataType; }     \
  OVL int get_image_channel_order(Access Image I) { return (int)IMG(I)->ChannelOrder; }
#define QUERY_2D(Access, Image)                                                                    \
  OVL int get_image_height(Access Image I) { return IMG(I)->Height; }                              \
  OVL int2 get_image_dim(Access Image I) { return (int2)(IMG(I)->Width, IMG(I)->Height); }
#define QUERY_ARRAY(Access, Image)                                                                 \
  OVL size_t get_image_array_size(Access Image I) { return (size_t)IMG(I)->ArraySize; }
#define QUERIES(Access)                                                                            \
  COLOUR_IMAGES(QUERY_ANY, Access)                                                                 \
  DEPTH_IMAGES(QUERY_ANY, Access)                                                                  \
  QUERY_2D(Access, image2d_t)                                                                      \
  QUERY_2D(Access, image2d_array_t)                                                                \
  QUERY_2D(Access, image2d_depth_t)                                                                \
  QUERY_2D(Access, image2d_array_depth_t)                                                          \
  QUERY_ARRAY(Access, image1d_array_t)                                                             \
  QUERY_ARRAY(Access, image2d_array_t)                                                             \
  QUERY_ARRAY(Access, image2d_array_depth_t)                                                       \
  OVL int get_image_height(Access image3d_t I) { return IMG(I)->Height; }                          \
  OVL int get_image_depth(Access image3d_t I) { return IMG(I)->Depth; }                            \
  OVL int4 get_image_dim(Access image3d_t I) {                                                     \
    return (int4)(IMG(I)->Width, IMG(I)->Height, IMG(I)->Depth, 0);                                \
  }
QUERIES(read_only)
QUERIES(write_only)
QUERIES(read_write)

// A sampler literal, or a program-scope constant sampler: Clang calls this
// with its CLK_* bits and uses the result as the sampler_t, which is what a
// sampler argument carries. sampler_t cannot be a return type in OpenCL C,
// hence the asm label.
__constant uchar *weftSamplerInit(int Bits) __asm__("__translate_sampler_initializer");
__constant uchar *weftSamplerInit(int Bits) { return (__constant uchar *)(ulong)(uint)Bits; }
