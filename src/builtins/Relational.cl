// Relational builtins (OpenCL C 6.15.6). Comparisons of scalars yield 1/0
// and of vectors -1/0 of the same-width integer type, which is exactly what
// OpenCL's comparison operators produce, so most are written once with
// operators and expanded over widths.
#include "BuiltinMacros.h"

#define REL_OPS(T, R)                                                                              \
  OVL R isequal(T x, T y) { return x == y; }                                                       \
  OVL R isnotequal(T x, T y) { return x != y; }                                                    \
  OVL R isgreater(T x, T y) { return x > y; }                                                      \
  OVL R isgreaterequal(T x, T y) { return x >= y; }                                                \
  OVL R isless(T x, T y) { return x < y; }                                                         \
  OVL R islessequal(T x, T y) { return x <= y; }                                                   \
  OVL R islessgreater(T x, T y) { return (x < y) || (x > y); }                                     \
  OVL R isnan(T x) { return x != x; }                                                              \
  OVL R isinf(T x) { return fabs(x) == (T)INFINITY; }                                              \
  OVL R isfinite(T x) { return fabs(x) < (T)INFINITY; }                                            \
  OVL R isordered(T x, T y) { return (x == x) && (y == y); }                                       \
  OVL R isunordered(T x, T y) { return (x != x) || (y != y); }
#define REL_NORMAL(T, R, MIN)                                                                      \
  OVL R isnormal(T x) { return (fabs(x) >= (T)MIN) && (fabs(x) < (T)INFINITY); }
#define REL_ALL(T, R, MIN) REL_OPS(T, R) REL_NORMAL(T, R, MIN)
REL_ALL(float, int, FLT_MIN)
REL_ALL(float2, int2, FLT_MIN)
REL_ALL(float3, int3, FLT_MIN)
REL_ALL(float4, int4, FLT_MIN)
REL_ALL(float8, int8, FLT_MIN)
REL_ALL(float16, int16, FLT_MIN)
REL_ALL(double, int, DBL_MIN)
REL_ALL(double2, long2, DBL_MIN)
REL_ALL(double3, long3, DBL_MIN)
REL_ALL(double4, long4, DBL_MIN)
REL_ALL(double8, long8, DBL_MIN)
REL_ALL(double16, long16, DBL_MIN)

OVL int signbit(float x) { return as_int(x) < 0; }
OVL int signbit(double x) { return as_long(x) < 0; }
#define SIGNBIT_V(T, I, N)                                                                         \
  OVL I##N signbit(T##N x) { return as_##I##N(x) < (I##N)0; }
#define SIGNBIT_W(T, I)                                                                            \
  SIGNBIT_V(T, I, 2) SIGNBIT_V(T, I, 3) SIGNBIT_V(T, I, 4) SIGNBIT_V(T, I, 8) SIGNBIT_V(T, I, 16)
SIGNBIT_W(float, int)
SIGNBIT_W(double, long)

// any/all: the most significant bit of each component (signed types only).
#define ANY_ALL(T)                                                                                 \
  OVL int any(T x) { return x < 0; }                                                               \
  OVL int all(T x) { return x < 0; }                                                               \
  OVL int any(T##2 x) { return (x.s0 | x.s1) < 0; }                                                \
  OVL int all(T##2 x) { return (x.s0 & x.s1) < 0; }                                                \
  OVL int any(T##3 x) { return (x.s0 | x.s1 | x.s2) < 0; }                                         \
  OVL int all(T##3 x) { return (x.s0 & x.s1 & x.s2) < 0; }                                         \
  OVL int any(T##4 x) { return any(x.lo | x.hi); }                                                 \
  OVL int all(T##4 x) { return all(x.lo & x.hi); }                                                 \
  OVL int any(T##8 x) { return any(x.lo | x.hi); }                                                 \
  OVL int all(T##8 x) { return all(x.lo & x.hi); }                                                 \
  OVL int any(T##16 x) { return any(x.lo | x.hi); }                                                \
  OVL int all(T##16 x) { return all(x.lo & x.hi); }
FOR_SIGNED_INT_TYPES(ANY_ALL)

// bitselect(a, b, c): bits of b where c is 1, of a where c is 0.
#define BITSELECT_INT(T) \
  OVL T bitselect(T a, T b, T c) { return (a & ~c) | (b & c); }
#define BITSELECT_INT_W(T) FOR_WIDTHS(BITSELECT_INT, T)
FOR_INT_TYPES(BITSELECT_INT_W)
#define BITSELECT_FP(T, I)                                                                         \
  OVL T bitselect(T a, T b, T c) { return as_##T(bitselect(as_##I(a), as_##I(b), as_##I(c))); }
#define BITSELECT_FP_W(T, I)                                                                       \
  BITSELECT_FP(T, I) BITSELECT_FP(T##2, I##2) BITSELECT_FP(T##3, I##3) BITSELECT_FP(T##4, I##4)    \
      BITSELECT_FP(T##8, I##8) BITSELECT_FP(T##16, I##16)
BITSELECT_FP_W(float, int)
BITSELECT_FP_W(double, long)

// select(a, b, c): scalar c ? b : a; vector: per component MSB of c.
#define SELECT_N(T, S, U, N)                                                                       \
  OVL T##N select(T##N a, T##N b, S##N c) { return c < (S##N)0 ? b : a; }                          \
  OVL T##N select(T##N a, T##N b, U##N c) { return as_##S##N(c) < (S##N)0 ? b : a; }
#define SELECT(T, S, U)                                                                            \
  OVL T select(T a, T b, S c) { return c ? b : a; }                                                \
  OVL T select(T a, T b, U c) { return c ? b : a; }                                                \
  SELECT_N(T, S, U, 2) SELECT_N(T, S, U, 3) SELECT_N(T, S, U, 4) SELECT_N(T, S, U, 8)              \
      SELECT_N(T, S, U, 16)
SELECT(char, char, uchar)
SELECT(uchar, char, uchar)
SELECT(short, short, ushort)
SELECT(ushort, short, ushort)
SELECT(int, int, uint)
SELECT(uint, int, uint)
SELECT(long, long, ulong)
SELECT(ulong, long, ulong)
SELECT(float, int, uint)
SELECT(double, long, ulong)
