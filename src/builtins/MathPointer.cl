// The math builtins that return a second result through a pointer (OpenCL C
// 6.15.2): fract, modf, sincos, frexp, remquo and lgamma_r, for float and
// double, scalar and vector. Included by PointerBuiltins.cl, once per
// address-space set. Each is written once as a scalar core that writes
// through a __private pointer; the overloads call the core with a local
// and store the result through the caller's pointer, so the cores are the
// same in both compiles.
//
// remquo is not glibc's: that gives only the three low bits of the
// quotient, where OpenCL C asks for seven.

#ifndef WEFT_MATH_POINTER_CORES
#define WEFT_MATH_POINTER_CORES

#include "MathShared.h"

// fract: x - floor(x), kept below 1 (a tiny negative x would round to 1).
// fract(±inf) is ±0 and a zero result takes the sign of x, like modf's
// (the specification fixes it for x = -0 only).
#define FRACT_CORE(T, TS, SUF, BELOW_ONE)                                                          \
  static INL T fract##TS(T x, __private T *ip) {                                                   \
    T Fl = __builtin_floor##SUF(x);                                                                \
    *ip = Fl;                                                                                      \
    T R = __builtin_fmin##SUF(x - Fl, BELOW_ONE);                                                  \
    if (R == (T)0 || __builtin_isinf(x))                                                           \
      R = __builtin_copysign##SUF((T)0, x);                                                        \
    return __builtin_isnan(x) ? x : R;                                                             \
  }

// TS names the core (F or D), SUF the clang builtin (f or nothing).
FRACT_CORE(float, F, f, 0x1.fffffep-1f)
FRACT_CORE(double, D, , 0x1.fffffffffffffp-1)

// modf and frexp work on the value's bits with selects, not libm calls, so
// that they vectorize (see Math.cl's ldexp). modf: x - trunc(x) is exact;
// ±inf has a ±0 fraction and every fraction takes the sign of x.
#define MODF_CORE(T, TS, SUF)                                                                      \
  static INL T modf##TS(T x, __private T *ip) {                                                    \
    T I = __builtin_trunc##SUF(x);                                                                 \
    *ip = I;                                                                                       \
    return __builtin_copysign##SUF(__builtin_isinf(x) ? (T)0 : x - I, x);                          \
  }
MODF_CORE(float, F, f)
MODF_CORE(double, D, )
// frexp: the significand gets the exponent of 0.5; a subnormal is first
// scaled into the normal range. 0, ±inf and NaN come back as they are,
// with exponent 0.
#define FREXP_CORE(T, TS, UT, ABS_MASK, EXP_MASK, MIN_NORMAL, MANT, SCALE, SCALE_LOG2, BIAS_HALF)  \
  static INL T frexp##TS(T x, __private int *e) {                                                  \
    UT A = as_##UT(x) & ABS_MASK;                                                                  \
    bool Sub = A < MIN_NORMAL;                                                                     \
    UT B = as_##UT(Sub ? x * SCALE : x);                                                           \
    int E = (int)((B & EXP_MASK) >> MANT) - BIAS_HALF - (Sub ? SCALE_LOG2 : 0);                    \
    bool Special = A == 0 || A >= EXP_MASK;                                                        \
    *e = Special ? 0 : E;                                                                          \
    return Special ? x : as_##T((B & ~EXP_MASK) | ((UT)BIAS_HALF << MANT));                        \
  }
FREXP_CORE(float, F, uint, 0x7fffffffu, 0x7f800000u, 0x00800000u, 23, 0x1p24f, 24, 126)
FREXP_CORE(double, D, ulong, 0x7ffffffffffffffful, 0x7ff0000000000000ul, 0x0010000000000000ul, 52,
           0x1p54, 54, 1022)
static INL float sincosF(float x, __private float *c) {
  *c = __builtin_cosf(x);
  return __builtin_sinf(x);
}
static INL double sincosD(double x, __private double *c) {
  *c = __builtin_cos(x);
  return __builtin_sin(x);
}
// lgamma_r: lgamma's value (float in double, as lgamma) and the sign of
// gamma(x) (MathShared.h).
static INL float lgamma_rF(float x, __private int *s) {
  *s = gammaSign((double)x);
  return lgammaF(x);
}
static INL double lgamma_rD(double x, __private int *s) {
  *s = gammaSign(x);
  return lgammaD(x);
}

#endif // WEFT_MATH_POINTER_CORES

// Scalar overloads: FN(x[, y], AS P *p) over the core FN##TS.
#define MATHP_UNARY(FN, T, TS, P, AS)                                                              \
  OVL T FN(T x, AS P *p) {                                                                         \
    P Out;                                                                                         \
    T R = FN##TS(x, &Out);                                                                         \
    *p = Out;                                                                                      \
    return R;                                                                                      \
  }
#define MATHP_BINARY(FN, T, TS, P, AS)                                                             \
  OVL T FN(T x, T y, AS P *p) {                                                                    \
    P Out;                                                                                         \
    T R = FN##TS(x, y, &Out);                                                                      \
    *p = Out;                                                                                      \
    return R;                                                                                      \
  }

// Vector overloads, shaped like BuiltinMacros.h's math: 2 lanes and a
// float3, each lane's scalar overload writes a local, whose overloads
// exist in every compile (__private when named, generic otherwise); a
// double3, the double4 overload on a local vector, the fourth lane a copy
// of the third; from a float4 and a double4, a loop over the lanes, each
// writing its lane of a local vector.
#define MATHP_VEC_UNARY_SMALL(FN, T, P, AS)                                                        \
  OVL T##2 FN(T##2 x, AS P##2 *p) {                                                                \
    P A, B;                                                                                        \
    T##2 R = (T##2)(FN(x.s0, &A), FN(x.s1, &B));                                                   \
    *p = (P##2)(A, B);                                                                             \
    return R;                                                                                      \
  }                                                                                                \
  MATHP_UNARY_3_##T(FN, T, P, AS)
#define MATHP_UNARY_3_float(FN, T, P, AS)                                                          \
  OVL T##3 FN(T##3 x, AS P##3 *p) {                                                                \
    P A, B, C;                                                                                     \
    T##3 R = (T##3)(FN(x.s0, &A), FN(x.s1, &B), FN(x.s2, &C));                                     \
    *p = (P##3)(A, B, C);                                                                          \
    return R;                                                                                      \
  }
#define MATHP_UNARY_3_double(FN, T, P, AS)                                                         \
  OVL T##3 FN(T##3 x, AS P##3 *p) {                                                                \
    P##4 Q;                                                                                        \
    T##4 R = FN((T##4)(x, x.s2), &Q);                                                              \
    *p = Q.s012;                                                                                   \
    return R.s012;                                                                                 \
  }
#define MATHP_VEC_UNARY_LANES(FN, T, P, N, AS)                                                     \
  OVL T##N FN(T##N x, AS P##N *p) {                                                                \
    T##N R;                                                                                        \
    P##N Q;                                                                                        \
    LANE_LOOP(N) LANE(T, R) = FN(LANE(T, x), &LANE(P, Q));                                         \
    *p = Q;                                                                                        \
    return R;                                                                                      \
  }
#define MATHP_VEC_UNARY_F(FN, P, AS)                                                               \
  MATHP_VEC_UNARY_SMALL(FN, float, P, AS)                                                          \
  MATHP_VEC_UNARY_LANES(FN, float, P, 4, AS)                                                       \
  MATHP_VEC_UNARY_LANES(FN, float, P, 8, AS) MATHP_VEC_UNARY_LANES(FN, float, P, 16, AS)
#define MATHP_VEC_UNARY_D(FN, P, AS)                                                               \
  MATHP_VEC_UNARY_SMALL(FN, double, P, AS)                                                         \
  MATHP_VEC_UNARY_LANES(FN, double, P, 4, AS)                                                      \
  MATHP_VEC_UNARY_LANES(FN, double, P, 8, AS) MATHP_VEC_UNARY_LANES(FN, double, P, 16, AS)

#define MATHP_VEC_BINARY_SMALL(FN, T, P, AS)                                                       \
  OVL T##2 FN(T##2 x, T##2 y, AS P##2 *p) {                                                        \
    P A, B;                                                                                        \
    T##2 R = (T##2)(FN(x.s0, y.s0, &A), FN(x.s1, y.s1, &B));                                       \
    *p = (P##2)(A, B);                                                                             \
    return R;                                                                                      \
  }                                                                                                \
  MATHP_BINARY_3_##T(FN, T, P, AS)
#define MATHP_BINARY_3_float(FN, T, P, AS)                                                         \
  OVL T##3 FN(T##3 x, T##3 y, AS P##3 *p) {                                                        \
    P A, B, C;                                                                                     \
    T##3 R = (T##3)(FN(x.s0, y.s0, &A), FN(x.s1, y.s1, &B), FN(x.s2, y.s2, &C));                   \
    *p = (P##3)(A, B, C);                                                                          \
    return R;                                                                                      \
  }
#define MATHP_BINARY_3_double(FN, T, P, AS)                                                        \
  OVL T##3 FN(T##3 x, T##3 y, AS P##3 *p) {                                                        \
    P##4 Q;                                                                                        \
    T##4 R = FN((T##4)(x, x.s2), (T##4)(y, y.s2), &Q);                                             \
    *p = Q.s012;                                                                                   \
    return R.s012;                                                                                 \
  }
#define MATHP_VEC_BINARY_LANES(FN, T, P, N, AS)                                                    \
  OVL T##N FN(T##N x, T##N y, AS P##N *p) {                                                        \
    T##N R;                                                                                        \
    P##N Q;                                                                                        \
    LANE_LOOP(N) LANE(T, R) = FN(LANE(T, x), LANE(T, y), &LANE(P, Q));                             \
    *p = Q;                                                                                        \
    return R;                                                                                      \
  }
#define MATHP_VEC_BINARY_F(FN, P, AS)                                                              \
  MATHP_VEC_BINARY_SMALL(FN, float, P, AS)                                                         \
  MATHP_VEC_BINARY_LANES(FN, float, P, 4, AS)                                                      \
  MATHP_VEC_BINARY_LANES(FN, float, P, 8, AS) MATHP_VEC_BINARY_LANES(FN, float, P, 16, AS)
#define MATHP_VEC_BINARY_D(FN, P, AS)                                                              \
  MATHP_VEC_BINARY_SMALL(FN, double, P, AS)                                                        \
  MATHP_VEC_BINARY_LANES(FN, double, P, 4, AS)                                                     \
  MATHP_VEC_BINARY_LANES(FN, double, P, 8, AS) MATHP_VEC_BINARY_LANES(FN, double, P, 16, AS)

// FN for float and double; P is the pointee: the argument type itself (SAME)
// or int (INT).
#define MATHP_SAME(KIND, FN, AS)                                                                   \
  MATHP_##KIND(FN, float, F, float, AS) MATHP_##KIND(FN, double, D, double, AS)                    \
      MATHP_VEC_##KIND##_F(FN, float, AS) MATHP_VEC_##KIND##_D(FN, double, AS)
#define MATHP_INT(KIND, FN, AS)                                                                    \
  MATHP_##KIND(FN, float, F, int, AS) MATHP_##KIND(FN, double, D, int, AS)                         \
      MATHP_VEC_##KIND##_F(FN, int, AS) MATHP_VEC_##KIND##_D(FN, int, AS)

#define MATH_POINTER_IN(AS)                                                                        \
  MATHP_SAME(UNARY, fract, AS)                                                                     \
  MATHP_SAME(UNARY, modf, AS)                                                                      \
  MATHP_SAME(UNARY, sincos, AS)                                                                    \
  MATHP_INT(UNARY, frexp, AS)                                                                      \
  MATHP_INT(UNARY, lgamma_r, AS)                                                                   \
  MATHP_INT(BINARY, remquo, AS)

#if __OPENCL_C_VERSION__ >= 200
MATH_POINTER_IN()
#else
MATH_POINTER_IN(__global)
MATH_POINTER_IN(__local)
MATH_POINTER_IN(__private)
#endif
