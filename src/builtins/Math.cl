// Math builtins (OpenCL C 6.15.2) for float and double, scalar and vector.
// Scalars call clang's __builtin_* forms, which become LLVM intrinsics or
// libm calls; libm symbols resolve from the host process at JIT time.
// native_* and half_* forms use the full-precision implementation (allowed:
// their precision is implementation-defined / at least half's).
// The functions with a pointer argument (fract, modf, sincos, frexp, remquo,
// lgamma_r) are in MathPointer.cl, compiled once per address-space set; the
// π-scaled trigonometric functions in MathPi.cl; pown, powr and rootn in
// MathPow.cl.
#include "BuiltinMacros.h"
#include "MathShared.h"

MATH1(sqrt, __builtin_sqrtf, __builtin_sqrt)
MATH1(fabs, __builtin_fabsf, __builtin_fabs)
MATH1(floor, __builtin_floorf, __builtin_floor)
MATH1(ceil, __builtin_ceilf, __builtin_ceil)
MATH1(round, __builtin_roundf, __builtin_round)
MATH1(trunc, __builtin_truncf, __builtin_trunc)
MATH1(rint, __builtin_rintf, __builtin_rint)
// The transcendental functions call libm (or SLEEF), whose calls the loop
// vectorizer turns into libmvec's or SLEEF's vector forms
// (src/compiler/vectorize/VectorMath.cpp has the forms it may use and their measured
// errors). Where libmvec's float form
// comes within an ulp of OpenCL C's bound, or beyond it, the float function
// is computed in double and rounded once (VIA_DOUBLE): libmvec's double
// forms are within 3 double ulps, so the float result is within about half
// an ulp, and it still vectorizes.
#define VIA_DOUBLE(F, BD)                                                                          \
  static float F##ViaDouble(float x) { return (float)BD((double)x); }
// The float exp, expm1 and log1p call glibc's double functions by their
// _Float64 names, which VectorMath maps to libmvec's double forms: 3.10,
// 2.96 and 2.44 ulp, plenty for a float result but not within the double
// bounds, so the double builtins use other names (Weft's own exp and expm1
// below, SLEEF's log1p). Clang has no exp10 builtin.
HOST_LIBM(hostExpF64, "expf64")
HOST_LIBM(hostExpm1F64, "expm1f64")
HOST_LIBM(hostLog1pF64, "log1pf64")
HOST_LIBM(hostExp10, "exp10")
// exp and expm1 in double, written here so that they vectorize without
// libmvec (whose forms are 3.10 and 2.96 ulp, of bounds of 3, while glibc's
// stay scalar calls in a vectorized loop). exp(X) = 2^K (1 + S):
// X = K ln2 + r, |r| <= ln2/2, with ln2 as a 32-bit head, which K times is
// exact and so is X minus that (Sterbenz), and a tail; r = Hi - Lo rounds
// and C carries the rounding. S = exp(r) - 1 = r + r^2 Q(r), Q the Taylor
// series to r^13/13! (the next term is below 0.05 ulp).
static double expCore(double X, __private double *S) {
#pragma OPENCL FP_CONTRACT OFF
  const double Ln2Hi = 0x1.62e42feep-1, Ln2Lo = 0x1.a39ef35793c76p-33;
  double K = __builtin_rint(X * 0x1.71547652b82fep+0);
  double Hi = X - K * Ln2Hi;
  double Lo = K * Ln2Lo;
  double R = Hi - Lo;
  double C = (Hi - R) - Lo;
  double Q = 0x1.6124613a86d09p-33;
  Q = __builtin_fma(Q, R, 0x1.1eed8eff8d898p-29);
  Q = __builtin_fma(Q, R, 0x1.ae64567f544e4p-26);
  Q = __builtin_fma(Q, R, 0x1.27e4fb7789f5cp-22);
  Q = __builtin_fma(Q, R, 0x1.71de3a556c734p-19);
  Q = __builtin_fma(Q, R, 0x1.a01a01a01a01ap-16);
  Q = __builtin_fma(Q, R, 0x1.a01a01a01a01ap-13);
  Q = __builtin_fma(Q, R, 0x1.6c16c16c16c17p-10);
  Q = __builtin_fma(Q, R, 0x1.1111111111111p-7);
  Q = __builtin_fma(Q, R, 0x1.5555555555555p-5);
  Q = __builtin_fma(Q, R, 0x1.5555555555555p-3);
  Q = __builtin_fma(Q, R, 0.5);
  *S = R + __builtin_fma(R * R, Q, C);
  return K;
}
// 2^K for an integral K in [-1022, 1023].
static double pow2D(double K) { return as_double(((long)K + 1023) << 52); }
// (1 + S) 2^K, scaled in two steps, exact but for the last, so that
// overflow is inf and underflow rounds once into the subnormals.
static double scaleD(double S, double K) {
  double K1 = __builtin_floor(K * 0.5);
  return (1.0 + S) * pow2D(K1) * pow2D(K - K1);
}
// Within 0.86 ulp (bound 3) over 20 million inputs against a long double
// reference.
static double expD(double x) {
  double S, K = expCore(__builtin_fmin(__builtin_fmax(x, -746.0), 710.0), &S);
  return __builtin_isnan(x) ? x : scaleD(S, K);
}
// 2^K (1 + S) - 1: for |K| <= 56, 2^K - 1 is exact and one fma rounds;
// beyond, the 1 hardly matters. Tiny x is its own result (keeping -0).
// Within 1.70 ulp (bound 3) over 20 million inputs.
static double expm1D(double x) {
  double S, K = expCore(__builtin_fmin(__builtin_fmax(x, -40.0), 710.0), &S);
  double T = pow2D(__builtin_fmin(__builtin_fmax(K, -56.0), 56.0));
  double M = __builtin_fabs(K) <= 56.0 ? __builtin_fma(T, S, T - 1.0) : scaleD(S, K) - 1.0;
  M = __builtin_fabs(x) < 0x1p-54 ? x : M;
  return __builtin_isnan(x) ? x : M;
}
VIA_DOUBLE(acosh, __builtin_acosh)
VIA_DOUBLE(asin, __builtin_asin)
VIA_DOUBLE(exp, hostExpF64)
VIA_DOUBLE(expm1, hostExpm1F64)
VIA_DOUBLE(exp10, hostExp10)
VIA_DOUBLE(log, __builtin_log)
VIA_DOUBLE(log2, __builtin_log2)
VIA_DOUBLE(log10, __builtin_log10)
VIA_DOUBLE(log1p, hostLog1pF64)
VIA_DOUBLE(tan, __builtin_tan)
MATH1(exp, expViaDouble, expD)
MATH1(exp2, __builtin_exp2f, __builtin_exp2)
MATH1(exp10, exp10ViaDouble, hostExp10)
MATH1(expm1, expm1ViaDouble, expm1D)
MATH1(log, logViaDouble, __builtin_log)
MATH1(log2, log2ViaDouble, __builtin_log2)
MATH1(log10, log10ViaDouble, __builtin_log10)
// Double log1p vectorizes with SLEEF's form (VectorMath), which overflows
// to inf above 2^1020: there, log1p(x) = log1p(x 2^-64) + 64 ln2, the
// constant in two parts (within 1.25 ulp: the log1p and the sum). SLEEF's
// is also far off for subnormal x (464 ulp at 1e-310, 0 at 2^-1074), where
// log1p(x) = x - x^2/2 + ... rounds to x, as it does for every |x| < 2^-52
// (x^2/2 is below half an ulp of x).
static double log1pD(double x) {
  bool Huge = x > 0x1p1000;
  double R = __builtin_log1p(Huge ? x * 0x1p-64 : x);
  R = __builtin_fabs(x) < 0x1p-52 ? x : R;
  return Huge ? (R + 0x1.62e42fefa39efp+5) + 0x1.abc9e3b39803fp-50 : R;
}
MATH1(log1p, log1pViaDouble, log1pD)
MATH1(sin, __builtin_sinf, __builtin_sin)
MATH1(cos, __builtin_cosf, __builtin_cos)
MATH1(tan, tanViaDouble, __builtin_tan)
MATH1(asin, asinViaDouble, __builtin_asin)
MATH1(acos, __builtin_acosf, __builtin_acos)
MATH1(atan, __builtin_atanf, __builtin_atan)
MATH1(sinh, __builtin_sinhf, __builtin_sinh)
MATH1(cosh, __builtin_coshf, __builtin_cosh)
MATH1(tanh, __builtin_tanhf, __builtin_tanh)
MATH1(asinh, __builtin_asinhf, __builtin_asinh)
MATH1(acosh, acoshViaDouble, __builtin_acosh)
MATH1(atanh, __builtin_atanhf, __builtin_atanh)
MATH1(erf, __builtin_erff, __builtin_erf)
MATH1(erfc, __builtin_erfcf, __builtin_erfc)
// tgamma and lgamma (MathShared.h) in double vectorize with SLEEF's forms
// (VectorMath); the float functions compute in double with them (SLEEF's
// float tgamma is far outside the bound near -38). SLEEF's tgamma is within
// 1.52 ulp above -170, and far off below, where |tgamma| < 2^-1000: there
// tgamma(x) = tgamma(x + 20) / P, P = x (x + 1) ... (x + 19) > 0 formed in
// double-double (each x + i is exact), within 1.80 ulp; below -190 the
// result is a zero of tgamma's sign (NaN at the poles, the integers).
static double tgammaD(double x) {
#pragma OPENCL FP_CONTRACT OFF
  bool Shift = x < -170.0;
  double G = __builtin_tgamma(Shift ? x + 20.0 : x);
  double Ph = 1.0, Pl = 0.0;
  for (int I = 0; I < 20; ++I) {
    double T = x + I;
    double H = Ph * T;
    double L = __builtin_fma(Ph, T, -H) + Pl * T;
    Ph = H + L;
    Pl = L - (Ph - H);
  }
  double Q = G / Ph;
  Q = __builtin_copysign(Q - Q * (Pl / Ph), G);
  double Zero = gammaSign(x) < 0 ? -0.0 : 0.0;
  return !Shift ? G : x < -190.0 && x != __builtin_floor(x) ? Zero : Q;
}
VIA_DOUBLE(tgamma, tgammaD)
MATH1(tgamma, tgammaViaDouble, tgammaD)
MATH1(lgamma, lgammaF, lgammaD)

// glibc's cbrt misses the 2 ulp bound for some subnormal x (the CTS finds
// 2.17 ulp). One Newton step r - (r^3 - x)/(3r^2) from its result, with r^3
// formed exactly as R3 + R3Lo (fma), leaves about half an ulp. x is first
// scaled by 2^±600 (cube root 2^±200) when far from 1, so that r^3 neither
// overflows nor loses R3Lo to underflow. R3 - S is exact (Sterbenz).
static double cbrtD(double x) {
#pragma OPENCL FP_CONTRACT OFF
  double Ax = __builtin_fabs(x);
  if (!__builtin_isfinite(x) || x == 0.0)
    return x;
  double Scale = 1.0, S = Ax;
  if (Ax < 0x1p-900) {
    S = Ax * 0x1p600;
    Scale = 0x1p-200;
  } else if (Ax > 0x1p900) {
    S = Ax * 0x1p-600;
    Scale = 0x1p200;
  }
  double R = __builtin_cbrt(S);
  double R2 = R * R, R2Lo = __builtin_fma(R, R, -R2);
  double R3 = R2 * R, R3Lo = __builtin_fma(R2, R, -R3) + R2Lo * R;
  R -= ((R3 - S) + R3Lo) / (3.0 * R2);
  return __builtin_copysign(R * Scale, x);
}
// Float cbrt is the corrected double cbrt, rounded once (libmvec's float
// form misses the 2 ulp bound).
static float cbrtF(float x) { return (float)cbrtD((double)x); }
MATH1(cbrt, cbrtF, cbrtD)
static float rsqrtF(float x) { return 1.0f / __builtin_sqrtf(x); }
static double rsqrtD(double x) { return 1.0 / __builtin_sqrt(x); }
MATH1(rsqrt, rsqrtF, rsqrtD)

MATH2(fmin, __builtin_fminf, __builtin_fmin)
MATH2(fmax, __builtin_fmaxf, __builtin_fmax)
VEC_BINARY_SCALAR(fmin, float, float, float)
VEC_BINARY_SCALAR(fmax, float, float, float)
VEC_BINARY_SCALAR(fmin, double, double, double)
VEC_BINARY_SCALAR(fmax, double, double, double)
MATH2(fmod, __builtin_fmodf, __builtin_fmod)
MATH2(pow, __builtin_powf, __builtin_pow)
MATH2(atan2, __builtin_atan2f, __builtin_atan2)
MATH2(hypot, __builtin_hypotf, __builtin_hypot)
MATH2(copysign, __builtin_copysignf, __builtin_copysign)
// remainder is remquo without the quotient (MathShared.h): glibc's is a
// scalar call that would keep the loop scalar.
static float remainderF(float x, float y) {
  int Quo;
  return remquoF(x, y, &Quo);
}
static double remainderD(double x, double y) {
  int Quo;
  return remquoD(x, y, &Quo);
}
MATH2(remainder, remainderF, remainderD)
static float maxmagF(float x, float y) {
  float Ax = __builtin_fabsf(x), Ay = __builtin_fabsf(y);
  return Ax > Ay ? x : Ay > Ax ? y : __builtin_fmaxf(x, y);
}
static double maxmagD(double x, double y) {
  double Ax = __builtin_fabs(x), Ay = __builtin_fabs(y);
  return Ax > Ay ? x : Ay > Ax ? y : __builtin_fmax(x, y);
}
MATH2(maxmag, maxmagF, maxmagD)
static float minmagF(float x, float y) {
  float Ax = __builtin_fabsf(x), Ay = __builtin_fabsf(y);
  return Ax < Ay ? x : Ay < Ax ? y : __builtin_fminf(x, y);
}
static double minmagD(double x, double y) {
  double Ax = __builtin_fabs(x), Ay = __builtin_fabs(y);
  return Ax < Ay ? x : Ay < Ax ? y : __builtin_fmin(x, y);
}
MATH2(minmag, minmagF, minmagD)

MATH3(fma, __builtin_fmaf, __builtin_fma)
static float madF(float a, float b, float c) { return a * b + c; }
static double madD(double a, double b, double c) { return a * b + c; }
MATH3(mad, madF, madD)

// The exponent-field functions (ldexp, ilogb, logb, nextafter, fdim; frexp
// and modf are in MathPointer.cl) are written on the bits, with selects
// instead of branches, so that a kernel calling them inside its work-item
// loop still vectorizes; libm's would be calls the loop vectorizer cannot
// widen. They are exact, so there is no accuracy to trade.

// ldexp (float): x * 2^n is exact in double for |n| <= 400 (every float
// times 2^±400 is a normal double), and beyond that the float result is 0
// or inf anyway; the one rounding is the conversion back to float.
static float ldexpF(float x, int n) {
  int N = clamp(n, -400, 400);
  return (float)((double)x * as_double((ulong)(N + 1023) << 52));
}
// ldexp (double), as in musl's scalbn: up to two scalings by 2^1023 (or
// 2^-969, which keeps the last rounding single in the subnormal range),
// then one by 2^n with n clamped into the normal exponent range.
static double ldexpD(double x, int n) {
  double Y = x;
  for (int Step = 0; Step < 2; ++Step) {
    bool Up = n > 1023, Down = n < -1022;
    Y *= Up ? 0x1p1023 : Down ? 0x1p-969 : 1.0;
    n = Up ? n - 1023 : Down ? n + 969 : n;
  }
  n = clamp(n, -1022, 1023);
  return Y * as_double((ulong)(n + 1023) << 52);
}
MATH_INT2(ldexp, ldexpF, ldexpD)
VEC_BINARY_SCALAR(ldexp, float, float, int)
VEC_BINARY_SCALAR(ldexp, double, double, int)

// ilogb: the biased exponent, or for a subnormal the position of its
// leading one. ilogb(0) and ilogb(NaN) are OpenCL C's FP_ILOGB0 and
// FP_ILOGBNAN (INT_MIN and INT_MAX), not the host libm's.
static int ilogbF(float x) {
  uint A = as_uint(x) & 0x7fffffffu;
  int R = A < 0x00800000u ? -118 - (int)clz(A) : (int)(A >> 23) - 127;
  R = A == 0 ? FP_ILOGB0 : R;
  return A >= 0x7f800000u ? (A == 0x7f800000u ? INT_MAX : FP_ILOGBNAN) : R;
}
static int ilogbD(double x) {
  ulong A = as_ulong(x) & 0x7ffffffffffffffful;
  int R = A < 0x0010000000000000ul ? -1011 - (int)clz(A) : (int)(A >> 52) - 1023;
  R = A == 0 ? FP_ILOGB0 : R;
  return A >= 0x7ff0000000000000ul ? (A == 0x7ff0000000000000ul ? INT_MAX : FP_ILOGBNAN) : R;
}
OVL int ilogb(float x) { return ilogbF(x); }
OVL int ilogb(double x) { return ilogbD(x); }
VEC_UNARY(ilogb, int, float)
MATH_VEC_UNARY(ilogb, int, double)

// logb: ilogb as a float; -inf at 0, +inf at ±inf, NaN at NaN.
#define LOGB(T, TS)                                                                                \
  static T logb##TS(T x) {                                                                         \
    T R = x == (T)0 ? -(T)INFINITY : (T)ilogb##TS(x);                                              \
    R = __builtin_isinf(x) ? (T)INFINITY : R;                                                      \
    return __builtin_isnan(x) ? x : R;                                                             \
  }
LOGB(float, F)
LOGB(double, D)
MATH1(logb, logbF, logbD)

// nextafter: one step of the bit pattern, up in magnitude when y lies
// beyond x away from zero; from ±0 the smallest subnormal of y's sign.
#define NEXTAFTER(T, TS, IT, TINY)                                                                 \
  static T nextafter##TS(T x, T y) {                                                               \
    IT Bits = as_##IT(x);                                                                          \
    T R = as_##T(Bits + (((x < y) == (Bits >= 0)) ? (IT)1 : (IT)-1));                              \
    R = x == (T)0 ? copysign((T)TINY, y) : R;                                                      \
    R = x == y ? y : R;                                                                            \
    return __builtin_isnan(x) || __builtin_isnan(y) ? x + y : R;                                   \
  }
NEXTAFTER(float, F, int, 0x1p-149f)
NEXTAFTER(double, D, long, 0x1p-1074)
MATH2(nextafter, nextafterF, nextafterD)

// fdim: x - y when x > y, else +0; NaN (as x + y) when either is NaN.
static float fdimF(float x, float y) { return x > y ? x - y : x <= y ? 0.0f : x + y; }
static double fdimD(double x, double y) { return x > y ? x - y : x <= y ? 0.0 : x + y; }
MATH2(fdim, fdimF, fdimD)

// nan(nancode): a quiet NaN carrying the code's low bits in its significand.
OVL float nan(uint c) { return as_float(0x7fc00000u | (c & 0x003fffffu)); }
OVL double nan(ulong c) { return as_double(0x7ff8000000000000ul | (c & 0x0007fffffffffffful)); }
VEC_UNARY(nan, float, uint)
VEC_UNARY(nan, double, ulong)

// native_* and half_* (float only); native_powr and half_powr are in
// MathPow.cl with powr.
#define NATIVE1(F, BF)                                                                             \
  OVL float native_##F(float x) { return BF(x); }                                                  \
  VEC_UNARY(native_##F, float, float)                                                              \
  OVL float half_##F(float x) { return BF(x); }                                                    \
  VEC_UNARY(half_##F, float, float)
#define NATIVE2(F, BF)                                                                             \
  OVL float native_##F(float x, float y) { return BF(x, y); }                                      \
  VEC_BINARY(native_##F, float, float, float)                                                      \
  OVL float half_##F(float x, float y) { return BF(x, y); }                                        \
  VEC_BINARY(half_##F, float, float, float)
static float recipF(float x) { return 1.0f / x; }
static float divideF(float x, float y) { return x / y; }
NATIVE1(sqrt, __builtin_sqrtf)
NATIVE1(rsqrt, rsqrtF)
NATIVE1(recip, recipF)
NATIVE1(sin, __builtin_sinf)
NATIVE1(cos, __builtin_cosf)
NATIVE1(tan, tanViaDouble)
NATIVE1(exp, expViaDouble)
NATIVE1(exp2, __builtin_exp2f)
NATIVE1(exp10, exp10ViaDouble)
NATIVE1(log, logViaDouble)
NATIVE1(log2, log2ViaDouble)
NATIVE1(log10, log10ViaDouble)
NATIVE2(divide, divideF)
