// Macros shared by the builtin library sources. Builtins are written once
// per scalar type and expanded to the vector widths 2, 3, 4, 8 and 16: up
// to 4 lanes by calling the scalar form on each lane, all lanes in one
// vector literal; 8 and 16 lanes (and math from 4) by a loop over
// the lanes (below). To add a builtin: write the scalar form, then one
// line of VEC_* (or MATH*) expansion. Definitions must carry OVL so their
// mangled names match what -fdeclare-opencl-builtins declares.
#pragma once

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define OVL __attribute__((overloadable))
#define INL __attribute__((overloadable, always_inline))

// Why these two shapes. A kernel written with vectors of up to 128 bits and
// 4 lanes (float4, int4, double2) is split into scalars by the compiler's
// VectorTypeScalarizerPass, whose work-items the loop vectorizer then
// packs: there the shape of the vector forms does not matter. A kernel that
// keeps its vectors (more lanes or bits, or a store under a condition on
// data) has its lanes to pack:
//  - up to 4 lanes, one vector literal of per-lane calls gives the SLP
//    vectorizer one tree, and it takes the vector form of an intrinsic call
//    (a float4 sin kernel with its store under a condition: 9.1 -> 4.6 ms,
//    where halves made two-lane calls the back end split into scalar ones);
//  - from 8 lanes, a loop over the lanes, kept rolled, which the kernel
//    pipeline's loop vectorizer widens with the host's vector forms of the
//    libm calls (VectorMath) or the builtin's own code, its branches turned
//    into selects (on halves, a float8 sin kernel ran five times as long
//    as a float one, and float16 to uchar16 saturation four times as long
//    as on the loop). The library's own compile does not vectorize a loop
//    nobody forced, and unroll(disable) keeps it from unrolling it.
#define LANE_LOOP(N) _Pragma("clang loop unroll(disable)") for (int J = 0; J < N; ++J)
#define LANE(T, V) ((__private T *)&(V))[J]

// Unary function F: RT##N F(T##N).
#define VEC_UNARY_2(F, RT, T) OVL RT##2 F(T##2 x) { return (RT##2)(F(x.s0), F(x.s1)); }
#define VEC_UNARY_3(F, RT, T) OVL RT##3 F(T##3 x) { return (RT##3)(F(x.s0), F(x.s1), F(x.s2)); }
#define VEC_UNARY_SMALL(F, RT, T) VEC_UNARY_2(F, RT, T) VEC_UNARY_3(F, RT, T)
#define VEC_UNARY_FLAT4(F, RT, T)                                                                  \
  OVL RT##4 F(T##4 x) { return (RT##4)(F(x.s0), F(x.s1), F(x.s2), F(x.s3)); }
#define VEC_UNARY_LANES(F, RT, T, N)                                                               \
  OVL RT##N F(T##N x) {                                                                            \
    RT##N R;                                                                                       \
    LANE_LOOP(N) LANE(RT, R) = F(LANE(T, x));                                                      \
    return R;                                                                                      \
  }
#define VEC_UNARY(F, RT, T)                                                                        \
  VEC_UNARY_SMALL(F, RT, T)                                                                        \
  VEC_UNARY_FLAT4(F, RT, T) VEC_UNARY_LANES(F, RT, T, 8) VEC_UNARY_LANES(F, RT, T, 16)

// Binary function F: RT##N F(T##N, U##N).
#define VEC_BINARY_2(F, RT, T, U)                                                                  \
  OVL RT##2 F(T##2 x, U##2 y) { return (RT##2)(F(x.s0, y.s0), F(x.s1, y.s1)); }
#define VEC_BINARY_3(F, RT, T, U)                                                                  \
  OVL RT##3 F(T##3 x, U##3 y) { return (RT##3)(F(x.s0, y.s0), F(x.s1, y.s1), F(x.s2, y.s2)); }
#define VEC_BINARY_SMALL(F, RT, T, U) VEC_BINARY_2(F, RT, T, U) VEC_BINARY_3(F, RT, T, U)
#define VEC_BINARY_FLAT4(F, RT, T, U)                                                              \
  OVL RT##4 F(T##4 x, U##4 y) {                                                                    \
    return (RT##4)(F(x.s0, y.s0), F(x.s1, y.s1), F(x.s2, y.s2), F(x.s3, y.s3));                    \
  }
#define VEC_BINARY_LANES(F, RT, T, U, N)                                                           \
  OVL RT##N F(T##N x, U##N y) {                                                                    \
    RT##N R;                                                                                       \
    LANE_LOOP(N) LANE(RT, R) = F(LANE(T, x), LANE(U, y));                                          \
    return R;                                                                                      \
  }
#define VEC_BINARY(F, RT, T, U)                                                                    \
  VEC_BINARY_SMALL(F, RT, T, U)                                                                    \
  VEC_BINARY_FLAT4(F, RT, T, U)                                                                    \
  VEC_BINARY_LANES(F, RT, T, U, 8) VEC_BINARY_LANES(F, RT, T, U, 16)

// Binary function whose second argument stays scalar: RT##N F(T##N, U).
#define VEC_BINARY_SCALAR(F, RT, T, U)                                                             \
  OVL RT##2 F(T##2 x, U y) { return F(x, (U##2)(y)); }                                             \
  OVL RT##3 F(T##3 x, U y) { return F(x, (U##3)(y)); }                                             \
  OVL RT##4 F(T##4 x, U y) { return F(x, (U##4)(y)); }                                             \
  OVL RT##8 F(T##8 x, U y) { return F(x, (U##8)(y)); }                                             \
  OVL RT##16 F(T##16 x, U y) { return F(x, (U##16)(y)); }

// Ternary function F: T##N F(T##N, T##N, T##N).
#define VEC_TERNARY_2(F, T)                                                                        \
  OVL T##2 F(T##2 x, T##2 y, T##2 z) { return (T##2)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1)); }
#define VEC_TERNARY_3(F, T)                                                                        \
  OVL T##3 F(T##3 x, T##3 y, T##3 z) {                                                             \
    return (T##3)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1), F(x.s2, y.s2, z.s2));                  \
  }
#define VEC_TERNARY_SMALL(F, T) VEC_TERNARY_2(F, T) VEC_TERNARY_3(F, T)
#define VEC_TERNARY_FLAT4(F, T)                                                                    \
  OVL T##4 F(T##4 x, T##4 y, T##4 z) {                                                             \
    return (T##4)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1), F(x.s2, y.s2, z.s2),                   \
                  F(x.s3, y.s3, z.s3));                                                            \
  }
#define VEC_TERNARY_LANES(F, T, N)                                                                 \
  OVL T##N F(T##N x, T##N y, T##N z) {                                                             \
    T##N R;                                                                                        \
    LANE_LOOP(N) LANE(T, R) = F(LANE(T, x), LANE(T, y), LANE(T, z));                               \
    return R;                                                                                      \
  }
#define VEC_TERNARY(F, T)                                                                          \
  VEC_TERNARY_SMALL(F, T)                                                                          \
  VEC_TERNARY_FLAT4(F, T) VEC_TERNARY_LANES(F, T, 8) VEC_TERNARY_LANES(F, T, 16)

// Math loops over its lanes from 4: a double4 is 256 bits, a vector no
// kernel splits, and a float4 kernel that keeps its vectors (a store under
// a condition on data) then gets the vector forms and the builtin's own
// code widened, as a float8 kernel does, where the vector literal left the
// SLP vectorizer scalar libm calls (atanf) and the builtin's branches
// (cbrt) lane by lane. A float4 kernel that VectorTypeScalarizerPass
// splits has the loops unrolled first. A double3 takes the double4 form,
// its fourth lane a copy of the third: it is 192 bits, never split, and its
// literal of three calls ran 1.5 to 5 times as long as the double4 loop
// (cbrt, lgamma); each lane then computes what a double4's does. A float3
// keeps its literal of scalar calls: split, it vectorizes across
// work-items all the same, and kept whole (the CTS's 3-lane kernels) the
// loop would call libmvec's 4-lane SSE forms, whose worst errors the
// full-mode CTS runs of the scalar calls did not measure (docs/conformance.md).
// Two lanes keep the literal: the loop vectorizer leaves a loop of two
// lanes scalar, where the SLP vectorizer pairs a double2's intrinsic calls
// and LaneCallPackingPass its libm calls. MATH_UNARY_3_<T> and its kin are
// T's 3-lane shape.
#define MATH_UNARY_3_float(F, RT, T) VEC_UNARY_3(F, RT, T)
#define MATH_UNARY_3_double(F, RT, T) OVL RT##3 F(T##3 x) { return F((T##4)(x, x.s2)).s012; }
#define MATH_BINARY_3_float(F, T, U) VEC_BINARY_3(F, T, T, U)
#define MATH_BINARY_3_double(F, T, U)                                                              \
  OVL T##3 F(T##3 x, U##3 y) { return F((T##4)(x, x.s2), (U##4)(y, y.s2)).s012; }
#define MATH_TERNARY_3_float(F, T) VEC_TERNARY_3(F, T)
#define MATH_TERNARY_3_double(F, T)                                                                \
  OVL T##3 F(T##3 x, T##3 y, T##3 z) {                                                             \
    return F((T##4)(x, x.s2), (T##4)(y, y.s2), (T##4)(z, z.s2)).s012;                              \
  }
#define MATH_VEC_UNARY(F, RT, T)                                                                   \
  VEC_UNARY_2(F, RT, T)                                                                            \
  MATH_UNARY_3_##T(F, RT, T)                                                                       \
  VEC_UNARY_LANES(F, RT, T, 4) VEC_UNARY_LANES(F, RT, T, 8) VEC_UNARY_LANES(F, RT, T, 16)
#define MATH_VEC_BINARY(F, T, U)                                                                   \
  VEC_BINARY_2(F, T, T, U)                                                                         \
  MATH_BINARY_3_##T(F, T, U)                                                                       \
  VEC_BINARY_LANES(F, T, T, U, 4) VEC_BINARY_LANES(F, T, T, U, 8) VEC_BINARY_LANES(F, T, T, U, 16)
#define MATH_VEC_TERNARY(F, T)                                                                     \
  VEC_TERNARY_2(F, T)                                                                              \
  MATH_TERNARY_3_##T(F, T)                                                                         \
  VEC_TERNARY_LANES(F, T, 4) VEC_TERNARY_LANES(F, T, 8) VEC_TERNARY_LANES(F, T, 16)

// A float and a double function F with bodies BF and BD, and their vectors:
// one, two or three arguments of the type, or (MATH_INT2) the type and an int.
#define MATH1(F, BF, BD)                                                                           \
  OVL float F(float x) { return BF(x); }                                                           \
  OVL double F(double x) { return BD(x); }                                                         \
  MATH_VEC_UNARY(F, float, float)                                                                  \
  MATH_VEC_UNARY(F, double, double)
#define MATH2(F, BF, BD)                                                                           \
  OVL float F(float x, float y) { return BF(x, y); }                                               \
  OVL double F(double x, double y) { return BD(x, y); }                                            \
  MATH_VEC_BINARY(F, float, float)                                                                 \
  MATH_VEC_BINARY(F, double, double)
#define MATH3(F, BF, BD)                                                                           \
  OVL float F(float x, float y, float z) { return BF(x, y, z); }                                   \
  OVL double F(double x, double y, double z) { return BD(x, y, z); }                               \
  MATH_VEC_TERNARY(F, float)                                                                       \
  MATH_VEC_TERNARY(F, double)
#define MATH_INT2(F, BF, BD)                                                                       \
  OVL float F(float x, int n) { return BF(x, n); }                                                 \
  OVL double F(double x, int n) { return BD(x, n); }                                               \
  MATH_VEC_BINARY(F, float, int)                                                                   \
  MATH_VEC_BINARY(F, double, int)

// Apply M(T) to every integer scalar type, or M(T, UT) with its unsigned twin.
#define FOR_INT_TYPES(M) M(char) M(uchar) M(short) M(ushort) M(int) M(uint) M(long) M(ulong)
#define FOR_INT_TYPES_U(M)                                                                         \
  M(char, uchar) M(uchar, uchar) M(short, ushort) M(ushort, ushort) M(int, uint) M(uint, uint)     \
      M(long, ulong) M(ulong, ulong)
#define FOR_SIGNED_INT_TYPES(M) M(char) M(short) M(int) M(long)
#define FOR_UNSIGNED_INT_TYPES(M) M(uchar) M(ushort) M(uint) M(ulong)
#define FOR_FLOAT_TYPES(M) M(float) M(double)

// Apply M(T) to T and its vectors (for builtins written with vector operators).
#define FOR_WIDTHS(M, T) M(T) M(T##2) M(T##3) M(T##4) M(T##8) M(T##16)

// Clang's __sync_fetch_and_{min,max,umin,umax} take 32-bit operands only
// (a 64-bit pointer would be truncated): 64-bit min/max are CAS loops.
#define CAS_MINMAX(T, AS)                                                                          \
  static INL T casMin(volatile AS T *p, T v) {                                                     \
    T Old = *p;                                                                                    \
    for (;;) {                                                                                     \
      T Prev = __sync_val_compare_and_swap(p, Old, Old < v ? Old : v);                             \
      if (Prev == Old)                                                                             \
        return Old;                                                                                \
      Old = Prev;                                                                                  \
    }                                                                                              \
  }                                                                                                \
  static INL T casMax(volatile AS T *p, T v) {                                                     \
    T Old = *p;                                                                                    \
    for (;;) {                                                                                     \
      T Prev = __sync_val_compare_and_swap(p, Old, Old > v ? Old : v);                             \
      if (Prev == Old)                                                                             \
        return Old;                                                                                \
      Old = Prev;                                                                                  \
    }                                                                                              \
  }
