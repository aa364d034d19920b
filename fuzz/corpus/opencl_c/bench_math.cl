0
#define REAL float

// Math builtins per element, in REAL (float or double, set at build time).
#if REAL_IS_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

// Seven transcendental builtins, on inputs in [0, 4): a compiler that
// vectorises across work-items must call vector forms of them.
#define TRANSCENDENTAL(T, V)                                                  \
  (exp(-V) * sin((T)3 * V) + log1p(V) + atan2(V, (T)1.5) +                   \
   pow(V + (T)1, (T)1.3) + cbrt(V) + tanh(V))
// fmod and remainder, on inputs in [0, 2^20): the reduction of a phase or a
// coordinate to a period. Both divisors are exact in float, so the float
// and double results are the same numbers.
#define REMAINDERS(T, V) (fmod(V, (T)0.75) + remainder(V, (T)1.375))

__kernel void math(__global const REAL *X, __global REAL *Out) {
  size_t I = get_global_id(0);
  REAL V = X[I];
  Out[I] = TRANSCENDENTAL(REAL, V);
}
__kernel void remainders(__global const REAL *X, __global REAL *Out) {
  size_t I = get_global_id(0);
  REAL V = X[I];
  Out[I] = REMAINDERS(REAL, V);
}

// The same on 8-lane vectors, as code written with vector types has them:
// one work-item per 8 elements.
#define CONCAT(A, B) A##B
#define VEC8(T) CONCAT(T, 8)
__kernel void math8(__global const REAL *X, __global REAL *Out) {
  size_t I = get_global_id(0);
  VEC8(REAL) V = vload8(I, X);
  vstore8(TRANSCENDENTAL(VEC8(REAL), V), I, Out);
}
__kernel void remainders8(__global const REAL *X, __global REAL *Out) {
  size_t I = get_global_id(0);
  VEC8(REAL) V = vload8(I, X);
  vstore8(REMAINDERS(VEC8(REAL), V), I, Out);
}

// And on float4s behind a bounds check, as kernels launched over a global
// size rounded up to the work-group size have them (Count: how many).
__kernel void math4(__global const float *X, __global float *Out, uint Count) {
  size_t I = get_global_id(0);
  if (I < Count)
    vstore4(TRANSCENDENTAL(float4, vload4(I, X)), I, Out);
}
__kernel void remainders4(__global const float *X, __global float *Out, uint Count) {
  size_t I = get_global_id(0);
  if (I < Count)
    vstore4(REMAINDERS(float4, vload4(I, X)), I, Out);
}
