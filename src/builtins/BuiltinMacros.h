// Macros shared by the builtin library sources. Builtins are written once
// per scalar type and expanded to the vector widths 2, 3, 4, 8 and 16 by
// splitting a vector into halves (or into scalars for 2 and 3); LLVM's SLP
// vectorizer glues the pieces back together. To add a builtin: write the
// scalar form, then one line of VEC_* expansion. Definitions must carry
// OVL so their mangled names match what -fdeclare-opencl-builtins declares.
#pragma once

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define OVL __attribute__((overloadable))
#define INL __attribute__((overloadable, always_inline))

// Unary function F: RT##N F(T##N).
#define VEC_UNARY(F, RT, T)                                                                        \
  OVL RT##2 F(T##2 x) { return (RT##2)(F(x.s0), F(x.s1)); }                                        \
  OVL RT##3 F(T##3 x) { return (RT##3)(F(x.s0), F(x.s1), F(x.s2)); }                               \
  OVL RT##4 F(T##4 x) { return (RT##4)(F(x.lo), F(x.hi)); }                                        \
  OVL RT##8 F(T##8 x) { return (RT##8)(F(x.lo), F(x.hi)); }                                        \
  OVL RT##16 F(T##16 x) { return (RT##16)(F(x.lo), F(x.hi)); }

// Binary function F: RT##N F(T##N, U##N).
#define VEC_BINARY(F, RT, T, U)                                                                    \
  OVL RT##2 F(T##2 x, U##2 y) { return (RT##2)(F(x.s0, y.s0), F(x.s1, y.s1)); }                    \
  OVL RT##3 F(T##3 x, U##3 y) { return (RT##3)(F(x.s0, y.s0), F(x.s1, y.s1), F(x.s2, y.s2)); }     \
  OVL RT##4 F(T##4 x, U##4 y) { return (RT##4)(F(x.lo, y.lo), F(x.hi, y.hi)); }                    \
  OVL RT##8 F(T##8 x, U##8 y) { return (RT##8)(F(x.lo, y.lo), F(x.hi, y.hi)); }                    \
  OVL RT##16 F(T##16 x, U##16 y) { return (RT##16)(F(x.lo, y.lo), F(x.hi, y.hi)); }

// Binary function whose second argument stays scalar: RT##N F(T##N, U).
#define VEC_BINARY_SCALAR(F, RT, T, U)                                                             \
  OVL RT##2 F(T##2 x, U y) { return F(x, (U##2)(y)); }                                             \
  OVL RT##3 F(T##3 x, U y) { return F(x, (U##3)(y)); }                                             \
  OVL RT##4 F(T##4 x, U y) { return F(x, (U##4)(y)); }                                             \
  OVL RT##8 F(T##8 x, U y) { return F(x, (U##8)(y)); }                                             \
  OVL RT##16 F(T##16 x, U y) { return F(x, (U##16)(y)); }

// Ternary function F: T##N F(T##N, T##N, T##N).
#define VEC_TERNARY(F, T)                                                                          \
  OVL T##2 F(T##2 x, T##2 y, T##2 z) { return (T##2)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1)); }  \
  OVL T##3 F(T##3 x, T##3 y, T##3 z) {                                                             \
    return (T##3)(F(x.s0, y.s0, z.s0), F(x.s1, y.s1, z.s1), F(x.s2, y.s2, z.s2));                  \
  }                                                                                                \
  OVL T##4 F(T##4 x, T##4 y, T##4 z) { return (T##4)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi)); }  \
  OVL T##8 F(T##8 x, T##8 y, T##8 z) { return (T##8)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi)); }  \
  OVL T##16 F(T##16 x, T##16 y, T##16 z) {                                                         \
    return (T##16)(F(x.lo, y.lo, z.lo), F(x.hi, y.hi, z.hi));                                      \
  }

// A float and a double function F with bodies BF and BD, and their vectors:
// one, two or three arguments of the type, or (MATH_INT2) the type and an int.
#define MATH1(F, BF, BD)                                                                           \
  OVL float F(float x) { return BF(x); }                                                           \
  OVL double F(double x) { return BD(x); }                                                         \
  VEC_UNARY(F, float, float)                                                                       \
  VEC_UNARY(F, double, double)
#define MATH2(F, BF, BD)                                                                           \
  OVL float F(float x, float y) { return BF(x, y); }                                               \
  OVL double F(double x, double y) { return BD(x, y); }                                            \
  VEC_BINARY(F, float, float, float)                                                               \
  VEC_BINARY(F, double, double, double)
#define MATH3(F, BF, BD)                                                                           \
  OVL float F(float x, float y, float z) { return BF(x, y, z); }                                   \
  OVL double F(double x, double y, double z) { return BD(x, y, z); }                               \
  VEC_TERNARY(F, float)                                                                            \
  VEC_TERNARY(F, double)
#define MATH_INT2(F, BF, BD)                                                                       \
  OVL float F(float x, int n) { return BF(x, n); }                                                 \
  OVL double F(double x, int n) { return BD(x, n); }                                               \
  VEC_BINARY(F, float, float, int)                                                                 \
  VEC_BINARY(F, double, double, int)

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
