// The OpenCL C of every weft_bench figure. Each kernel is written the way an
// application would write it (no tricks for one implementation), and each
// produces output the host can check exactly or within a stated tolerance.
#include "Kernels.h"

namespace weft::bench::kernels {

const char *const Launch = R"CLC(
// The smallest kernel whose execution can be observed.
__kernel void empty(__global uint *Out, uint Value) {
  if (get_global_id(0) == 0)
    Out[0] = Value;
}

// One work-group; in an in-order queue N launches add exactly N.
__kernel void tiny(__global uint *Counter) {
  if (get_global_id(0) == 0)
    Counter[0] += 1u;
}
)CLC";

const char *const Stream = R"CLC(
__kernel void streamCopy(__global const float *restrict A, __global float *restrict C) {
  size_t I = get_global_id(0);
  C[I] = A[I];
}

__kernel void streamTriad(__global const float *restrict A, __global const float *restrict B,
                          __global float *restrict C, float S) {
  size_t I = get_global_id(0);
  C[I] = A[I] + S * B[I];
}
)CLC";

const char *const Sgemm = R"CLC(
// C = A * B, all N x N, row-major; one work-item per element of C.
__kernel void sgemmNaive(__global const float *A, __global const float *B, __global float *C,
                         int N) {
  int Col = get_global_id(0), Row = get_global_id(1);
  float Acc = 0.0f;
  for (int K = 0; K < N; ++K)
    Acc += A[Row * N + K] * B[K * N + Col];
  C[Row * N + Col] = Acc;
}

// The naive product as GPU code writes it for any N, rounded-up ranges
// included: each work-item first checks that its element exists.
__kernel void sgemmGuarded(__global const float *A, __global const float *B, __global float *C,
                           int N) {
  int Col = get_global_id(0), Row = get_global_id(1);
  if (Row < N && Col < N) {
    float Acc = 0.0f;
    for (int K = 0; K < N; ++K)
      Acc += A[Row * N + K] * B[K * N + Col];
    C[Row * N + Col] = Acc;
  }
}

// The same product through TILE x TILE tiles of A and B in __local memory:
// each work-item loads one element of each tile, then reads TILE of each.
__kernel void sgemmTiled(__global const float *A, __global const float *B, __global float *C,
                         int N) {
  __local float ATile[TILE][TILE];
  __local float BTile[TILE][TILE];
  int Lx = get_local_id(0), Ly = get_local_id(1);
  int Col = get_global_id(0), Row = get_global_id(1);
  float Acc = 0.0f;
  for (int T = 0; T < N; T += TILE) {
    ATile[Ly][Lx] = A[Row * N + T + Lx];
    BTile[Ly][Lx] = B[(T + Ly) * N + Col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int K = 0; K < TILE; ++K)
      Acc += ATile[Ly][K] * BTile[K][Lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[Row * N + Col] = Acc;
}
)CLC";

const char *const Reduce = R"CLC(
// Each work-item sums PerItem elements strided by the global size, then the
// work-group halves its partial sums in __local memory, one barrier a step.
__kernel void reduceSum(__global const uint *In, __global uint *Partial, __local uint *Scratch,
                        uint PerItem) {
  size_t Gid = get_global_id(0), GlobalSize = get_global_size(0);
  uint Sum = 0;
  for (uint I = 0; I < PerItem; ++I)
    Sum += In[Gid + I * GlobalSize];
  size_t L = get_local_id(0);
  Scratch[L] = Sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t Stride = get_local_size(0) / 2; Stride > 0; Stride >>= 1) {
    if (L < Stride)
      Scratch[L] += Scratch[L + Stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (L == 0)
    Partial[get_group_id(0)] = Scratch[0];
}

// The textbook GPU reduction, as GPU code writes it: one element per
// work-item, then the tree.
__kernel void reduceTree(__global const uint *In, __global uint *Partial, __local uint *Scratch) {
  size_t L = get_local_id(0);
  Scratch[L] = In[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t K = get_local_size(0) / 2; K > 0; K >>= 1) {
    if (L < K)
      Scratch[L] += Scratch[L + K];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (L == 0)
    Partial[get_group_id(0)] = Scratch[0];
}
)CLC";

const char *const SubGroups = R"CLC(
__kernel void subGroupReduce(__global const uint *In, __global uint *Partial) {
  uint Sum = sub_group_reduce_add(In[get_global_id(0)]);
  if (get_sub_group_local_id() == 0)
    atomic_add(&Partial[get_group_id(0)], Sum);
}

// Each sub-group scans its values; the group's first sub-groups' totals,
// from __local memory, are added on.
__kernel void subGroupScan(__global const uint *In, __global uint *Out, __local uint *Totals) {
  uint Mine = sub_group_scan_inclusive_add(In[get_global_id(0)]);
  uint Sg = get_sub_group_id();
  if (get_sub_group_local_id() == get_sub_group_size() - 1)
    Totals[Sg] = Mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint Before = 0;
  for (uint I = 0; I < Sg; ++I)
    Before += Totals[I];
  Out[get_global_id(0)] = Before + Mine;
}

__kernel void workGroupScan(__global const uint *In, __global uint *Out) {
  Out[get_global_id(0)] = work_group_scan_inclusive_add(In[get_global_id(0)]);
}
)CLC";

const char *const Atomics = R"CLC(
// Every work-item adds PerItem times to NumCounters shared counters.
__kernel void atomicContention(__global uint *Counters, uint NumCounters, uint PerItem) {
  uint Gid = get_global_id(0);
  for (uint I = 0; I < PerItem; ++I)
    atomic_add(&Counters[(Gid + I) % NumCounters], (Gid & 7u) + 1u);
}
)CLC";

const char *const Svm = R"CLC(
typedef struct Node {
  uint Value;
  __global struct Node *Next;
} Node;

// Work-item i walks the list that starts at Heads[i], summing its values:
// dependent loads through pointers the host wrote.
__kernel void chase(__global const Node *Heads, __global uint *Sums) {
  uint Sum = 0;
  for (__global const Node *N = &Heads[get_global_id(0)]; N; N = N->Next)
    Sum += N->Value;
  Sums[get_global_id(0)] = Sum;
}

// C11 atomics with the scope that reaches the host: OpenCL C 2.0, or 3.0
// with the feature (the chase builds without either).
#if __OPENCL_C_VERSION__ == 200 || defined(__opencl_c_atomic_scope_all_devices)
// One work-item turns every even value of *Ball into the next odd one, the
// host every odd into the next even: Rounds round trips. A round that waits
// too long sets *Missed, so a device that cannot run beside the host fails
// instead of hanging.
__kernel void ping(volatile __global atomic_int *Ball, __global int *Missed, int Rounds) {
  for (int R = 0; R < Rounds; ++R) {
    long Spin = 0;
    while (atomic_load_explicit(Ball, memory_order_acquire, memory_scope_all_svm_devices) !=
           2 * R)
      if (++Spin == (1L << 31)) {
        *Missed = 1;
        return;
      }
    atomic_store_explicit(Ball, 2 * R + 1, memory_order_release, memory_scope_all_svm_devices);
  }
}
#endif
)CLC";

const char *const Pipe = R"CLC(
// Each work-item writes one packet; a failed write is counted.
__kernel void pipeSend(__global const uint *In, __write_only pipe uint Out,
                       volatile __global uint *Failed) {
  if (write_pipe(Out, &In[get_global_id(0)]) != 0)
    atomic_inc(Failed);
}

// Each work-item reads one packet (0xffffffff where the pipe was empty).
__kernel void pipeReceive(__read_only pipe uint In, __global uint *Out) {
  uint V;
  Out[get_global_id(0)] = read_pipe(In, &V) == 0 ? V : 0xffffffffu;
}
)CLC";

const char *const Enqueue = R"CLC(
// Each work-item enqueues one child of one work-item; the child counts.
__kernel void enqueueParent(volatile __global uint *Count, volatile __global uint *Failed) {
  if (enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                     ^{ atomic_inc(Count); }) != CLK_SUCCESS)
    atomic_inc(Failed);
}
// A tree: each node's work-item counts itself and, above the last level,
// enqueues Fanout children that start when its kernel has ended.
void node(queue_t Q, volatile __global uint *Count, volatile __global uint *Failed, int Level) {
  atomic_inc(Count);
  if (Level > 0 &&
      enqueue_kernel(Q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(8),
                     ^{ node(Q, Count, Failed, Level - 1); }) != CLK_SUCCESS)
    atomic_inc(Failed);
}
__kernel void enqueueTree(volatile __global uint *Count, volatile __global uint *Failed, int Levels) {
  node(get_default_queue(), Count, Failed, Levels);
}
)CLC";

const char *const Image = R"CLC(
// The 5x5 binomial blur, (1 4 6 4 1) / 16 each way, computed separably: the
// five pixels of each of the five rows weighted across, then the five row
// sums weighted down. LOAD(X, Y) gives the pixel at (X, Y), clamped to the
// picture, as a float4 in [0, 1]; the image and buffer kernels differ only
// in it, so that they do the same arithmetic in the same order.
__constant float Binomial5[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};

#define BLUR5(LOAD, X, Y, RESULT)                                             \
  do {                                                                        \
    float4 Sum = (float4)(0.0f);                                              \
    for (int Dy = -2; Dy <= 2; ++Dy) {                                        \
      float4 Row = (float4)(0.0f);                                            \
      for (int Dx = -2; Dx <= 2; ++Dx)                                        \
        Row += Binomial5[Dx + 2] * LOAD((X) + Dx, (Y) + Dy);                  \
      Sum += Binomial5[Dy + 2] * Row;                                         \
    }                                                                         \
    RESULT = Sum;                                                             \
  } while (0)

// From a Width x Height buffer of RGBA bytes into one of float4s: the
// clamping and the normalisation (UNORM_INT8: byte / 255) done by hand.
#define LOAD_BUFFER(PX, PY)                                                   \
  (convert_float4(In[clamp((PY), 0, Height - 1) * Width + clamp((PX), 0, Width - 1)]) * \
   (1.0f / 255.0f))
__kernel void blurBuffer(__global const uchar4 *In, __global float4 *Out, int Width,
                         int Height) {
  int X = get_global_id(0), Y = get_global_id(1);
  float4 V;
  BLUR5(LOAD_BUFFER, X, Y, V);
  Out[Y * Width + X] = V;
}

#if IMAGES
// The same from a CL_RGBA / CL_UNORM_INT8 image into a CL_RGBA / CL_FLOAT
// one: the sampler clamps and normalises.
__constant sampler_t Nearest =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
#define LOAD_IMAGE(PX, PY) read_imagef(In, Nearest, (int2)((PX), (PY)))
__kernel void blurImage(__read_only image2d_t In, __write_only image2d_t Out) {
  int X = get_global_id(0), Y = get_global_id(1);
  float4 V;
  BLUR5(LOAD_IMAGE, X, Y, V);
  write_imagef(Out, (int2)(X, Y), V);
}

// A bilinear resize done by the sampler: output pixel (X, Y) samples the
// input at its own centre, (X + 0.5, Y + 0.5) * Step in normalised
// coordinates, where Step is one over the output's size.
__constant sampler_t Bilinear =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
__kernel void resizeBilinear(__read_only image2d_t In, __write_only image2d_t Out,
                             float2 Step) {
  int X = get_global_id(0), Y = get_global_id(1);
  float2 At = ((float2)((float)X, (float)Y) + 0.5f) * Step;
  write_imagef(Out, (int2)(X, Y), read_imagef(In, Bilinear, At));
}
#endif
)CLC";

const char *const Barriers = R"CLC(
// A ring of WG values in __local memory, iterated Steps times: a 3-point
// stencil, then a permutation (17 is odd, so L * 17 mod WG is one), each
// read and each write separated by a barrier: four barriers an iteration.
__kernel void barrierStencil(__global const uint *In, __global uint *Out, uint Steps) {
  __local uint Ring[WG];
  uint L = get_local_id(0);
  Ring[L] = In[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint S = 0; S < Steps; ++S) {
    uint V = Ring[(L + WG - 1) % WG] + 2u * Ring[L] + Ring[(L + 1) % WG] + S;
    barrier(CLK_LOCAL_MEM_FENCE);
    Ring[L] = V ^ (V >> 7);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint P = Ring[(L * 17u) % WG];
    barrier(CLK_LOCAL_MEM_FENCE);
    Ring[L] = P * 3u + L;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  Out[get_global_id(0)] = Ring[L];
}
)CLC";

const char *const Vectors = R"CLC(
// ITERS dependent multiply-adds per element, written as GPU code writes
// them: one REAL, REAL2, ... or REAL16 per work-item (REAL is float or
// double, set at build time), the work-items sharing the elements.
#if REAL_IS_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#define MAD(T, NAME)                                                          \
  __kernel void NAME(__global const T *In, __global T *Out, REAL A, REAL B) { \
    size_t I = get_global_id(0);                                              \
    T V = In[I];                                                              \
    for (int K = 0; K < ITERS; ++K)                                           \
      V = V * A + B;                                                          \
    Out[I] = V;                                                               \
  }
#define CAT(A, B) A##B
#define MADS(R)                                                               \
  MAD(R, mad1) MAD(CAT(R, 2), mad2) MAD(CAT(R, 4), mad4) MAD(CAT(R, 8), mad8) \
  MAD(CAT(R, 16), mad16)
MADS(REAL)
)CLC";

const char *const Math = R"CLC(
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
)CLC";

const char *const Filter = R"CLC(
// A 1-D FIR filter of TAPS taps whose coefficients sit in __constant
// memory, as signal and image code keeps them. The input buffer holds
// TAPS - 1 more elements than the output.
__kernel void firConstant(__global const float *In, __constant float *Taps,
                          __global float *Out) {
  size_t I = get_global_id(0);
  float Acc = 0.0f;
  for (int K = 0; K < TAPS; ++K)
    Acc += Taps[K] * In[I + K];
  Out[I] = Acc;
}
// The same filter with its length an argument, as code that takes the
// filter from its caller has it.
__kernel void firArgument(__global const float *In, __constant float *Taps,
                          __global float *Out, int NumTaps) {
  size_t I = get_global_id(0);
  float Acc = 0.0f;
  for (int K = 0; K < NumTaps; ++K)
    Acc += Taps[K] * In[I + K];
  Out[I] = Acc;
}
)CLC";

uint32_t hashUint(uint32_t X) {
  X ^= X >> 16;
  X *= 0x7feb352du;
  X ^= X >> 15;
  X *= 0x846ca68bu;
  X ^= X >> 16;
  return X;
}

namespace {

// The build-time program. The salt appears as a comment and as a constant
// that a kernel uses, so that a cache keyed on the text or on the
// preprocessed text misses alike.
const char *const BuildBody = R"CLC(
#define TILE 16
#define HIST_BINS 64
#define PI_F 3.14159265358979f

typedef struct {
  float4 Position; // w: mass
  float4 Velocity; // w: age
} Particle;

typedef struct {
  float Re;
  float Im;
} Complex;

inline float saturate(float X) { return clamp(X, 0.0f, 1.0f); }

inline float smoothStep(float E0, float E1, float X) {
  float T = saturate((X - E0) / (E1 - E0));
  return T * T * (3.0f - 2.0f * T);
}

inline uint hashUint(uint X) {
  X ^= X >> 16;
  X *= 0x7feb352du;
  X ^= X >> 15;
  X *= 0x846ca68bu;
  X ^= X >> 16;
  return X;
}

inline float uintToUnit(uint X) { return (float)(X >> 8) * (1.0f / 16777216.0f); }

float2 boxMuller(uint Seed) {
  float U1 = fmax(uintToUnit(hashUint(Seed)), 1e-7f);
  float U2 = uintToUnit(hashUint(Seed ^ 0x9e3779b9u));
  float R = sqrt(-2.0f * log(U1));
  return (float2)(R * cos(2.0f * PI_F * U2), R * sin(2.0f * PI_F * U2));
}

Complex cmul(Complex A, Complex B) {
  Complex C;
  C.Re = A.Re * B.Re - A.Im * B.Im;
  C.Im = A.Re * B.Im + A.Im * B.Re;
  return C;
}

Complex cadd(Complex A, Complex B) {
  Complex C;
  C.Re = A.Re + B.Re;
  C.Im = A.Im + B.Im;
  return C;
}

inline float cabs2(Complex A) { return A.Re * A.Re + A.Im * A.Im; }

float3 rgbToYuv(float3 C) {
  float Y = 0.299f * C.x + 0.587f * C.y + 0.114f * C.z;
  return (float3)(Y, 0.492f * (C.z - Y), 0.877f * (C.x - Y));
}

float3 yuvToRgb(float3 C) {
  float R = C.x + 1.140f * C.z;
  float G = C.x - 0.395f * C.y - 0.581f * C.z;
  float B = C.x + 2.032f * C.y;
  return (float3)(R, G, B);
}

float latticeValue(int X, int Y) {
  return uintToUnit(hashUint((uint)X * 73856093u ^ (uint)Y * 19349663u));
}

float valueNoise(float2 P) {
  float2 Cell = floor(P);
  float2 F = P - Cell;
  int X = (int)Cell.x, Y = (int)Cell.y;
  float Sx = smoothStep(0.0f, 1.0f, F.x);
  float Sy = smoothStep(0.0f, 1.0f, F.y);
  float A = mix(latticeValue(X, Y), latticeValue(X + 1, Y), Sx);
  float B = mix(latticeValue(X, Y + 1), latticeValue(X + 1, Y + 1), Sx);
  return mix(A, B, Sy);
}

float fbm(float2 P, int Octaves) {
  float Sum = 0.0f, Amplitude = 0.5f;
  for (int I = 0; I < Octaves; ++I) {
    Sum += Amplitude * valueNoise(P);
    P = P * 2.03f + (float2)(17.0f, -5.0f);
    Amplitude *= 0.5f;
  }
  return Sum;
}

float4 gravity(float4 Self, float4 Other, float Softening) {
  float4 D = Other - Self;
  D.w = 0.0f;
  float Dist2 = dot(D, D) + Softening * Softening;
  float Inv = rsqrt(Dist2);
  return D * (Other.w * Inv * Inv * Inv);
}

typedef struct {
  float3 Row0;
  float3 Row1;
  float3 Row2;
} Mat3;

Mat3 rotationZ(float Angle) {
  float C = cos(Angle), S = sin(Angle);
  Mat3 M = {(float3)(C, -S, 0.0f), (float3)(S, C, 0.0f), (float3)(0.0f, 0.0f, 1.0f)};
  return M;
}

inline float3 mulMatVec(Mat3 M, float3 V) {
  return (float3)(dot(M.Row0, V), dot(M.Row1, V), dot(M.Row2, V));
}

Mat3 mulMatMat(Mat3 A, Mat3 B) {
  float3 C0 = (float3)(B.Row0.x, B.Row1.x, B.Row2.x);
  float3 C1 = (float3)(B.Row0.y, B.Row1.y, B.Row2.y);
  float3 C2 = (float3)(B.Row0.z, B.Row1.z, B.Row2.z);
  Mat3 R = {(float3)(dot(A.Row0, C0), dot(A.Row0, C1), dot(A.Row0, C2)),
            (float3)(dot(A.Row1, C0), dot(A.Row1, C1), dot(A.Row1, C2)),
            (float3)(dot(A.Row2, C0), dot(A.Row2, C1), dot(A.Row2, C2))};
  return R;
}

// One leapfrog step of an O(n^2) n-body system, TILE bodies at a time
// through __local memory.
__kernel void integrate(__global Particle *Ps, uint Count, float Dt, float Softening) {
  __local float4 Bodies[TILE];
  uint I = get_global_id(0);
  uint L = get_local_id(0);
  float4 Self = I < Count ? Ps[I].Position : (float4)(0.0f);
  float4 Accel = (float4)(0.0f);
  for (uint Base = 0; Base < Count; Base += TILE) {
    Bodies[L] = Base + L < Count ? Ps[Base + L].Position : (float4)(0.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint J = 0; J < TILE; ++J)
      Accel += gravity(Self, Bodies[J], Softening);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (I < Count) {
    float4 V = Ps[I].Velocity + Accel * Dt;
    V.w += Dt;
    Ps[I].Velocity = V;
    Ps[I].Position = Self + (float4)(V.xyz * Dt, 0.0f);
  }
}

__kernel void mandelbrot(__global uint *Iterations, uint Width, uint Height, float4 View,
                         uint MaxIter) {
  uint X = get_global_id(0), Y = get_global_id(1);
  if (X >= Width || Y >= Height)
    return;
  Complex C = {View.x + View.z * X / Width, View.y + View.w * Y / Height};
  Complex Z = {0.0f, 0.0f};
  uint N = 0;
  while (N < MaxIter && cabs2(Z) < 4.0f) {
    Z = cadd(cmul(Z, Z), C);
    ++N;
  }
  Iterations[Y * Width + X] = N;
}

__kernel void histogram(__global const uchar *Data, uint Count, __global uint *Bins) {
  __local uint Local[HIST_BINS];
  uint L = get_local_id(0);
  for (uint B = L; B < HIST_BINS; B += get_local_size(0))
    Local[B] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint I = get_global_id(0); I < Count; I += get_global_size(0))
    atomic_inc(&Local[Data[I] % HIST_BINS]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint B = L; B < HIST_BINS; B += get_local_size(0))
    atomic_add(&Bins[B], Local[B]);
}

__kernel void blur3x3(__global const float *In, __global float *Out, uint Width, uint Height) {
  int X = get_global_id(0), Y = get_global_id(1);
  if (X >= (int)Width || Y >= (int)Height)
    return;
  const float Weights[3] = {0.25f, 0.5f, 0.25f};
  float Sum = 0.0f;
  for (int Dy = -1; Dy <= 1; ++Dy)
    for (int Dx = -1; Dx <= 1; ++Dx) {
      int Sx = clamp(X + Dx, 0, (int)Width - 1);
      int Sy = clamp(Y + Dy, 0, (int)Height - 1);
      Sum += Weights[Dx + 1] * Weights[Dy + 1] * In[Sy * Width + Sx];
    }
  Out[Y * Width + X] = Sum;
}

__kernel void colorGrade(__global const float4 *In, __global float4 *Out, uint Count, float Gain,
                         float Saturation) {
  uint I = get_global_id(0);
  if (I >= Count)
    return;
  float3 Yuv = rgbToYuv(In[I].xyz);
  Yuv.x = saturate(Yuv.x * Gain);
  Yuv.yz *= Saturation;
  float3 Rgb = clamp(yuvToRgb(Yuv), 0.0f, 1.0f);
  Out[I] = (float4)(Rgb, In[I].w);
}

// An inclusive scan of each work-group's block (Hillis-Steele).
__kernel void prefixSumBlock(__global const uint *In, __global uint *Out, __local uint *Scratch) {
  uint L = get_local_id(0), N = get_local_size(0);
  Scratch[L] = In[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint Offset = 1; Offset < N; Offset <<= 1) {
    uint Add = L >= Offset ? Scratch[L - Offset] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    Scratch[L] += Add;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  Out[get_global_id(0)] = Scratch[L];
}

__kernel void noiseField(__global float *Out, uint Width, float Scale, int Octaves) {
  uint X = get_global_id(0), Y = get_global_id(1);
  float2 P = (float2)(X, Y) * Scale;
  float2 Jitter = boxMuller(Y * Width + X) * 0.01f;
  Out[Y * Width + X] = fbm(P + Jitter, Octaves);
}

__kernel void transposeTiled(__global const float *In, __global float *Out, uint Width,
                             uint Height) {
  __local float Tile[TILE][TILE + 1];
  uint Lx = get_local_id(0), Ly = get_local_id(1);
  uint X = get_group_id(0) * TILE + Lx, Y = get_group_id(1) * TILE + Ly;
  if (X < Width && Y < Height)
    Tile[Ly][Lx] = In[Y * Width + X];
  barrier(CLK_LOCAL_MEM_FENCE);
  X = get_group_id(1) * TILE + Lx;
  Y = get_group_id(0) * TILE + Ly;
  if (X < Height && Y < Width)
    Out[Y * Height + X] = Tile[Lx][Ly];
}

__kernel void rigidTransform(__global float4 *Points, uint Count, float Angle, float4 Shift) {
  uint I = get_global_id(0);
  if (I >= Count)
    return;
  Mat3 M = mulMatMat(rotationZ(Angle), rotationZ(-0.5f * Angle));
  Points[I].xyz = mulMatVec(M, Points[I].xyz) + Shift.xyz;
}

__kernel void sobel(__global const float *In, __global float *Out, uint Width, uint Height) {
  int X = get_global_id(0), Y = get_global_id(1);
  if (X < 1 || Y < 1 || X >= (int)Width - 1 || Y >= (int)Height - 1)
    return;
  float Gx = 0.0f, Gy = 0.0f;
  for (int Dy = -1; Dy <= 1; ++Dy) {
    float Wy = Dy == 0 ? 2.0f : 1.0f;
    Gx += Wy * (In[(Y + Dy) * Width + X + 1] - In[(Y + Dy) * Width + X - 1]);
  }
  for (int Dx = -1; Dx <= 1; ++Dx) {
    float Wx = Dx == 0 ? 2.0f : 1.0f;
    Gy += Wx * (In[(Y + 1) * Width + X + Dx] - In[(Y - 1) * Width + X + Dx]);
  }
  Out[Y * Width + X] = hypot(Gx, Gy);
}

// One compare-exchange pass of a bitonic sort over the whole buffer.
__kernel void bitonicStep(__global float *Keys, uint Stage, uint Pass) {
  uint I = get_global_id(0);
  uint Partner = I ^ (1u << Pass);
  if (Partner <= I)
    return;
  bool Ascending = ((I >> (Stage + 1)) & 1u) == 0;
  float A = Keys[I], B = Keys[Partner];
  if ((A > B) == Ascending) {
    Keys[I] = B;
    Keys[Partner] = A;
  }
}

// What the benchmark runs to check that this very program was built.
__kernel void saltProbe(__global uint *Out, __global const uint *In) {
  uint I = get_global_id(0);
  Out[I] = hashUint(In[I]) ^ BENCH_SALT;
}
)CLC";

} // namespace

std::string buildSource(uint32_t Salt) {
  std::string SaltText = std::to_string(Salt);
  return "// weft_bench build-time program, salt " + SaltText +
         ": a particle and image toolkit.\n#define BENCH_SALT " + SaltText + "u\n" + BuildBody;
}

} // namespace weft::bench::kernels
