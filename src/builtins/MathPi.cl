// The π-scaled trigonometric builtins (OpenCL C 6.15.2): sinpi, cospi, tanpi
// and asinpi, acospi, atanpi, atan2pi, for float and double, scalar and
// vector. libm has none of them, and sin(M_PI * x) is wrong twice over: the
// product rounds (for |x| near 1e7 the float product is off by whole periods'
// worth of phase) and the exact zeros and infinities the specification asks
// for (sinpi(n) = ±0, tanpi(n + 1/2) = ±inf) come out as tiny values.
//
// Forward functions: x = n + r with n = rint(x) and |r| <= 1/2; r = x - n is
// exact (r is a multiple of x's ulp and no larger than x). The period fixes
// the sign from n's parity, and r folds into [0, 1/4] (sin and cos swap past
// 1/4, tan becomes 1/tan). π·a for a in [0, 1/4] is formed as Hi + Lo with
// an fma, so that only the libm call rounds: sin(Hi + Lo) = sin Hi +
// Lo·cos Hi to far below an ulp, and likewise for cos and tan.
//
// Inverse functions: the libm result times 1/π held as Hi + Lo, which adds
// about half an ulp to libm's error.
//
// The sin, cos, tan and inverse functions called are Math.cl's builtins
// (some float ones compute in double there); the rest computes in its own
// precision. Contraction is off: the error terms below rely on each
// product rounding where written.
#include "BuiltinMacros.h"

#pragma OPENCL FP_CONTRACT OFF

// T: the type, TS: suffix of the scalar cores, SUF: of clang's builtins.
#define PI_CORES(T, TS, SUF, PI_HI, PI_LO, INV_PI_HI, INV_PI_LO)                                   \
  /* n is odd; n is an integer (or inf/NaN, which count as even). */                               \
  static INL bool isOdd##TS(T n) {                                                                 \
    T Half = n * (T)0.5;                                                                           \
    return __builtin_rint##SUF(Half) != Half;                                                      \
  }                                                                                                \
  /* sin(pi*a), cos(pi*a) and tan(pi*a) for 0 <= a <= 1/4. */                                      \
  static INL T sinPiSmall##TS(T a) {                                                               \
    T Hi = PI_HI * a;                                                                              \
    T Lo = __builtin_fma##SUF(PI_HI, a, -Hi) + PI_LO * a;                                          \
    /* cos Hi ~ 1 - Hi^2/2 is plenty to scale Lo, itself an ulp of Hi at most */                   \
    return __builtin_fma##SUF(Lo, (T)1 - (T)0.5 * Hi * Hi, sin(Hi));                               \
  }                                                                                                \
  static INL T cosPiSmall##TS(T a) {                                                               \
    T Hi = PI_HI * a;                                                                              \
    T Lo = __builtin_fma##SUF(PI_HI, a, -Hi) + PI_LO * a;                                          \
    /* sin Hi ~ Hi, likewise */                                                                    \
    return __builtin_fma##SUF(-Lo, Hi, cos(Hi));                                                   \
  }                                                                                                \
  static INL T tanPiSmall##TS(T a) {                                                               \
    T Hi = PI_HI * a;                                                                              \
    T Lo = __builtin_fma##SUF(PI_HI, a, -Hi) + PI_LO * a;                                          \
    T Tn = tan(Hi);                                                                                \
    return __builtin_fma##SUF(Lo, __builtin_fma##SUF(Tn, Tn, (T)1), Tn);                           \
  }                                                                                                \
  /* a/pi: the product with 1/pi = INV_PI_HI + INV_PI_LO, its error kept. */                       \
  /* A zero result keeps a's sign (-0 + +0 would be +0). */                                        \
  static INL T divPi##TS(T a) {                                                                    \
    T P = a * INV_PI_HI;                                                                           \
    T E = __builtin_fma##SUF(a, INV_PI_HI, -P);                                                    \
    T R = P + __builtin_fma##SUF(a, INV_PI_LO, E);                                                 \
    return R == (T)0 ? __builtin_copysign##SUF(R, a) : R;                                          \
  }                                                                                                \
                                                                                                   \
  /* sinpi(n + r) = (-1)^n sin(pi r); zeros take x's sign (+0 for positive */                      \
  /* integers, -0 for negative ones). inf and NaN give r = NaN. */                                 \
  static INL T sinpi##TS(T x) {                                                                    \
    T N = __builtin_rint##SUF(x);                                                                  \
    T R = x - N;                                                                                   \
    T A = __builtin_fabs##SUF(R);                                                                  \
    T S = A <= (T)0.25 ? sinPiSmall##TS(A) : cosPiSmall##TS((T)0.5 - A);                           \
    S = __builtin_copysign##SUF(S, R);                                                             \
    if (R == (T)0)                                                                                 \
      return __builtin_copysign##SUF((T)0, x);                                                     \
    return isOdd##TS(N) ? -S : S;                                                                  \
  }                                                                                                \
  /* cospi(n + r) = (-1)^n cos(pi r); its zeros (|r| = 1/2) are all +0. */                         \
  static INL T cospi##TS(T x) {                                                                    \
    T A = __builtin_fabs##SUF(x - __builtin_rint##SUF(x));                                         \
    T C = A <= (T)0.25 ? cosPiSmall##TS(A) : sinPiSmall##TS((T)0.5 - A);                           \
    return isOdd##TS(__builtin_rint##SUF(x)) && C != (T)0 ? -C : C;                                \
  }                                                                                                \
  /* tanpi(n + r) = tan(pi r), 1/tan(pi (1/2 - |r|)) past 1/4, which is +inf */                    \
  /* at |r| = 1/2 and takes r's sign. tanpi(n) = copysign(0, n) for even n, */                     \
  /* copysign(0, -n) for odd n. */                                                                 \
  static INL T tanpi##TS(T x) {                                                                    \
    T N = __builtin_rint##SUF(x);                                                                  \
    T R = x - N;                                                                                   \
    T A = __builtin_fabs##SUF(R);                                                                  \
    T Tn = A <= (T)0.25 ? tanPiSmall##TS(A) : (T)1 / tanPiSmall##TS((T)0.5 - A);                   \
    if (R == (T)0)                                                                                 \
      return __builtin_copysign##SUF((T)0, isOdd##TS(N) ? -x : x);                                 \
    return __builtin_copysign##SUF(Tn, R);                                                         \
  }                                                                                                \
  static INL T asinpi##TS(T x) { return divPi##TS(asin(x)); }                                      \
  static INL T acospi##TS(T x) { return divPi##TS(acos(x)); }                                      \
  static INL T atanpi##TS(T x) { return divPi##TS(atan(x)); }                                      \
  static INL T atan2pi##TS(T y, T x) { return divPi##TS(atan2(y, x)); }

PI_CORES(float, F, f, 0x1.921fb6p+1f, -0x1.777a5cp-24f, 0x1.45f306p-2f, 0x1.b93910p-27f)
PI_CORES(double, D, , 0x1.921fb54442d18p+1, 0x1.1a62633145c07p-53, 0x1.45f306dc9c883p-2,
         -0x1.6b01ec5417056p-56)

MATH1(sinpi, sinpiF, sinpiD)
MATH1(cospi, cospiF, cospiD)
MATH1(tanpi, tanpiF, tanpiD)
MATH1(asinpi, asinpiF, asinpiD)
MATH1(acospi, acospiF, acospiD)
MATH1(atanpi, atanpiF, atanpiD)
MATH2(atan2pi, atan2piF, atan2piD)
