// Explicit conversions convert_<dst>[N][_sat][_<rounding>] (OpenCL C 6.4.3)
// between all integer and floating types, scalar and vector. Each form is a
// scalar helper plus a split for vectors; the macros expand the 10 x 10 type
// pairs. Every rounding mode is exact. To an integer, the value is rounded
// first. To a floating type, a conversion that can be inexact (int -> float,
// long -> float or double, double -> float) takes the round-to-nearest result
// r and compares it exactly with x (CMP); where r lies on the wrong side of x
// for the mode it moves one ulp towards x (nextafter), which is the other
// neighbour of x. The comparisons never convert a value that does not fit:
// r of 2^63 or 2^64 (the rounding of the largest longs) is above any long.
#include "BuiltinMacros.h"

#define char_SIGNED 1
#define uchar_SIGNED 0
#define short_SIGNED 1
#define ushort_SIGNED 0
#define int_SIGNED 1
#define uint_SIGNED 0
#define long_SIGNED 1
#define ulong_SIGNED 0
#define char_LIMITS CHAR_MIN, CHAR_MAX
#define uchar_LIMITS 0, UCHAR_MAX
#define short_LIMITS SHRT_MIN, SHRT_MAX
#define ushort_LIMITS 0, USHRT_MAX
#define int_LIMITS INT_MIN, INT_MAX
#define uint_LIMITS 0, UINT_MAX
#define long_LIMITS LONG_MIN, LONG_MAX
#define ulong_LIMITS 0, ULONG_MAX
#define float_IS_FP 1
#define double_IS_FP 1

// Saturating scalar helpers: integer source, then floating source. Selects,
// not branches, so that the lanes of a vector conversion vectorize (the
// unchosen conversion of an out-of-range float is never used).
#define SAT_INT_HELPER(D, S) SAT_INT_HELPER_(D, S, D##_LIMITS, S##_SIGNED)
#define SAT_INT_HELPER_(D, S, ...) SAT_INT_HELPER__(D, S, __VA_ARGS__)
#define SAT_INT_HELPER__(D, S, DMIN, DMAX, SSIGNED)                                                \
  static D satI_##D##_##S(S x) {                                                                   \
    D Low = (long)x < (long)(DMIN) ? (D)(DMIN) : (D)x;                                             \
    D High = (ulong)x > (ulong)(DMAX) ? (D)(DMAX) : (D)x;                                          \
    return SSIGNED && (long)x < 0 ? Low : High;                                                    \
  }
#define SAT_FP_HELPER(D, S) SAT_FP_HELPER_(D, S, D##_LIMITS)
#define SAT_FP_HELPER_(D, S, ...) SAT_FP_HELPER__(D, S, __VA_ARGS__)
#define SAT_FP_HELPER__(D, S, DMIN, DMAX)                                                          \
  static D satF_##D##_##S(S x) {                                                                   \
    D R = (D)x;                                                                                    \
    R = x >= (S)(DMAX) ? (D)(DMAX) : R;                                                            \
    R = x <= (S)(DMIN) ? (D)(DMIN) : R;                                                            \
    return x != x ? (D)0 : R;                                                                      \
  }

// One destination/source/suffix: scalar body BODY(x); vectors as
// BuiltinMacros.h's VEC_*: each lane in one literal up to 4, a loop over
// the lanes from 8.
#define CONV_LANES(D, S, SUFFIX, N)                                                                \
  OVL D##N convert_##D##N##SUFFIX(S##N x) {                                                        \
    D##N R;                                                                                        \
    LANE_LOOP(N) LANE(D, R) = convert_##D##SUFFIX(LANE(S, x));                                     \
    return R;                                                                                      \
  }
#define CONV_FORM(D, S, SUFFIX, BODY)                                                              \
  OVL D convert_##D##SUFFIX(S x) { return BODY; }                                                  \
  OVL D##2 convert_##D##2##SUFFIX(S##2 x) {                                                        \
    return (D##2)(convert_##D##SUFFIX(x.s0), convert_##D##SUFFIX(x.s1));                           \
  }                                                                                                \
  OVL D##3 convert_##D##3##SUFFIX(S##3 x) {                                                        \
    return (D##3)(convert_##D##SUFFIX(x.s0), convert_##D##SUFFIX(x.s1), convert_##D##SUFFIX(x.s2));\
  }                                                                                                \
  OVL D##4 convert_##D##4##SUFFIX(S##4 x) {                                                        \
    return (D##4)(convert_##D##SUFFIX(x.s0), convert_##D##SUFFIX(x.s1), convert_##D##SUFFIX(x.s2), \
                  convert_##D##SUFFIX(x.s3));                                                      \
  }                                                                                                \
  CONV_LANES(D, S, SUFFIX, 8) CONV_LANES(D, S, SUFFIX, 16)

// Integer destination from an integer source: rounding is irrelevant.
#define CONV_INT_INT(D, S)                                                                         \
  SAT_INT_HELPER(D, S)                                                                             \
  CONV_FORM(D, S, , (D)x)                                                                          \
  CONV_FORM(D, S, _rte, (D)x) CONV_FORM(D, S, _rtz, (D)x) CONV_FORM(D, S, _rtp, (D)x)              \
  CONV_FORM(D, S, _rtn, (D)x)                                                                      \
  CONV_FORM(D, S, _sat, satI_##D##_##S(x))                                                         \
  CONV_FORM(D, S, _sat_rte, satI_##D##_##S(x)) CONV_FORM(D, S, _sat_rtz, satI_##D##_##S(x))        \
  CONV_FORM(D, S, _sat_rtp, satI_##D##_##S(x)) CONV_FORM(D, S, _sat_rtn, satI_##D##_##S(x))

// Integer destination from a floating source: round, then convert.
#define CONV_INT_FP(D, S)                                                                          \
  SAT_FP_HELPER(D, S)                                                                              \
  CONV_FORM(D, S, , (D)x)                                                                          \
  CONV_FORM(D, S, _rte, (D)rint(x)) CONV_FORM(D, S, _rtz, (D)x)                                    \
  CONV_FORM(D, S, _rtp, (D)ceil(x)) CONV_FORM(D, S, _rtn, (D)floor(x))                             \
  CONV_FORM(D, S, _sat, satF_##D##_##S(x))                                                         \
  CONV_FORM(D, S, _sat_rte, satF_##D##_##S(rint(x))) CONV_FORM(D, S, _sat_rtz, satF_##D##_##S(x))  \
  CONV_FORM(D, S, _sat_rtp, satF_##D##_##S(ceil(x)))                                               \
  CONV_FORM(D, S, _sat_rtn, satF_##D##_##S(floor(x)))

// Floating destination (no _sat forms exist): exact conversions.
#define CONV_FP(D, S)                                                                              \
  CONV_FORM(D, S, , (D)x)                                                                          \
  CONV_FORM(D, S, _rte, (D)x) CONV_FORM(D, S, _rtz, (D)x) CONV_FORM(D, S, _rtp, (D)x)              \
  CONV_FORM(D, S, _rtn, (D)x)

// The sign of r - x, exactly, for a rounded r of x.
static int cmpWide(double r, double x) { return (r > x) - (r < x); } // 32-bit ints, double
// (Selects, as the saturating helpers: (long)r of r >= 2^63 is unused.)
static int cmpLong(double r, long x) {
  long lr = (long)r;
  return r >= 0x1p63 ? 1 : (lr > x) - (lr < x);
}
static int cmpUlong(double r, ulong x) {
  ulong ur = (ulong)r;
  return r >= 0x1p64 ? 1 : (ur > x) - (ur < x);
}
// Math.cl's nextafter, on the bits: libm's would be a call that keeps a
// work-item loop converting with rtz/rtp/rtn from vectorizing.
static float nextF(float r, float to) { return nextafter(r, to); }
static double nextD(double r, double to) { return nextafter(r, to); }

// Floating destination, possibly inexact: round to nearest, then correct.
#define CONV_FP_ROUNDED(D, S, CMP, NEXT)                                                           \
  static D rtz_##D##_##S(S x) {                                                                    \
    D r = (D)x;                                                                                    \
    int c = CMP(r, x);                                                                             \
    return (c > 0 && r > (D)0) || (c < 0 && r < (D)0) ? NEXT(r, (D)0) : r;                         \
  }                                                                                                \
  static D rtp_##D##_##S(S x) {                                                                    \
    D r = (D)x;                                                                                    \
    return CMP(r, x) < 0 ? NEXT(r, (D)INFINITY) : r;                                               \
  }                                                                                                \
  static D rtn_##D##_##S(S x) {                                                                    \
    D r = (D)x;                                                                                    \
    return CMP(r, x) > 0 ? NEXT(r, -(D)INFINITY) : r;                                              \
  }                                                                                                \
  CONV_FORM(D, S, , (D)x)                                                                          \
  CONV_FORM(D, S, _rte, (D)x) CONV_FORM(D, S, _rtz, rtz_##D##_##S(x))                              \
  CONV_FORM(D, S, _rtp, rtp_##D##_##S(x)) CONV_FORM(D, S, _rtn, rtn_##D##_##S(x))

#define FROM_INTS(M, D) M(D, char) M(D, uchar) M(D, short) M(D, ushort) M(D, int) M(D, uint) M(D, long) M(D, ulong)
#define TO_INT(D) FROM_INTS(CONV_INT_INT, D) CONV_INT_FP(D, float) CONV_INT_FP(D, double)

FOR_INT_TYPES(TO_INT)

CONV_FP(float, char) CONV_FP(float, uchar) CONV_FP(float, short) CONV_FP(float, ushort)
CONV_FP_ROUNDED(float, int, cmpWide, nextF) CONV_FP_ROUNDED(float, uint, cmpWide, nextF)
CONV_FP_ROUNDED(float, long, cmpLong, nextF) CONV_FP_ROUNDED(float, ulong, cmpUlong, nextF)
CONV_FP(float, float) CONV_FP_ROUNDED(float, double, cmpWide, nextF)

CONV_FP(double, char) CONV_FP(double, uchar) CONV_FP(double, short) CONV_FP(double, ushort)
CONV_FP(double, int) CONV_FP(double, uint)
CONV_FP_ROUNDED(double, long, cmpLong, nextD) CONV_FP_ROUNDED(double, ulong, cmpUlong, nextD)
CONV_FP(double, float) CONV_FP(double, double)
