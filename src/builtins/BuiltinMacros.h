// Macros shared by the builtin library sources. Builtins are written once
// per scalar type and expanded to the vector widths 2, 3, 4, 8 and 16 by
// splitting a vector into halves (or into scalars for 2 and 3); LLVM's SLP
// vectorizer glues the pieces back together. Math builtins on vectors wider
// than 128 bits loop over their lanes instead (MATH_VEC_*, below). To add a
// builtin: write the scalar form, then one line of VEC_* (or MATH*)
// expansion. Definitions must carry
// OVL so their mangled names match what -fdeclare-opencl-builtins declares.
#pragma once

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define OVL __attribute__((overloadable))
#define INL __attribute__((overloadable, always_inline))

// Unary function F: RT##N F(T##N).
#define VEC_UNARY_SMALL(F, RT, T)                                                                  \
  OVL RT##2 F(T##2 x) { return (RT##2)(F(x.s0), F(x.s1)); }                                        \
  OVL RT##3 F(T##3 x) { return (RT##3)(F(x.s0), F(x.s1), F(x.s2)); }
#define VEC_UNARY_HALVES(F, RT, T, N)                                                              \
  OVL RT##N F(T##N x) { return (RT##N)(F(x.lo), F(x.hi)); }
#define VEC_UNARY(F, RT, T)                                                                        \
  VEC_UNARY_SMALL(F, RT, T)                                                                        \
  VEC_UNARY_HALVES(F, RT, T, 4) VEC_UNARY_HALVES(F, RT, T, 8) VEC_UNARY_HALVES(F, RT, T, 16)

// Binary function F: RT##N F(T##N, U##N).
#define VEC_BINARY_SMALL(F, RT, T, U)                                                              \
  OVL RT##2 F(T##2 x, U##2 y) { return (RT##2)(F(x.s0, y.s0), F(x.s1, y.s1)); }                    \
  OVL RT##3 F(T##3 x, U##3 y) { return (RT##3)(F(x.s0, y.s0), F(x.s1, y.s1), F(x.s2, y.s2)); }
#define VEC_BINARY_HALVES(F, RT, T, U, N)                                                          \
  OVL RT##N F(T##N x, U##N y) { return (RT##N)(F(x.lo, y.lo), F(x.hi, y.hi)); }
#define VEC_BINARY(F, RT, T, U)                                                                    \
  VEC_BINARY_SMALL(F, RT, T, U)                                                                    \
  VEC_BINARY_HALVES(F, RT, T, U, 4)                                                                \
  VEC_BINARY_HALVES(F, RT, T, U, 8) VEC_BINARY_HALVES(F, RT, T, U, 16)

// Binary function whose second argument stays scalar: RT##N F(T##N, U).
#define VEC_BINARY_SCALAR(F, RT, T, U)                                                             \
  OVL RT##2 F(T##2 x, U y) { return F(x, (U##2)(y)); }                                             \
  OVL RT##3 F(T##3 x, U y) { return F(x, (U##3)(y)); }                                             \
  OVL RT##4 F(T##4 x, U y) { return F(x, (U##4)(y)); }                                             \
  OVL RT##8 F(T##8 x, U y) { return F(x, (U##8)(y)); }                                             \
  OVL RT##16 F(T##16 x, U y) { return F(x, (U##16)(y)); }

// Ternary function F: T##N F(T##N, T##N, T##N).
#define VEC_TERNARY_SMALL(F, T)                                                                    \
  OVL T##2 F(T##2 x, T##2 y, T##2 z) { return (T##2)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1)); }  \
  OVL T##3 F(T##3 x, T##3 y, T##3 z) {                                                             \
    return (T##3)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1), F(x.s2, y.s2, z.s2));                  \
  }
#define VEC_TERNARY_HALVES(F, T, N)                                                                \
  OVL T##N F(T##N x, T##N y, T##N z) { return (T##N)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi)); }
#define VEC_TERNARY(F, T)                                                                          \
  VEC_TERNARY_SMALL(F, T)                                                                          \
  VEC_TERNARY_HALVES(F, T, 4) VEC_TERNARY_HALVES(F, T, 8) VEC_TERNARY_HALVES(F, T, 16)

// Math on vectors wider than 128 bits (float8, float16, double4 and up):
// a loop over the lanes, kept rolled, for the kernel pipeline's loop
// vectorizer. Such vectors stay whole in a kernel (the compiler's
// VectorTypeScalarizerPass splits only those of up to 128 bits, whose
// work-items the vectorizer then packs), so the lanes are what there is to
// pack: the vectorizer widens the lane loop with the host's vector forms
// of the libm calls (VectorMath) or the builtin's own code, its branches
// turned into selects. Split into halves instead, the SLP vectorizer found
// trees of two-lane pieces and made two-lane calls, which the back end
// splits into scalar calls again (a float8 sin kernel ran five times as
// long as a float one). The library's own compile does not vectorize a
// loop nobody forced, and unroll(disable) keeps it from unrolling the loop.
// Up to 128 bits (float4, double2) the math forms call the scalar one per
// lane, all lanes in one vector literal: where a kernel keeps its vectors
// (a bounds check), the SLP vectorizer then finds one tree of four calls
// and takes the four-lane vector form (a bounds-checked float4 sin kernel:
// 9.1 -> 4.6 ms, where halves made two-lane calls the back end split);
// where VectorTypeScalarizerPass splits the kernel, it is all the same.
#define VEC_UNARY_FLAT4(F, RT, T)                                                                  \
  OVL RT##4 F(T##4 x) { return (RT##4)(F(x.s0), F(x.s1), F(x.s2), F(x.s3)); }
#define VEC_BINARY_FLAT4(F, RT, T, U)                                                              \
  OVL RT##4 F(T##4 x, U##4 y) {                                                                    \
    return (RT##4)(F(x.s0, y.s0), F(x.s1, y.s1), F(x.s2, y.s2), F(x.s3, y.s3));                    \
  }
#define VEC_TERNARY_FLAT4(F, T)                                                                    \
  OVL T##4 F(T##4 x, T##4 y, T##4 z) {                                                             \
    return (T##4)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1), F(x.s2, y.s2, z.s2),                   \
                  F(x.s3, y.s3, z.s3));                                                            \
  }
#define LANE_LOOP(N) _Pragma("clang loop unroll(disable)") for (int J = 0; J < N; ++J)
#define LANE(T, V) ((__private T *)&(V))[J]
#define VEC_UNARY_LANES(F, RT, T, N)                                                               \
  OVL RT##N F(T##N x) {                                                                            \
    RT##N R;                                                                                       \
    LANE_LOOP(N) LANE(RT, R) = F(LANE(T, x));                                                      \
    return R;                                                                                      \
  }
#define VEC_BINARY_LANES(F, RT, T, U, N)                                                           \
  OVL RT##N F(T##N x, U##N y) {                                                                    \
    RT##N R;                                                                                       \
    LANE_LOOP(N) LANE(RT, R) = F(LANE(T, x), LANE(U, y));                                          \
    return R;                                                                                      \
  }
#define VEC_TERNARY_LANES(F, T, N)                                                                 \
  OVL T##N F(T##N x, T##N y, T##N z) {                                                             \
    T##N R;                                                                                        \
    LANE_LOOP(N) LANE(T, R) = F(LANE(T, x), LANE(T, y), LANE(T, z));                               \
    return R;                                                                                      \
  }
// The float forms: lane by lane up to 4, loops from 8; the double ones:
// lane by lane up to 3, loops from 4.
#define MATH_VEC_UNARY(F, RT)                                                                      \
  VEC_UNARY_SMALL(F, RT, float)                                                                    \
  VEC_UNARY_FLAT4(F, RT, float)                                                                    \
  VEC_UNARY_LANES(F, RT, float, 8) VEC_UNARY_LANES(F, RT, float, 16)
#define MATH_VEC_UNARY_D(F, RT)                                                                    \
  VEC_UNARY_SMALL(F, RT, double)                                                                   \
  VEC_UNARY_LANES(F, RT, double, 4)                                                                \
  VEC_UNARY_LANES(F, RT, double, 8) VEC_UNARY_LANES(F, RT, double, 16)
#define MATH_VEC_BINARY(F, U)                                                                      \
  VEC_BINARY_SMALL(F, float, float, U)                                                             \
  VEC_BINARY_FLAT4(F, float, float, U)                                                             \
  VEC_BINARY_LANES(F, float, float, U, 8) VEC_BINARY_LANES(F, float, float, U, 16)
#define MATH_VEC_BINARY_D(F, U)                                                                    \
  VEC_BINARY_SMALL(F, double, double, U)                                                           \
  VEC_BINARY_LANES(F, double, double, U, 4)                                                        \
  VEC_BINARY_LANES(F, double, double, U, 8) VEC_BINARY_LANES(F, double, double, U, 16)
#define MATH_VEC_TERNARY(F)                                                                        \
  VEC_TERNARY_SMALL(F, float)                                                                      \
  VEC_TERNARY_FLAT4(F, float) VEC_TERNARY_LANES(F, float, 8) VEC_TERNARY_LANES(F, float, 16)
#define MATH_VEC_TERNARY_D(F)                                                                      \
  VEC_TERNARY_SMALL(F, double)                                                                     \
  VEC_TERNARY_LANES(F, double, 4) VEC_TERNARY_LANES(F, double, 8) VEC_TERNARY_LANES(F, double, 16)

// A float and a double function F with bodies BF and BD, and their vectors:
// one, two or three arguments of the type, or (MATH_INT2) the type and an int.
#define MATH1(F, BF, BD)                                                                           \
  OVL float F(float x) { return BF(x); }                                                           \
  OVL double F(double x) { return BD(x); }                                                         \
  MATH_VEC_UNARY(F, float)                                                                         \
  MATH_VEC_UNARY_D(F, double)
#define MATH2(F, BF, BD)                                                                           \
  OVL float F(float x, float y) { return BF(x, y); }                                               \
  OVL double F(double x, double y) { return BD(x, y); }                                            \
  MATH_VEC_BINARY(F, float)                                                                        \
  MATH_VEC_BINARY_D(F, double)
#define MATH3(F, BF, BD)                                                                           \
  OVL float F(float x, float y, float z) { return BF(x, y, z); }                                   \
  OVL double F(double x, double y, double z) { return BD(x, y, z); }                               \
  MATH_VEC_TERNARY(F)                                                                              \
  MATH_VEC_TERNARY_D(F)
#define MATH_INT2(F, BF, BD)                                                                       \
  OVL float F(float x, int n) { return BF(x, n); }                                                 \
  OVL double F(double x, int n) { return BD(x, n); }                                               \
  MATH_VEC_BINARY(F, int)                                                                          \
  MATH_VEC_BINARY_D(F, int)

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
