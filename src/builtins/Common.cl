// Common (OpenCL C 6.15.4) and geometric (6.15.5) builtins for float and
// double. Element-wise functions are written with vector operators once per
// type (FOR_WIDTHS); functions with per-element branches split (VEC_*).
#include "BuiltinMacros.h"

#define COMMON_OPS(T, S)                                                                           \
  OVL T clamp(T x, T lo, T hi) { return fmin(fmax(x, lo), hi); }                                   \
  OVL T min(T x, T y) { return fmin(x, y); }                                                       \
  OVL T max(T x, T y) { return fmax(x, y); }                                                       \
  OVL T mix(T x, T y, T a) { return x + (y - x) * a; }                                             \
  OVL T step(T edge, T x) { return x < edge ? (T)(S)0 : (T)(S)1; }                                 \
  OVL T smoothstep(T e0, T e1, T x) {                                                              \
    T t = clamp((x - e0) / (e1 - e0), (T)(S)0, (T)(S)1);                                           \
    return t * t * ((T)(S)3 - (T)(S)2 * t);                                                        \
  }                                                                                                \
  OVL T degrees(T r) { return r * (T)(S)(180.0 / M_PI); }                                          \
  OVL T radians(T d) { return d * (T)(S)(M_PI / 180.0); }
#define COMMON_OPS_F(T) COMMON_OPS(T, float)
#define COMMON_OPS_D(T) COMMON_OPS(T, double)
FOR_WIDTHS(COMMON_OPS_F, float)
FOR_WIDTHS(COMMON_OPS_D, double)

#define COMMON_SCALAR_FORMS(T, N)                                                                  \
  OVL T##N clamp(T##N x, T lo, T hi) { return clamp(x, (T##N)(lo), (T##N)(hi)); }                  \
  OVL T##N min(T##N x, T y) { return min(x, (T##N)(y)); }                                          \
  OVL T##N max(T##N x, T y) { return max(x, (T##N)(y)); }                                          \
  OVL T##N mix(T##N x, T##N y, T a) { return mix(x, y, (T##N)(a)); }                              \
  OVL T##N step(T edge, T##N x) { return step((T##N)(edge), x); }                                  \
  OVL T##N smoothstep(T e0, T e1, T##N x) { return smoothstep((T##N)(e0), (T##N)(e1), x); }
#define COMMON_SCALAR_FORMS_W(T)                                                                   \
  COMMON_SCALAR_FORMS(T, 2) COMMON_SCALAR_FORMS(T, 3) COMMON_SCALAR_FORMS(T, 4)                    \
      COMMON_SCALAR_FORMS(T, 8) COMMON_SCALAR_FORMS(T, 16)
COMMON_SCALAR_FORMS_W(float)
COMMON_SCALAR_FORMS_W(double)

OVL float sign(float x) { return x > 0.0f ? 1.0f : x < 0.0f ? -1.0f : x != x ? 0.0f : x; }
OVL double sign(double x) { return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x != x ? 0.0 : x; }
VEC_UNARY(sign, float, float)
VEC_UNARY(sign, double, double)

// Geometric functions: float/double, widths 1 to 4. length, distance and
// normalize rescale by a power of two when the largest component is so big
// (or small) that squaring it would overflow (or underflow): exact, so the
// result keeps the accuracy of the unscaled formula. Both forms are
// computed and one selected, without branches, as the loop vectorizer's
// if-conversion would make of them.
#define GEOMETRIC(T, LIMIT)                                                                        \
  OVL T dot(T x, T y) { return x * y; }                                                            \
  OVL T dot(T##2 x, T##2 y) { return x.s0 * y.s0 + x.s1 * y.s1; }                                  \
  OVL T dot(T##3 x, T##3 y) { return x.s0 * y.s0 + x.s1 * y.s1 + x.s2 * y.s2; }                    \
  OVL T dot(T##4 x, T##4 y) { return x.s0 * y.s0 + x.s1 * y.s1 + x.s2 * y.s2 + x.s3 * y.s3; }      \
  OVL T##3 cross(T##3 a, T##3 b) {                                                                 \
    return (T##3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);            \
  }                                                                                                \
  OVL T##4 cross(T##4 a, T##4 b) {                                                                 \
    return (T##4)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, (T)0);      \
  }                                                                                                \
  static INL T geomMaxAbs(T x) { return fabs(x); }                                                 \
  static INL T geomMaxAbs(T##2 x) { return fmax(fabs(x.s0), fabs(x.s1)); }                         \
  static INL T geomMaxAbs(T##3 x) { return fmax(fmax(fabs(x.s0), fabs(x.s1)), fabs(x.s2)); }       \
  static INL T geomMaxAbs(T##4 x) { return fmax(geomMaxAbs(x.lo), geomMaxAbs(x.hi)); }             \
  /* The exponent to rescale by, given the largest magnitude M: 0 unless M  */                     \
  /* is finite and squaring it would overflow or underflow.                 */                     \
  static INL int geomScale(T M) {                                                                  \
    int E = ilogb(M);                                                                              \
    return !isinf(M) && M > (T)0 && (M > (T)LIMIT || M < (T)1 / (T)LIMIT) ? E : 0;                 \
  }                                                                                                \
  GEOMETRIC_W(T, T, LIMIT) GEOMETRIC_W(T, T##2, LIMIT) GEOMETRIC_W(T, T##3, LIMIT)                 \
  GEOMETRIC_W(T, T##4, LIMIT)
#define GEOMETRIC_W(S, T, LIMIT)                                                                   \
  OVL S length(T x) {                                                                              \
    S M = geomMaxAbs(x);                                                                           \
    int E = geomScale(M);                                                                          \
    T Y = ldexp(x, -E);                                                                            \
    S R = ldexp(sqrt(dot(Y, Y)), E);                                                               \
    return isinf(M) ? M : R;                                                                       \
  }                                                                                                \
  OVL S distance(T x, T y) { return length(x - y); }                                               \
  OVL T normalize(T x) {                                                                           \
    S M = geomMaxAbs(x);                                                                           \
    T Unit = copysign(fabs(x) == (T)(S)INFINITY ? (T)(S)1 : (T)(S)0, x);                           \
    T Scaled = ldexp(x, -geomScale(M));                                                            \
    T X = isinf(M) ? Unit : Scaled;                                                                \
    T R = X / sqrt(dot(X, X));                                                                     \
    return M == (S)0 ? x : R;                                                                      \
  }
GEOMETRIC(float, 0x1p+60f)
GEOMETRIC(double, 0x1p+500)
#define FAST_GEOMETRIC(T)                                                                          \
  OVL float fast_length(T x) { return length(x); }                                                 \
  OVL float fast_distance(T x, T y) { return distance(x, y); }                                     \
  OVL T fast_normalize(T x) { return normalize(x); }
FAST_GEOMETRIC(float)
FAST_GEOMETRIC(float2)
FAST_GEOMETRIC(float3)
FAST_GEOMETRIC(float4)
