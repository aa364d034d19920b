// Builtins that take a pointer: vloadN/vstoreN (OpenCL C 6.15.7), the
// 1.x atomics (Atomics.cl), vload_half/vstore_half (HalfLoadStore.cl) and
// the math functions with a pointer argument (MathPointer.cl). Their
// mangled names carry the address space, so this file is compiled twice:
// as CL1.2, giving the named-address-space overloads (__global, __local,
// __constant, __private) that OpenCL C 1.x and 3.0 programs call, and as
// CL2.0, giving the generic-address-space ones.
// __constant overloads exist in both modes and are emitted only in the first.
// vload/vstore only assume element alignment (the specification's rule).
#include "BuiltinMacros.h"

#define VLOAD_N(T, N, AS, LOADS)                                                                   \
  OVL T##N vload##N(size_t i, const AS T *p) {                                                     \
    const AS T *q = p + i * N;                                                                     \
    return (T##N)LOADS;                                                                            \
  }
#define VLOADS(T, AS)                                                                              \
  VLOAD_N(T, 2, AS, (q[0], q[1]))                                                                  \
  VLOAD_N(T, 3, AS, (q[0], q[1], q[2]))                                                            \
  VLOAD_N(T, 4, AS, (q[0], q[1], q[2], q[3]))                                                      \
  VLOAD_N(T, 8, AS, (q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]))                              \
  VLOAD_N(T, 16, AS,                                                                               \
          (q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[8], q[9], q[10], q[11], q[12], q[13], \
           q[14], q[15]))
#define VSTORE_N(T, N, AS)                                                                         \
  OVL void vstore##N(T##N v, size_t i, AS T *p) {                                                  \
    AS T *q = p + i * N;                                                                           \
    T E[N];                                                                                        \
    *(T##N *)E = v;                                                                                \
    for (int k = 0; k < N; ++k)                                                                    \
      q[k] = E[k];                                                                                 \
  }
#define VSTORE3(T, AS)                                                                             \
  OVL void vstore3(T##3 v, size_t i, AS T *p) {                                                    \
    AS T *q = p + i * 3;                                                                           \
    q[0] = v.s0;                                                                                   \
    q[1] = v.s1;                                                                                   \
    q[2] = v.s2;                                                                                   \
  }
#define VSTORES(T, AS)                                                                             \
  VSTORE_N(T, 2, AS) VSTORE3(T, AS) VSTORE_N(T, 4, AS) VSTORE_N(T, 8, AS) VSTORE_N(T, 16, AS)

#define ALL_TYPES(M, AS)                                                                           \
  M(char, AS) M(uchar, AS) M(short, AS) M(ushort, AS) M(int, AS) M(uint, AS) M(long, AS)          \
      M(ulong, AS) M(float, AS) M(double, AS)

#if __OPENCL_C_VERSION__ >= 200
ALL_TYPES(VLOADS, )
ALL_TYPES(VSTORES, )
#else
ALL_TYPES(VLOADS, __global)
ALL_TYPES(VLOADS, __local)
ALL_TYPES(VLOADS, __constant)
ALL_TYPES(VLOADS, __private)
ALL_TYPES(VSTORES, __global)
ALL_TYPES(VSTORES, __local)
ALL_TYPES(VSTORES, __private)
#endif

#include "Atomics.cl"
#include "HalfLoadStore.cl"
#include "MathPointer.cl"
