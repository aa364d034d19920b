// pown, powr and rootn (OpenCL C 6.15.2) for float and double, scalar and
// vector: pow with an integer exponent, pow for x >= 0 only, and the n-th
// root. Each has its own special cases (OpenCL C 7.5.1), which differ from
// C99 pow's, and each needs more care than a call to pow:
//
// - pown(x, n) as powf(x, (float)n) computes a different power once |n| >=
//   2^24, where (float)n rounds. n splits into a multiple of 4096 (exact in
//   float) and a remainder of n's sign, and x^n = x^Hi · x^Lo. The double
//   form converts n exactly.
// - rootn(x, n) as pow(x, 1/n) misses by up to |log x|·ulp(1/n), tens of
//   ulps for x far from 1. 1/n is held as Hi + Lo (the fma gives the exact
//   residual of the division) and x^(Hi+Lo) = x^Hi · (1 + Lo·log x), the
//   correction being ~2^-24 in size, so its own error is negligible. Once
//   |n| >= 2^24 (float only) n itself rounds, but then x^(1/n) is within
//   |log x|/n < 2^-17 of 1 and the exponent's relative error no longer shows.
// - powr(x, y) is exp(y·log x): NaN for x < 0 and for the 0^0, inf^0, 1^inf
//   forms pow defines as 1; +0 for 0^y even when x is -0.
//
// Float computes in float, double in double.
#include "BuiltinMacros.h"

#pragma OPENCL FP_CONTRACT OFF

static INL float pownF(float x, int n) {
  // Both parts have n's sign, so no 0·inf: x^Hi and x^Lo are both >= 1 or
  // both <= 1 in magnitude, and an overflow or underflow of x^Hi is the
  // result's own. A smaller n is all Hi, and x^0 = 1 for every x (NaN
  // too) leaves x^n as it is: two pow calls and no branch, so that a work-
  // item loop calling pown still vectorizes.
  int Lo = n > -0x1000000 && n < 0x1000000 ? 0 : n % 4096;
  int Hi = n - Lo;
  return __builtin_powf(x, (float)Hi) * __builtin_powf(x, (float)Lo);
}
static INL double pownD(double x, int n) { return __builtin_pow(x, (double)n); }

#define POW_CORES(T, TS, SUF, UT, QNAN_BITS)                                                       \
  static INL T powr##TS(T x, T y) {                                                                \
    T NaN = as_##T((UT)QNAN_BITS);                                                                 \
    if (x < (T)0)                                                                                  \
      return NaN;                                                                                  \
    if (__builtin_isnan(x) || __builtin_isnan(y))                                                  \
      return x + y;                                                                                \
    if (x == (T)1)                                                                                 \
      return __builtin_isinf(y) ? NaN : (T)1;                                                      \
    if (y == (T)0)                                                                                 \
      return x == (T)0 || __builtin_isinf(x) ? NaN : (T)1;                                         \
    if (x == (T)0)                                                                                 \
      return y < (T)0 ? (T)INFINITY : (T)0;                                                        \
    return __builtin_pow##SUF(x, y);                                                               \
  }                                                                                                \
  static INL T rootn##TS(T x, int n) {                                                             \
    if (n == 0 || (x < (T)0 && !(n & 1)))                                                          \
      return as_##T((UT)QNAN_BITS);                                                                \
    T Ax = __builtin_fabs##SUF(x);                                                                 \
    T N = (T)n;                                                                                    \
    T Hi = (T)1 / N;                                                                               \
    T Lo = __builtin_fma##SUF(-Hi, N, (T)1) / N;                                                   \
    /* Hi != 0, so 0, inf and NaN follow pow: +0 or +inf, then n's sign. */                        \
    /* The correction needs a finite log and a finite R (inf*0 is NaN). */                         \
    T R = __builtin_pow##SUF(Ax, Hi);                                                              \
    if (__builtin_isfinite(Ax) && Ax != (T)0 && __builtin_isfinite(R))                             \
      R = __builtin_fma##SUF(R, Lo * log(Ax), R);                                                  \
    return (n & 1) ? __builtin_copysign##SUF(R, x) : R;                                            \
  }

POW_CORES(float, F, f, uint, 0x7fc00000u)
POW_CORES(double, D, , ulong, 0x7ff8000000000000ul)

MATH_INT2(pown, pownF, pownD)
MATH_INT2(rootn, rootnF, rootnD)
MATH2(powr, powrF, powrD)
// half_powr and native_powr share powr's special cases (their precision is
// implementation-defined or half's, but not their edge cases).
OVL float half_powr(float x, float y) { return powrF(x, y); }
OVL float native_powr(float x, float y) { return powrF(x, y); }
VEC_BINARY(half_powr, float, float, float)
VEC_BINARY(native_powr, float, float, float)
