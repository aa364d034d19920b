0

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
