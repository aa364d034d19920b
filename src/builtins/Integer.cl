// Integer builtins (OpenCL C 6.15.3) for all integer types, scalar and
// vector. Functions expressible with OpenCL's element-wise vector operators
// are written once per type and expanded with FOR_WIDTHS; the rest are
// written for scalars and split for vectors (VEC_*).
#include "BuiltinMacros.h"

// abs, abs_diff return the unsigned twin type.
#define ABS_S(T, U)                                                                                \
  OVL U abs(T x) { return x < (T)0 ? (U)(-x) : (U)x; }                                             \
  OVL U abs_diff(T x, T y) { return x > y ? (U)x - (U)y : (U)y - (U)x; }                           \
  VEC_UNARY(abs, U, T) VEC_BINARY(abs_diff, U, T, T)
FOR_INT_TYPES_U(ABS_S)

// Operator-only functions, valid for scalars and vectors alike.
#define INT_OPS(T)                                                                                 \
  OVL T hadd(T x, T y) { return (x >> (T)1) + (y >> (T)1) + (x & y & (T)1); }                      \
  OVL T rhadd(T x, T y) { return (x >> (T)1) + (y >> (T)1) + ((x | y) & (T)1); }                   \
  OVL T min(T x, T y) { return y < x ? y : x; }                                                    \
  OVL T max(T x, T y) { return x < y ? y : x; }                                                    \
  OVL T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }                                     \
  OVL T mad_hi(T a, T b, T c) { return mul_hi(a, b) + c; }
#define INT_OPS_W(T) FOR_WIDTHS(INT_OPS, T)
FOR_INT_TYPES(INT_OPS_W)

// Vector-with-scalar forms of min, max, clamp.
#define INT_SCALAR_FORMS(T, N)                                                                     \
  OVL T##N min(T##N x, T y) { return min(x, (T##N)(y)); }                                          \
  OVL T##N max(T##N x, T y) { return max(x, (T##N)(y)); }                                          \
  OVL T##N clamp(T##N x, T lo, T hi) { return clamp(x, (T##N)(lo), (T##N)(hi)); }
#define INT_SCALAR_FORMS_W(T)                                                                      \
  INT_SCALAR_FORMS(T, 2) INT_SCALAR_FORMS(T, 3) INT_SCALAR_FORMS(T, 4) INT_SCALAR_FORMS(T, 8)      \
      INT_SCALAR_FORMS(T, 16)
FOR_INT_TYPES(INT_SCALAR_FORMS_W)

// Saturating add/sub, mul_hi, rotate, clz, ctz, popcount: scalar + split.
// Use wider arithmetic for types narrower than long.
#define char_MIN_ CHAR_MIN
#define char_MAX_ CHAR_MAX
#define uchar_MIN_ 0
#define uchar_MAX_ UCHAR_MAX
#define short_MIN_ SHRT_MIN
#define short_MAX_ SHRT_MAX
#define ushort_MIN_ 0
#define ushort_MAX_ USHRT_MAX
#define int_MIN_ INT_MIN
#define int_MAX_ INT_MAX
#define uint_MIN_ 0
#define uint_MAX_ UINT_MAX

// W holds a sum or difference of two T; MW holds a * b + c without
// overflow (unsigned where the product of two unsigned T would overflow the
// signed type: signed overflow is undefined and the optimizer exploits it).
#define NARROW_OPS(T, W, MW, BITS)                                                                 \
  OVL T add_sat(T x, T y) { return (T)clamp((W)x + (W)y, (W)T##_MIN_, (W)T##_MAX_); }              \
  OVL T sub_sat(T x, T y) { return (T)clamp((W)x - (W)y, (W)T##_MIN_, (W)T##_MAX_); }              \
  OVL T mul_hi(T x, T y) { return (T)(((MW)x * (MW)y) >> BITS); }                                  \
  OVL T mad_sat(T a, T b, T c) {                                                                   \
    MW P = (MW)a * (MW)b + (MW)c;                                                                  \
    return (T)clamp(P, (MW)T##_MIN_, (MW)T##_MAX_);                                                \
  }
NARROW_OPS(char, int, int, 8)
NARROW_OPS(uchar, int, int, 8)
NARROW_OPS(short, int, int, 16)
NARROW_OPS(ushort, int, uint, 16)
NARROW_OPS(int, long, long, 32)
NARROW_OPS(uint, long, ulong, 32)

OVL long add_sat(long x, long y) {
  long R;
  return __builtin_add_overflow(x, y, &R) ? (x < 0 ? LONG_MIN : LONG_MAX) : R;
}
OVL long sub_sat(long x, long y) {
  long R;
  return __builtin_sub_overflow(x, y, &R) ? (x < 0 ? LONG_MIN : LONG_MAX) : R;
}
OVL ulong add_sat(ulong x, ulong y) {
  ulong R = x + y;
  return R < x ? ULONG_MAX : R;
}
OVL ulong sub_sat(ulong x, ulong y) { return x < y ? 0 : x - y; }
// No __int128 on SPIR: 64-bit high products from 32-bit halves.
OVL ulong mul_hi(ulong x, ulong y) {
  ulong XL = x & 0xffffffffUL, XH = x >> 32, YL = y & 0xffffffffUL, YH = y >> 32;
  ulong LL = XL * YL, LH = XL * YH, HL = XH * YL, HH = XH * YH;
  ulong Mid = (LL >> 32) + (LH & 0xffffffffUL) + (HL & 0xffffffffUL);
  return HH + (LH >> 32) + (HL >> 32) + (Mid >> 32);
}
OVL long mul_hi(long x, long y) {
  ulong H = mul_hi((ulong)x, (ulong)y);
  H -= x < 0 ? (ulong)y : 0;
  H -= y < 0 ? (ulong)x : 0;
  return (long)H;
}
// mad_sat on 64 bits saturates the exact a * b + c: the 128-bit product
// (mul_hi and the wrapped low half) plus c, sign-extended, with the carry.
// Straight-line, so a work-item loop calling it still vectorizes.
OVL long mad_sat(long a, long b, long c) {
  ulong Lo = (ulong)a * (ulong)b + (ulong)c;
  ulong Carry = Lo < (ulong)a * (ulong)b;
  long Hi = mul_hi(a, b) + (c < 0 ? -1L : 0L) + (long)Carry;
  // In range when the high half is the low half's sign extension.
  return Hi == ((long)Lo >> 63) ? (long)Lo : Hi < 0 ? LONG_MIN : LONG_MAX;
}
OVL ulong mad_sat(ulong a, ulong b, ulong c) {
  ulong Lo = a * b + c;
  ulong Hi = mul_hi(a, b) + (Lo < a * b);
  return Hi ? ULONG_MAX : Lo;
}

#define SPLIT_OPS(T)                                                                               \
  VEC_BINARY(add_sat, T, T, T)                                                                     \
  VEC_BINARY(sub_sat, T, T, T) VEC_BINARY(mul_hi, T, T, T) VEC_TERNARY(mad_sat, T)
FOR_INT_TYPES(SPLIT_OPS)

// Bit counting. clz(0) and ctz(0) are the bit width.
// UT is T's unsigned twin: converting through it zero-extends, so a
// negative char does not count 24 extra leading ones.
#define BIT_OPS(T, UT, U, BITS, CLZ, CTZ, POP, ADJ)                                                \
  OVL T clz(T x) { return x == 0 ? (T)BITS : (T)(CLZ((U)(UT)x) - ADJ); }                           \
  OVL T ctz(T x) { return x == 0 ? (T)BITS : (T)CTZ((U)(UT)x); }                                   \
  OVL T popcount(T x) { return (T)POP((U)(UT)x); }                                                 \
  OVL T rotate(T x, T n) {                                                                         \
    uint S = (uint)n & (BITS - 1);                                                                 \
    U V = (U)x & (U)((((ulong)1) << (BITS - 1)) * 2 - 1);                                          \
    return S == 0 ? x : (T)((V << S) | (V >> (BITS - S)));                                         \
  }                                                                                                \
  VEC_UNARY(clz, T, T) VEC_UNARY(ctz, T, T) VEC_UNARY(popcount, T, T) VEC_BINARY(rotate, T, T, T)
BIT_OPS(char, uchar, uint, 8, __builtin_clz, __builtin_ctz, __builtin_popcount, 24)
BIT_OPS(uchar, uchar, uint, 8, __builtin_clz, __builtin_ctz, __builtin_popcount, 24)
BIT_OPS(short, ushort, uint, 16, __builtin_clz, __builtin_ctz, __builtin_popcount, 16)
BIT_OPS(ushort, ushort, uint, 16, __builtin_clz, __builtin_ctz, __builtin_popcount, 16)
BIT_OPS(int, uint, uint, 32, __builtin_clz, __builtin_ctz, __builtin_popcount, 0)
BIT_OPS(uint, uint, uint, 32, __builtin_clz, __builtin_ctz, __builtin_popcount, 0)
BIT_OPS(long, ulong, ulong, 64, __builtin_clzl, __builtin_ctzl, __builtin_popcountl, 0)
BIT_OPS(ulong, ulong, ulong, 64, __builtin_clzl, __builtin_ctzl, __builtin_popcountl, 0)

// 24-bit multiplies (int and uint only), operator forms.
#define MUL24(T)                                                                                   \
  OVL T mul24(T x, T y) { return x * y; }                                                          \
  OVL T mad24(T x, T y, T z) { return x * y + z; }
#define MUL24_W(T) FOR_WIDTHS(MUL24, T)
MUL24_W(int)
MUL24_W(uint)

// upsample(hi, lo): twice-as-wide result.
#define UPSAMPLE(R, T, U, BITS)                                                                    \
  OVL R upsample(T hi, U lo) { return ((R)hi << BITS) | (R)lo; }                                   \
  VEC_BINARY(upsample, R, T, U)
UPSAMPLE(short, char, uchar, 8)
UPSAMPLE(ushort, uchar, uchar, 8)
UPSAMPLE(int, short, ushort, 16)
UPSAMPLE(uint, ushort, ushort, 16)
UPSAMPLE(long, int, uint, 32)
UPSAMPLE(ulong, uint, uint, 32)
