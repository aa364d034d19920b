// Kernels without barriers: work-item functions in 1, 2 and 3 dimensions
// with global offsets and non-uniform edge groups, by-value vector and
// struct arguments, static __local variables and __local arguments.
#include "KernelRunner.h"
#include "MathReference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace weft::compiler::test {

TEST(WorkItemTest, GlobalIdOneDimension) {
  Program P;
  ASSERT_TRUE(P.build("kernel void k(global int *out) { out[get_global_id(0)] = get_global_id(0) * 2; }"));
  std::vector<int> Out(100, -1);
  NDRange R;
  R.Global[0] = 100;
  R.Local[0] = 16; // non-uniform: last group has 4
  ASSERT_TRUE(P.run("k", R, {Arg::pointer(Out.data())}));
  for (int I = 0; I < 100; ++I)
    EXPECT_EQ(Out[I], 2 * I) << I;
}

// A long chain on a wide vector type is split into components that the
// vectorizer packs work-items into (VectorTypeScalarizerPass,
// ChainInterleavePass), and its loads and stores of whole vectors become
// loads and stores of registers and a transposition
// (ComponentTransposePass). Every component must come back in its place:
// each work-item's vector, reversed, plus the components' own indices, in
// float and double of 2 to 16 components, groups of 64 and 7 (vector body
// and scalar remainder), and the interleave factors the chains get.
TEST(WorkItemTest, WideVectorChainsKeepEveryComponentInPlace) {
  std::string Source =
      "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
      "#define CHAIN(T, NAME, REVERSED, IOTA)                             \\\n"
      "  kernel void NAME(global const T *in, global T *out, float a, float b) { \\\n"
      "    size_t i = get_global_id(0);                                   \\\n"
      "    T v = in[i];                                                   \\\n"
      "    for (int k = 0; k < 16; ++k)                                   \\\n"
      "      v = v * a + b;                                               \\\n"
      "    out[i] = v.REVERSED + (T)IOTA;                                 \\\n"
      "  }\n";
  const char *Reversed[] = {"s10", "s3210", "s76543210", "sfedcba9876543210"};
  const char *Iota[] = {"(0, 1)", "(0, 1, 2, 3)", "(0, 1, 2, 3, 4, 5, 6, 7)",
                        "(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)"};
  for (const char *Real : {"float", "double"})
    for (unsigned W = 2, J = 0; W <= 16; W *= 2, ++J)
      Source += std::string("CHAIN(") + Real + std::to_string(W) + ", chain_" + Real +
                std::to_string(W) + ", " + Reversed[J] + ", " + Iota[J] + ")\n";
  Program P;
  ASSERT_TRUE(P.build(Source));
  const size_t N = 1000;
  // Small integers, halved 16 times and offset: exact in float and double,
  // fused or not.
  auto chain = [](double X) {
    for (int K = 0; K < 16; ++K)
      X = X * 0.5 + 0.25;
    return X;
  };
  for (size_t Local : {64, 7})
    for (unsigned W = 2; W <= 16; W *= 2) {
      Buffer<float> FIn(W * N), FOut(W * N);
      Buffer<double> DIn(W * N), DOut(W * N);
      for (size_t E = 0; E < W * N; ++E)
        FIn[E] = static_cast<float>(DIn[E] = static_cast<double>(E % 61) - 30);
      const std::string FName = "chain_float" + std::to_string(W),
                        DName = "chain_double" + std::to_string(W);
      ASSERT_TRUE(P.run(FName, range1(N, Local),
                        {Arg::pointer(FIn.data()), Arg::pointer(FOut.data()), Arg::value(0.5f),
                         Arg::value(0.25f)}));
      ASSERT_TRUE(P.run(DName, range1(N, Local),
                        {Arg::pointer(DIn.data()), Arg::pointer(DOut.data()), Arg::value(0.5f),
                         Arg::value(0.25f)}));
      for (size_t I = 0; I < N; ++I)
        for (unsigned C = 0; C < W; ++C) {
          const double Want = chain(DIn[I * W + (W - 1 - C)]) + C;
          ASSERT_EQ(FOut[I * W + C], static_cast<float>(Want))
              << FName << " work-item " << I << " component " << C << ", groups of " << Local;
          ASSERT_EQ(DOut[I * W + C], Want)
              << DName << " work-item " << I << " component " << C << ", groups of " << Local;
        }
    }
}

} // namespace weft::compiler::test

namespace weft::compiler::test {

TEST(WorkItemTest, ThreeDimensionsWithOffsets) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global ulong *out) {
      size_t gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
      size_t i = get_global_linear_id();
      out[i * 8 + 0] = gx; out[i * 8 + 1] = gy; out[i * 8 + 2] = gz;
      out[i * 8 + 3] = get_local_linear_id();
      out[i * 8 + 4] = get_group_id(2) * 100 + get_group_id(1) * 10 + get_group_id(0);
      out[i * 8 + 5] = get_work_dim();
      out[i * 8 + 6] = get_num_groups(0) * 100 + get_local_size(1) * 10 + get_global_size(2);
      out[i * 8 + 7] = get_global_offset(1) + get_local_id(3) + get_global_size(3);
    })", "-cl-std=CL2.0"));
  NDRange R;
  R.Dims = 3;
  R.Global = {5, 4, 3};
  R.Local = {2, 2, 3};
  R.Offset = {10, 20, 30};
  std::vector<uint64_t> Out(5 * 4 * 3 * 8, ~0ull);
  ASSERT_TRUE(P.run("k", R, {Arg::pointer(Out.data())}));
  for (uint64_t Z = 0; Z < 3; ++Z)
    for (uint64_t Y = 0; Y < 4; ++Y)
      for (uint64_t X = 0; X < 5; ++X) {
        uint64_t I = (Z * 4 + Y) * 5 + X;
        const uint64_t *O = &Out[I * 8];
        EXPECT_EQ(O[0], X + 10);
        EXPECT_EQ(O[1], Y + 20);
        EXPECT_EQ(O[2], Z + 30);
        uint64_t LocalSizeX = X >= 4 ? 1 : 2; // non-uniform edge in x
        EXPECT_EQ(O[3], (Z * 2 + Y % 2) * LocalSizeX + X % 2) << X << Y << Z;
        EXPECT_EQ(O[4], Z / 3 * 100 + Y / 2 * 10 + X / 2);
        EXPECT_EQ(O[5], 3u);
        EXPECT_EQ(O[6], 3u * 100 + 2 * 10 + 3);
        EXPECT_EQ(O[7], 20u + 0 + 1);
      }
}

TEST(WorkItemTest, VariableDimensionArgument) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global uint *out, uint d) {
      out[get_global_id(0) + get_global_id(1) * get_global_size(0)] =
          get_global_id(d) * 1000 + get_local_size(d) * 10 + get_local_id(d);
    })"));
  NDRange R;
  R.Dims = 2;
  R.Global = {4, 2, 1};
  R.Local = {2, 2, 1};
  for (uint32_t D : {0u, 1u, 5u}) {
    std::vector<uint32_t> Out(8, ~0u);
    ASSERT_TRUE(P.run("k", R, {Arg::pointer(Out.data()), Arg::value(D)}));
    for (uint32_t Y = 0; Y < 2; ++Y)
      for (uint32_t X = 0; X < 4; ++X) {
        uint32_t G = D == 0 ? X : D == 1 ? Y : 0, L = D == 0 ? X % 2 : D == 1 ? Y : 0;
        uint32_t S = D < 2 ? 2 : 1;
        EXPECT_EQ(Out[Y * 4 + X], G * 1000 + S * 10 + L) << D;
      }
  }
}

TEST(WorkItemTest, ByValueVectorAndStructArguments) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    typedef struct { int a; float b; char c; long d; } S;
    kernel void k(global float *out, float4 v, S s, char c, float3 w) {
      size_t i = get_global_id(0);
      s.a += (int)i; // each work-item changes its own copy
      out[i * 4 + 0] = v.x + v.y + v.z + v.w;
      out[i * 4 + 1] = s.a + s.b + s.c + s.d;
      out[i * 4 + 2] = c;
      out[i * 4 + 3] = w.x * w.y * w.z;
    })"));
  const rt::KernelDesc *D = P.kernel("k");
  ASSERT_NE(D, nullptr);
  ASSERT_EQ(D->Args.size(), 5u);
  EXPECT_EQ(D->Args[0].Kind, rt::ArgKind::GlobalPointer);
  EXPECT_EQ(D->Args[0].Size, sizeof(void *));
  EXPECT_EQ(D->Args[1].Size, 16u);
  EXPECT_EQ(D->Args[2].Kind, rt::ArgKind::ByValue);
  EXPECT_EQ(D->Args[2].Size, 24u);
  EXPECT_EQ(D->Args[3].Size, 1u);
  EXPECT_EQ(D->Args[4].Size, 16u);
  struct S {
    int32_t A;
    float B;
    char C;
    int64_t D;
  } Sv{1, 2.5f, 3, 4};
  float V[4] = {1, 2, 3, 4}, W[4] = {2, 3, 4, 0};
  std::vector<float> Out(4 * 8, -1);
  NDRange R;
  R.Global[0] = 8;
  R.Local[0] = 4;
  ASSERT_TRUE(P.run("k", R, {Arg::pointer(Out.data()), Arg::value(V), Arg::value(Sv), Arg::value(char(-7)), Arg::value(W)}));
  for (int I = 0; I < 8; ++I) {
    EXPECT_EQ(Out[I * 4 + 0], 10.0f);
    EXPECT_EQ(Out[I * 4 + 1], 1 + I + 2.5f + 3 + 4);
    EXPECT_EQ(Out[I * 4 + 2], -7.0f);
    EXPECT_EQ(Out[I * 4 + 3], 24.0f);
  }
  EXPECT_EQ(Sv.A, 1); // the caller's bytes are untouched
}

TEST(WorkItemTest, StaticLocalAndLocalArgument) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global int *out, local int *scratch) {
      local int tile[16];
      local double wide;
      size_t l = get_local_id(0);
      tile[l] = (int)get_global_id(0);
      scratch[l] = 100;
      if (l == 0) wide = 0.5;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = tile[get_local_size(0) - 1 - l] + scratch[l] + (int)(wide * 2);
    })"));
  const rt::KernelDesc *D = P.kernel("k");
  ASSERT_NE(D, nullptr);
  EXPECT_GE(D->StaticLocalSize, 16 * 4 + 8u);
  EXPECT_EQ(D->Args[1].Kind, rt::ArgKind::LocalPointer);
  EXPECT_EQ(D->Args[1].Size, 0u);
  std::vector<int> Out(32, -1);
  NDRange R;
  R.Global[0] = 32;
  R.Local[0] = 16;
  ASSERT_TRUE(P.run("k", R, {Arg::pointer(Out.data()), Arg::local(16 * sizeof(int))}));
  for (int I = 0; I < 32; ++I)
    EXPECT_EQ(Out[I], (I / 16) * 16 + 15 - I % 16 + 100 + 1) << I;
}

} // namespace weft::compiler::test

namespace weft::compiler::test {

// Sub-groups are whole work-groups (src/builtins/SubGroups.cl): in a 2-D
// range with smaller edge groups, each work-item sees its group's actual
// and enqueued sizes, and the collectives combine its group in linear-id
// order.
// Sub-groups are the group's work-items in linear-id order, Width at a
// time (the kernel's SubGroupSize), the last one the rest: in groups
// smaller than a sub-group, in groups whose rows (20) are not a multiple
// of Width, so sub-groups run across rows, and in edge groups.
TEST(WorkItemTest, SubGroupsAreRunsOfWidthWorkItems) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global uint *out) {
      size_t i = get_global_linear_id();
      uint l = get_sub_group_local_id();
      out[i * 6 + 0] = get_sub_group_size();
      out[i * 6 + 1] = get_max_sub_group_size();
      out[i * 6 + 2] = get_num_sub_groups() * 1000 + get_sub_group_id();
      out[i * 6 + 3] = l;
      out[i * 6 + 4] = sub_group_scan_exclusive_add(l + 1);
      out[i * 6 + 5] = sub_group_broadcast(l * 3, 1);
    })",
                      "-cl-std=CL3.0"));
  const uint32_t Width = P.kernel("k")->SubGroupSize;
  ASSERT_TRUE(Width == 4 || Width == 8 || Width == 16) << Width;
  for (auto [Global, Local] :
       {std::pair<std::array<size_t, 3>, std::array<size_t, 3>>{{5, 3, 1}, {2, 2, 1}},
        {{50, 7, 1}, {20, 3, 1}}}) {
    NDRange R;
    R.Dims = 2;
    R.Global = Global;
    R.Local = Local;
    const uint32_t GX = uint32_t(Global[0]), GY = uint32_t(Global[1]);
    const uint32_t LX = uint32_t(Local[0]), LY = uint32_t(Local[1]);
    std::vector<uint32_t> Out(GX * GY * 6, ~0u);
    ASSERT_TRUE(P.run("k", R, {Arg::pointer(Out.data())}));
    for (uint32_t Y = 0; Y < GY; ++Y)
      for (uint32_t X = 0; X < GX; ++X) {
        const uint32_t *O = &Out[(Y * GX + X) * 6];
        const uint32_t SizeX = std::min(LX, GX - X / LX * LX),
                       SizeY = std::min(LY, GY - Y / LY * LY);
        const uint32_t Items = SizeX * SizeY, Lin = (Y % LY) * SizeX + X % LX;
        const uint32_t First = Lin / Width * Width, Size = std::min(Width, Items - First);
        const uint32_t L = Lin - First;
        SCOPED_TRACE(std::to_string(X) + "," + std::to_string(Y) + " local " + std::to_string(LX));
        EXPECT_EQ(O[0], Size);
        EXPECT_EQ(O[1], std::min(Width, LX * LY));
        EXPECT_EQ(O[2], (Items + Width - 1) / Width * 1000 + Lin / Width);
        EXPECT_EQ(O[3], L);
        EXPECT_EQ(O[4], L * (L + 1) / 2);
        if (Size > 1) {
          EXPECT_EQ(O[5], 3u);
        }
      }
  }
}

// Straight-line kernels on vector types are split into scalars so that
// their work-items vectorize (VectorTypeScalarizerPass). Groups of 40 and 7
// run the vector body, its epilogue and the scalar remainder; every element
// must match the host, swizzles, vload3/vstore3, conversions and saturating
// arithmetic included.
TEST(WorkItemTest, VectorTypedKernelsComputeElementByElement) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global const float4 *f, global float4 *fo, global const uchar4 *u,
                  global float4 *uo, global int *i3, global short2 *s) {
      size_t i = get_global_id(0);
      float4 v = f[i];
      fo[i] = v.wzyx * 2.0f + (float4)(v.x, 1.0f, v.y, -v.z);
      uo[i] = convert_float4(u[i]) * 0.5f + convert_float4(u[i].yxwz);
      vstore3(vload3(i, i3) * 3 - (int3)(1, 2, (int)i), i, i3);
      s[i] = add_sat(s[i], (short2)(30000, -30000));
    })"));
  for (size_t Local : {40, 7}) {
    const size_t N = 1000;
    std::vector<float> F(4 * N), FO(4 * N), UO(4 * N);
    std::vector<uint8_t> U(4 * N);
    std::vector<int32_t> I3(3 * N), I3In;
    std::vector<int16_t> S(2 * N), SIn;
    for (size_t I = 0; I < 4 * N; ++I) {
      F[I] = 0.25f * static_cast<float>(I % 97) - 7.0f;
      U[I] = static_cast<uint8_t>(I * 37);
    }
    for (size_t I = 0; I < 3 * N; ++I)
      I3[I] = static_cast<int32_t>(I * 7) - 5000;
    for (size_t I = 0; I < 2 * N; ++I)
      S[I] = static_cast<int16_t>(I * 101);
    I3In = I3;
    SIn = S;
    ASSERT_TRUE(P.run("k", range1(N, Local),
                      {Arg::pointer(F.data()), Arg::pointer(FO.data()), Arg::pointer(U.data()),
                       Arg::pointer(UO.data()), Arg::pointer(I3.data()), Arg::pointer(S.data())}));
    for (size_t I = 0; I < N; ++I) {
      const float *V = &F[4 * I];
      const float WantF[4] = {V[3] * 2 + V[0], V[2] * 2 + 1, V[1] * 2 + V[1], V[0] * 2 - V[2]};
      const uint8_t *W = &U[4 * I];
      const float WantU[4] = {W[0] * 0.5f + W[1], W[1] * 0.5f + W[0], W[2] * 0.5f + W[3],
                              W[3] * 0.5f + W[2]};
      for (int C = 0; C < 4; ++C) {
        ASSERT_EQ(FO[4 * I + C], WantF[C]) << "float4 element " << C << " of " << I;
        ASSERT_EQ(UO[4 * I + C], WantU[C]) << "uchar4 element " << C << " of " << I;
      }
      const int32_t WantI[3] = {I3In[3 * I] * 3 - 1, I3In[3 * I + 1] * 3 - 2,
                                I3In[3 * I + 2] * 3 - static_cast<int32_t>(I)};
      for (int C = 0; C < 3; ++C)
        ASSERT_EQ(I3[3 * I + C], WantI[C]) << "int3 element " << C << " of " << I;
      ASSERT_EQ(S[2 * I], std::min(SIn[2 * I] + 30000, 32767)) << I;
      ASSERT_EQ(S[2 * I + 1], std::max(SIn[2 * I + 1] - 30000, -32768)) << I;
    }
  }
}

} // namespace weft::compiler::test

namespace weft::compiler::test {

// Kernels that read __constant or __local memory, or reach __global memory
// through generic pointers, vectorize (AddressSpaceAA, InferAddressSpaces;
// VectorizeTest.NamedAddressSpacesVectorize). Their results must not move:
// an in-place update through a generic helper whose two pointers are the
// same buffer, a __constant argument that is the same buffer as a __global
// one the kernel reads, and __local slots written and read back, in groups
// of 40 and 7 (vector body, epilogue, scalar remainder).
TEST(WorkItemTest, NamedAndGenericAddressSpacesComputeElementByElement) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    void scale(float *y, const float *x, size_t i, float s) { y[i] = x[i] * s + 1.0f; }
    kernel void through_generic(global float *a, global float *b) {
      size_t i = get_global_id(0);
      scale(a, a, i, 3.0f);
      scale(b, a, i, 0.5f);
    }
    kernel void constant_and_local(constant float *c, global const float *g,
                                   global float *out, local float *l) {
      size_t i = get_global_id(0), j = get_local_id(0);
      l[j] = g[i] - c[i];
      out[i] = c[(i * 7) % 64] + l[j] * 2.0f + g[i];
    })", "-cl-std=CL2.0"));
  for (size_t Local : {40, 7}) {
    const size_t N = 1000;
    std::vector<float> A(N), B(N, -1.0f), G(N), Out(N, -1.0f);
    for (size_t I = 0; I < N; ++I) {
      A[I] = static_cast<float>(I % 31) - 15.0f;
      G[I] = 0.5f * static_cast<float>(I % 13);
    }
    const std::vector<float> AIn = A;
    ASSERT_TRUE(P.run("through_generic", range1(N, Local),
                      {Arg::pointer(A.data()), Arg::pointer(B.data())}));
    for (size_t I = 0; I < N; ++I) {
      ASSERT_EQ(A[I], AIn[I] * 3.0f + 1.0f) << I;
      ASSERT_EQ(B[I], A[I] * 0.5f + 1.0f) << I;
    }
    std::vector<float> C(N);
    for (size_t I = 0; I < N; ++I)
      C[I] = 0.25f * static_cast<float>(I % 17);
    // Then c and g are one buffer, which the kernel only reads.
    for (float *Constant : {C.data(), G.data()}) {
      ASSERT_TRUE(P.run("constant_and_local", range1(N, Local),
                        {Arg::pointer(Constant), Arg::pointer(G.data()), Arg::pointer(Out.data()),
                         Arg::local(Local * sizeof(float))}));
      for (size_t I = 0; I < N; ++I)
        ASSERT_EQ(Out[I], Constant[(I * 7) % 64] + (G[I] - Constant[I]) * 2.0f + G[I]) << I;
    }
  }
}

namespace {

// Whether a lane of a vector kernel matches the scalar kernel's element: the
// same zero, subnormal, infinity or NaN, else within 4 ulp (a vectorized
// call to a vector library's sin may differ from libm's in the last bit).
// Integers must be equal.
template <typename T> bool closeToScalar(T A, T B) {
  if constexpr (std::is_integral_v<T>)
    return A == B;
  else
    return sameValue(A, B) || (std::isnormal(A) && std::isnormal(B) && ulpDistance(A, B) <= 4);
}

// OUT3(NAME, T, E0, E1, E2): a kernel writing three results of v = x[i],
// of type T, to o0, o1 and o2 (what expectLanesMatchScalar runs).
const std::string Out3 = R"(
  #pragma OPENCL EXTENSION cl_khr_fp64 : enable
  #define OUT3(NAME, T, E0, E1, E2)                                                     \
    kernel void NAME(global const T *x, global T *o0, global T *o1, global T *o2) {    \
      size_t i = get_global_id(0);                                                     \
      T v = x[i];                                                                      \
      o0[i] = E0;                                                                      \
      o1[i] = E1;                                                                      \
      o2[i] = E2;                                                                      \
    }
  // The same with its stores under a condition on the data that always
  // holds (no input is 12345) but that the compiler cannot see through: a
  // kernel that keeps its vectors. (A bounds check on i would not do:
  // BoundsCheckVersioningPass gives the loop a copy without it.)
  #define OUT3G(NAME, T, E0, E1, E2)                                                    \
    kernel void NAME(global const T *x, global T *o0, global T *o1, global T *o2) {    \
      size_t i = get_global_id(0);                                                     \
      T v = x[i];                                                                      \
      if (v.s0 != 12345) {                                                             \
        o0[i] = E0;                                                                    \
        o1[i] = E1;                                                                    \
        o2[i] = E2;                                                                    \
      }                                                                                \
    }
)";

// Runs the vector kernel over Lanes-element work-items and the scalar one
// over elements, with In and Outputs result buffers, in groups of 40 and 7
// (vector body, epilogue, scalar remainder); compares the results. A
// 3-lane vector takes 4 elements, the fourth not compared.
template <typename T>
void expectLanesMatchScalar(Program &P, const std::string &Vector, const std::string &Scalar,
                            Buffer<T> &In, size_t Lanes, size_t Outputs) {
  const size_t Stride = Lanes == 3 ? 4 : Lanes;
  for (size_t Local : {40, 7}) {
    std::vector<Buffer<T>> OV(Outputs, Buffer<T>(In.size())), OS = OV;
    std::vector<Arg> ArgsV = {Arg::pointer(In.data())}, ArgsS = ArgsV;
    for (size_t R = 0; R < Outputs; ++R) {
      ArgsV.push_back(Arg::pointer(OV[R].data()));
      ArgsS.push_back(Arg::pointer(OS[R].data()));
    }
    ASSERT_TRUE(P.run(Vector.c_str(), range1(In.size() / Stride, Local), ArgsV));
    ASSERT_TRUE(P.run(Scalar.c_str(), range1(In.size(), Local), ArgsS));
    for (size_t R = 0; R < Outputs; ++R)
      for (size_t I = 0; I < In.size(); ++I) {
        if (I % Stride < Lanes) {
          ASSERT_TRUE(closeToScalar(OV[R][I], OS[R][I]))
              << Vector << " result " << R << ", element " << I << " of " << In[I] << ": "
              << OV[R][I] << ", scalar " << OS[R][I];
        }
      }
  }
}

} // namespace

// Vector-typed kernels whose loop branches without touching memory (an if
// in the kernel, or inside cbrt, sinpi, tanpi, cospi, double exp and expm1)
// are split too. Each lane must be what the scalar kernel computes for its
// element (closeToScalar), split or not. (Few buffers a kernel: with many, the
// vectorizer's run-time alias checks grow too many and it declines.)
TEST(WorkItemTest, BranchingVectorTypedKernelsMatchScalarOnes) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    #pragma OPENCL EXTENSION cl_khr_fp64 : enable
    float pick(float x) { return x > 0.5f ? x * 3.0f + 1.0f : -x; }
    kernel void if4(global const float4 *f, global float4 *o) {
      size_t i = get_global_id(0);
      float4 v = f[i], r = -v;
      if (v.x > 0.5f)
        r = cbrt(v) * 3.0f + 1.0f;
      o[i] = (float4)(pick(v.y), r.xzw);
    }
    kernel void if1(global const float *f, global float *o) {
      size_t i = get_global_id(0), e = i % 4;
      float v = f[i + (e == 0)], x = f[i - e];
      float y = e == 1 ? x : v;
      o[i] = e == 0 ? pick(v) : x > 0.5f ? cbrt(y) * 3.0f + 1.0f : -y;
    }
    // Each of three functions of x into its own buffer, on type T.
    #define MATH3(NAME, T, F0, F1, F2)                                                 \
      kernel void NAME(global const T *x, global T *o0, global T *o1, global T *o2) {  \
        size_t i = get_global_id(0);                                                   \
        o0[i] = F0(x[i]);                                                              \
        o1[i] = F1(x[i]);                                                              \
        o2[i] = F2(x[i]);                                                              \
      }
    MATH3(math4, float4, cbrt, sinpi, tanpi)
    MATH3(math1, float, cbrt, sinpi, tanpi)
    MATH3(math2, double2, exp, expm1, cospi)
    MATH3(mathd, double, exp, expm1, cospi))"));
  const size_t N = 1000;
  Buffer<float> F(4 * N);
  Buffer<double> D(2 * N);
  const float SpecialF[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-40f, -0.5f, 2.5f, 1e30f};
  const double SpecialD[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-310, 710.0, -746.0, 0.5};
  for (size_t I = 0; I < 4 * N; ++I)
    F[I] = I % 13 == 0 ? SpecialF[I / 13 % 9] : 0.37f * static_cast<float>(I % 211) - 40.0f;
  for (size_t I = 0; I < 2 * N; ++I)
    D[I] = I % 11 == 0 ? SpecialD[I / 11 % 9] : 0.73 * static_cast<double>(I % 307) - 100.0;
  expectLanesMatchScalar(P, "if4", "if1", F, 4, 1);
  expectLanesMatchScalar(P, "math4", "math1", F, 4, 3);
  expectLanesMatchScalar(P, "math2", "mathd", D, 2, 3);
}

// BoundsCheckVersioningPass runs a work-item loop without its bounds check
// where the check holds for the group's first and last work-items. Each
// form of check, on groups the bound cuts, leaves, misses or covers, with
// global offsets and a non-uniform last group, must write exactly the
// elements it guards: size_t and int indices, an int index that wraps
// inside a group (a conversion, not an overflow: the edge loop must take
// that group), a falling difference, an early return, a window, two
// dimensions, and checks in the regions between a barrier.
TEST(WorkItemTest, BoundsCheckedKernelsWriteExactlyWhatTheyGuard) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    #pragma OPENCL EXTENSION cl_khr_fp64 : enable
    #define K(NAME, T, CHECK)                                                        \
      kernel void NAME(global const T *a, global T *b, int n, int m) {               \
        size_t g = get_global_id(0), k = g - get_global_offset(0);                  \
        int i = (int)g;                                                              \
        CHECK b[k] = a[k] * 2 + 1;                                                   \
      }
    K(below, float2, if (g < n))
    K(int_below, double2, if (i < n))
    K(falling, float4, if (n - i > 0))
    K(early_return, float3, if (g >= n) return;)
    K(window, float, if (i >= m && i < n))
    kernel void plane(global const float2 *a, global float2 *b, int w, int h) {
      size_t x = get_global_id(0), y = get_global_id(1);
      if (x < w && y < h)
        b[y * 64 + x] = a[y * 64 + x] * 2 + 1;
    }
    // Checks in the regions between barriers: the group's items reversed.
    kernel void staged(global const float4 *a, global float4 *b, int n) {
      local float4 t[32];
      size_t g = get_global_id(0), l = get_local_id(0), k = g - get_global_offset(0);
      if (g < n)
        t[l] = a[k];
      barrier(CLK_LOCAL_MEM_FENCE);
      size_t r = get_local_size(0) - 1 - l;
      if (g < n)
        b[k] = g - l + r < n ? t[r] * 2 + 1 : -1;
    })"));
  const size_t Items = 200;
  struct Run {
    const char *Kernel;
    size_t Lanes; // elements of a and b per work-item
    bool Double;
    size_t Offset;
    int N, M;
  };
  const size_t Wrap = (size_t{1} << 31) - 40; // int i wraps at item 40
  const Run Runs[] = {{"below", 2, false, 0, 100, 0},       {"below", 2, false, 0, 128, 0},
                      {"below", 2, false, 5, 0, 0},         {"below", 2, false, 7, 1000, 0},
                      {"int_below", 2, true, 0, 77, 0},     {"int_below", 2, true, Wrap, 0, 0},
                      {"falling", 4, false, 3, 150, 0},     {"falling", 4, false, 0, 0, 0},
                      {"early_return", 4, false, 0, 33, 0}, {"window", 1, false, 2, 170, 50},
                      {"window", 1, false, 0, 10, 20}};
  for (const Run &R : Runs) {
    const std::string Name = R.Kernel;
    Buffer<double> A(Items * R.Lanes), B(Items * R.Lanes, -7.0);
    Buffer<float> Af(Items * R.Lanes), Bf(Items * R.Lanes, -7.0f);
    for (size_t I = 0; I < Items * R.Lanes; ++I)
      A[I] = Af[I] = static_cast<float>(I % 97) * 0.5f;
    NDRange Range = range1(Items, 32); // the last group has 8
    Range.Offset[0] = R.Offset;
    ASSERT_TRUE(P.run(R.Kernel, Range,
                      {Arg::pointer(R.Double ? static_cast<void *>(A.data()) : Af.data()),
                       Arg::pointer(R.Double ? static_cast<void *>(B.data()) : Bf.data()),
                       Arg::value(R.N), Arg::value(R.M)}));
    for (size_t K = 0; K < Items; ++K) {
      const size_t G = K + R.Offset;
      const int I = static_cast<int>(static_cast<uint32_t>(G));
      bool Guarded = false;
      if (Name == "below" || Name == "early_return")
        Guarded = G < static_cast<size_t>(static_cast<int64_t>(R.N));
      else if (Name == "int_below")
        Guarded = I < R.N;
      else if (Name == "falling")
        Guarded = static_cast<int64_t>(R.N) - I > 0;
      else
        Guarded = I >= R.M && I < R.N;
      // A float3 takes 16 bytes, its fourth lane any value.
      for (size_t L = 0; L < (Name == "early_return" ? 3 : R.Lanes); ++L) {
        const size_t E = K * R.Lanes + L;
        const double Got = R.Double ? B[E] : Bf[E];
        const double Want = Guarded ? (R.Double ? A[E] : Af[E]) * 2 + 1 : -7.0;
        ASSERT_EQ(Got, Want) << R.Kernel << " offset " << R.Offset << " n " << R.N << " item " << K
                             << " lane " << L;
      }
    }
  }
  for (const int N : {0, 70, 96, 190, 500}) {
    Buffer<float> A(Items * 4), B(Items * 4, -7.0f);
    for (size_t I = 0; I < A.size(); ++I)
      A[I] = static_cast<float>(I % 83);
    NDRange Range = range1(Items, 32); // the last group has 8
    Range.Offset[0] = 3;
    ASSERT_TRUE(P.run("staged", Range,
                      {Arg::pointer(A.data()), Arg::pointer(B.data()), Arg::value(N)}));
    for (size_t K = 0; K < Items; ++K) {
      const size_t Group = K / 32 * 32, Size = std::min<size_t>(32, Items - Group);
      const size_t R = Group + (Size - 1 - (K - Group));
      for (size_t L = 0; L < 4; ++L) {
        const float Want = K + 3 >= static_cast<size_t>(N) ? -7.0f
                           : R + 3 < static_cast<size_t>(N) ? A[R * 4 + L] * 2 + 1
                                                            : -1.0f;
        ASSERT_EQ(B[K * 4 + L], Want) << "staged n " << N << " item " << K << " lane " << L;
      }
    }
  }
  // Rows the bound cuts, and groups past the columns.
  Buffer<float> A(64 * 16 * 2), B(64 * 16 * 2, -7.0f);
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = static_cast<float>(I % 89);
  NDRange Plane;
  Plane.Dims = 2;
  Plane.Global = {64, 16, 1};
  Plane.Local = {16, 4, 1};
  ASSERT_TRUE(P.run(
      "plane", Plane,
      {Arg::pointer(A.data()), Arg::pointer(B.data()), Arg::value(int{37}), Arg::value(int{11})}));
  for (size_t Y = 0; Y < 16; ++Y)
    for (size_t X = 0; X < 64; ++X)
      for (size_t L = 0; L < 2; ++L) {
        const size_t E = (Y * 64 + X) * 2 + L;
        ASSERT_EQ(B[E], X < 37 && Y < 11 ? A[E] * 2 + 1 : -7.0f) << X << "," << Y;
      }
}

// Math builtins on vectors wider than 128 bits loop over their lanes, and
// the loop vectorizer widens that loop (BuiltinMacros.h, VEC_*): the
// libm calls become vector forms, the builtins' own code vector code, the
// pointer results vector stores. Each lane must be what the scalar kernel
// computes for its element (closeToScalar): unary, binary, pointer and
// integer-argument functions, on float8, float16, double4 and double8, on
// float4 and float3 split (their lane loops unrolled) or kept whole (a
// condition on the data around the stores), a double2 kept whole, and a
// double3 (its lanes take the double4 loop, the fourth a copy).
TEST(WorkItemTest, WideVectorMathMatchesScalarMath) {
  Program P;
  ASSERT_TRUE(P.build(Out3 + R"(
    // IT: the int vector of T's width.
    #define KERNELS(OUT, S, T, IT)                                                       \
      OUT(un_##S, T, sin(v), cbrt(v), tanpi(v))                                          \
      OUT(own_##S, T, exp(v), erf(v), log1p(v))                                          \
      OUT(bin_##S, T, pow(v, v / 4 + 1), atan2(v, v / 3 - 1), remainder(v, v / 5 + 2))   \
      OUT(sincos_##S, T, ({ T c; sincos(v, &c); }), ({ T c; sincos(v, &c); c; }),        \
          ({ IT e; frexp(v, &e) + convert_##T(e); }))                                    \
      OUT(ptr_##S, T, ({ IT q; remquo(v, v / 5 + 2, &q) + convert_##T(q); }),            \
          ({ T i; fract(v, &i) + i; }), ({ T i; modf(v, &i) + i; }))                     \
      OUT(int_##S, T, pown(v, convert_##IT##_sat(v) % 7),                                \
          rootn(v, convert_##IT##_sat(v) % 5 + 2), ldexp(v, convert_##IT##_sat(v) % 9))
    KERNELS(OUT3, f1, float, int)
    KERNELS(OUT3, f3, float3, int3)
    KERNELS(OUT3G, f3g, float3, int3)
    KERNELS(OUT3, f4, float4, int4)
    KERNELS(OUT3G, f4g, float4, int4)
    KERNELS(OUT3, f8, float8, int8)
    KERNELS(OUT3, f16, float16, int16)
    KERNELS(OUT3, d1, double, int)
    KERNELS(OUT3G, d2g, double2, int2)
    KERNELS(OUT3, d3, double3, int3)
    KERNELS(OUT3, d4, double4, int4)
    KERNELS(OUT3, d8, double8, int8))"));
  const size_t N = 1600;
  Buffer<float> F(N);
  Buffer<double> D(N);
  const float SpecialF[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 1e-40f, -0.5f, 2.5f, 1e30f};
  const double SpecialD[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-310, 710.0, -746.0, 0.5};
  for (size_t I = 0; I < N; ++I) {
    F[I] = I % 13 == 0 ? SpecialF[I / 13 % 9] : 0.37f * static_cast<float>(I % 211) - 40.0f;
    D[I] = I % 11 == 0 ? SpecialD[I / 11 % 9] : 0.73 * static_cast<double>(I % 307) - 100.0;
  }
  for (const std::string K : {"un_", "own_", "bin_", "sincos_", "ptr_", "int_"}) {
    expectLanesMatchScalar(P, K + "f3", K + "f1", F, 3, 3);
    expectLanesMatchScalar(P, K + "f3g", K + "f1", F, 3, 3);
    expectLanesMatchScalar(P, K + "f4", K + "f1", F, 4, 3);
    expectLanesMatchScalar(P, K + "f4g", K + "f1", F, 4, 3);
    expectLanesMatchScalar(P, K + "f8", K + "f1", F, 8, 3);
    expectLanesMatchScalar(P, K + "f16", K + "f1", F, 16, 3);
    expectLanesMatchScalar(P, K + "d2g", K + "d1", D, 2, 3);
    expectLanesMatchScalar(P, K + "d3", K + "d1", D, 3, 3);
    expectLanesMatchScalar(P, K + "d4", K + "d1", D, 4, 3);
    expectLanesMatchScalar(P, K + "d8", K + "d1", D, 8, 3);
  }
}

// Integer builtins and conversions on vectors of 8 and 16 lanes loop over
// their lanes (BuiltinMacros.h, Convert.cl), and kernels on char16 or
// short8 keep their vectors (VectorTypeScalarizerPass splits only up to 4
// lanes). Each lane must equal the scalar kernel's element; conversions
// saturate NaN, infinities and out-of-range values alike.
TEST(WorkItemTest, WideVectorIntegerBuiltinsAndConversionsMatchScalarOnes) {
  Program P;
  ASSERT_TRUE(P.build(Out3 + R"(
    // (A second operand by xor: a product could overflow, undefined for
    // signed types.)
    #define INTEGER(S, T)                                                                \
      OUT3(ia_##S, T, ({ T w = v ^ (T)0x35; as_##T(abs_diff(v, w)); }),                  \
           ({ T w = v ^ (T)0x35; hadd(v, w); }), mad_sat(v, v, v))                       \
      OUT3(ib_##S, T, add_sat(v, v), rotate(v, v),                                       \
           ({ T w = v ^ (T)0x5a; (T)(mul_hi(v, w) + clz(v)); }))
    INTEGER(c1, char) INTEGER(c16, char16)
    INTEGER(s1, short) INTEGER(s8, short8)
    INTEGER(i1, int) INTEGER(i8, int8)
    INTEGER(l1, long) INTEGER(l4, long4)
    // Floating values through saturating and rounding conversions and back.
    #define CONVERT(S, T, UC, I, SH)                                                     \
      OUT3(cv_##S, T, convert_##T(convert_##UC##_sat(v * 3)),                            \
           convert_##T(convert_##I##_sat_rte(v * 1e8f)),                                 \
           convert_##T(convert_##SH##_sat_rtn(v * 1000)) + convert_##T##_rtp(convert_##I(v)))
    CONVERT(f1, float, uchar, int, short) CONVERT(f8, float8, uchar8, int8, short8)
    CONVERT(f16, float16, uchar16, int16, short16)
    CONVERT(d1, double, uchar, long, short) CONVERT(d4, double4, uchar4, long4, short4)
    CONVERT(d8, double8, uchar8, long8, short8))"));
  const size_t N = 1600;
  auto fill = [](auto &Buf, uint64_t Seed) {
    using T = typename std::remove_reference_t<decltype(Buf)>::value_type;
    for (size_t I = 0; I < Buf.size(); ++I) {
      Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
      Buf[I] = static_cast<T>(Seed >> (I % 3 == 0 ? 60 : 32 + I % 17));
    }
  };
  Buffer<int8_t> C(N);
  Buffer<int16_t> S(N);
  Buffer<int32_t> I(N);
  Buffer<int64_t> L(N);
  fill(C, 1), fill(S, 2), fill(I, 3), fill(L, 4);
  for (const std::string K : {"ia_", "ib_"}) {
    expectLanesMatchScalar(P, K + "c16", K + "c1", C, 16, 3);
    expectLanesMatchScalar(P, K + "s8", K + "s1", S, 8, 3);
    expectLanesMatchScalar(P, K + "i8", K + "i1", I, 8, 3);
    expectLanesMatchScalar(P, K + "l4", K + "l1", L, 4, 3);
  }
  Buffer<float> F(N);
  Buffer<double> D(N);
  const float SpecialF[] = {NAN, INFINITY, -INFINITY, 1e30f, -1e30f, 85.5f, -0.5f, 2.5f, 0.0f};
  for (size_t J = 0; J < N; ++J) {
    F[J] = J % 7 == 0 ? SpecialF[J / 7 % 9] : 0.37f * static_cast<float>(J % 211) - 40.0f;
    D[J] = J % 5 == 0 ? 1e300 * (J % 2 ? 1 : -1) : F[J] * 1.001;
  }
  expectLanesMatchScalar(P, "cv_f8", "cv_f1", F, 8, 3);
  expectLanesMatchScalar(P, "cv_f16", "cv_f1", F, 16, 3);
  expectLanesMatchScalar(P, "cv_d4", "cv_d1", D, 4, 3);
  expectLanesMatchScalar(P, "cv_d8", "cv_d1", D, 8, 3);
}

} // namespace weft::compiler::test
