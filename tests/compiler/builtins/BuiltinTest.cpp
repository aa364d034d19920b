// A sample of the builtin library, run through real kernels: math against
// libm, integer functions, common/geometric/relational, vload/vstore in both
// manglings (CL1.2 named address spaces, CL2.0 generic), conversions,
// atomics on global and local memory, and the math functions with a pointer
// argument in every address space.
#include "KernelRunner.h"
#include "MathReference.h"
#include "runtime/platform/Capabilities.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>
#include <type_traits>

namespace weft::compiler::test {

TEST(BuiltinTest, FloatMathMatchesLibm) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global const float *x, global float *out) {
      size_t i = get_global_id(0);
      float v = x[i];
      out[i * 8 + 0] = sin(v);
      out[i * 8 + 1] = exp(v);
      out[i * 8 + 2] = pow(v, 1.5f);
      out[i * 8 + 3] = atan2(v, 2.0f);
      out[i * 8 + 4] = fma(v, v, 1.0f);
      out[i * 8 + 5] = tanh(v);
      float4 q = sqrt((float4)(v, v * 2, v * 3, v * 4));
      out[i * 8 + 6] = q.w;
      out[i * 8 + 7] = hypot(v, 3.0f) + rsqrt(v) + native_log2(v);
    })"));
  std::vector<float> X(64), Out(64 * 8);
  for (int I = 0; I < 64; ++I)
    X[I] = 0.1f + I * 0.05f;
  ASSERT_TRUE(P.run("k", range1(64, 16), {Arg::pointer(X.data()), Arg::pointer(Out.data())}));
  for (int I = 0; I < 64; ++I) {
    float V = X[I];
    EXPECT_FLOAT_EQ(Out[I * 8 + 0], std::sin(V));
    EXPECT_FLOAT_EQ(Out[I * 8 + 1], std::exp(V));
    EXPECT_FLOAT_EQ(Out[I * 8 + 2], std::pow(V, 1.5f));
    EXPECT_FLOAT_EQ(Out[I * 8 + 3], std::atan2(V, 2.0f));
    EXPECT_FLOAT_EQ(Out[I * 8 + 4], std::fma(V, V, 1.0f));
    EXPECT_FLOAT_EQ(Out[I * 8 + 5], std::tanh(V));
    EXPECT_FLOAT_EQ(Out[I * 8 + 6], std::sqrt(V * 4));
    EXPECT_NEAR(Out[I * 8 + 7], std::hypot(V, 3.0f) + 1 / std::sqrt(V) + std::log2(V), 1e-4);
  }
}

TEST(BuiltinTest, DoubleMath) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global double *out) {
      double v = 0.5 + get_global_id(0);
      double2 c = cos((double2)(v, -v));
      out[get_global_id(0)] = log10(v) + c.y + cbrt(v) + fmod(v, 0.3);
    })"));
  std::vector<double> Out(8);
  ASSERT_TRUE(P.run("k", range1(8, 4), {Arg::pointer(Out.data())}));
  for (int I = 0; I < 8; ++I) {
    double V = 0.5 + I;
    EXPECT_DOUBLE_EQ(Out[I], std::log10(V) + std::cos(-V) + std::cbrt(V) + std::fmod(V, 0.3));
  }
}

TEST(BuiltinTest, IntegerFunctions) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global int *out, global uint *uout, global long *lout) {
      out[0] = abs(-5);
      out[1] = add_sat(INT_MAX, 5);
      out[2] = sub_sat((char)-100, (char)100);
      out[3] = clz(1);
      out[4] = popcount(0xF0F0);
      out[5] = mul_hi(0x40000000, 8);
      out[6] = (int)rotate(0x80000001u, 1u);
      out[7] = hadd(7, 8);
      out[8] = rhadd(7, 8);
      out[9] = clamp(17, 0, 10);
      out[10] = mad24(3, 4, 5);
      out[11] = ctz(8);
      int4 m = max((int4)(1, 9, -3, 4), (int4)(2));
      out[12] = m.x + m.y + m.z + m.w;
      uout[0] = abs_diff(-3, 4);
      uout[1] = upsample((ushort)1, (ushort)2);
      lout[0] = mul_hi(-1L, 5L);
      lout[1] = mad_sat(LONG_MAX, 2L, 0L);
      lout[2] = (long)mul_hi(0xFFFFFFFFFFFFFFFFUL, 0xFFFFFFFFFFFFFFFFUL);
    })", "-cl-std=CL2.0"));
  std::vector<int32_t> Out(13);
  std::vector<uint32_t> UOut(2);
  std::vector<int64_t> LOut(3);
  ASSERT_TRUE(P.run("k", range1(1, 1), {Arg::pointer(Out.data()), Arg::pointer(UOut.data()), Arg::pointer(LOut.data())}));
  std::vector<int32_t> Expect = {5, INT32_MAX, -128, 31, 8, 2, 3, 7, 8, 10, 17, 3, 2 + 9 + 2 + 4};
  EXPECT_EQ(Out, Expect);
  EXPECT_EQ(UOut[0], 7u);
  EXPECT_EQ(UOut[1], 0x10002u);
  EXPECT_EQ(LOut[0], -1);
  EXPECT_EQ(LOut[1], INT64_MAX);
  EXPECT_EQ(LOut[2], (int64_t)0xFFFFFFFFFFFFFFFEull);
}

TEST(BuiltinTest, CommonGeometricRelational) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global float *out, global int *iout) {
      float3 a = (float3)(1, 2, 3), b = (float3)(4, 5, 6);
      float3 c = cross(a, b);
      out[0] = dot(a, b);
      out[1] = c.x; out[2] = c.y; out[3] = c.z;
      out[4] = length((float2)(3, 4));
      out[5] = normalize((float4)(0, 0, 5, 0)).z;
      out[6] = mix(1.0f, 3.0f, 0.25f);
      out[7] = smoothstep(0.0f, 1.0f, 0.5f);
      out[8] = degrees(M_PI_F);
      out[9] = sign(-2.0f);
      float4 s = select((float4)(1), (float4)(2), (int4)(0, -1, 0, -1));
      out[10] = s.x + s.y * 10 + s.z * 100 + s.w * 1000;
      iout[0] = isnan(NAN);
      iout[1] = isinf(-INFINITY);
      int4 e = isequal((float4)(1, 2, 3, 4), (float4)(1, 0, 3, 0));
      iout[2] = e.x; iout[3] = e.y;
      iout[4] = any((int4)(0, 0, -1, 0));
      iout[5] = all((int4)(-1, -1, 0, -1));
      iout[6] = signbit(-0.0f);
      iout[7] = bitselect(0x0F, 0xF0, 0x3C);
    })"));
  std::vector<float> Out(11);
  std::vector<int> IOut(8);
  ASSERT_TRUE(P.run("k", range1(1, 1), {Arg::pointer(Out.data()), Arg::pointer(IOut.data())}));
  std::vector<float> Expect = {32, -3, 6, -3, 5, 1, 1.5f, 0.5f, 180, -1, 2121};
  for (size_t I = 0; I < Expect.size(); ++I)
    EXPECT_NEAR(Out[I], Expect[I], 1e-4) << I;
  std::vector<int> IExpect = {1, 1, -1, 0, 1, 0, 1, 0x33};
  EXPECT_EQ(IOut, IExpect);
}

TEST(BuiltinTest, VloadVstoreBothManglings) {
  const char *Src = R"(
    kernel void k(global const float *in, global float *out) {
      size_t i = get_global_id(0);
      float3 v = vload3(i, in + 1);           // unaligned element offset
      private float tmp[4];
      vstore4((float4)(v, 1.0f), 0, tmp);
      float4 w = vload4(0, tmp);
      vstore3(w.xyz * 2, i, out);
      vstore2((float2)(0, 0), 0, (global float *)0 + 0 * i + (size_t)(out + 100)/sizeof(float) - (size_t)0);
    })";
  for (const char *Std : {"-cl-std=CL1.2", "-cl-std=CL2.0"}) {
    Program P;
    ASSERT_TRUE(P.build(Src, Std)) << Std;
    std::vector<float> In(40), Out(102, -1);
    for (int I = 0; I < 40; ++I)
      In[I] = float(I);
    ASSERT_TRUE(P.run("k", range1(8, 4), {Arg::pointer(In.data()), Arg::pointer(Out.data())}));
    for (int I = 0; I < 24; ++I)
      EXPECT_EQ(Out[I], 2 * In[I + 1]) << Std << " " << I;
    EXPECT_EQ(Out[100], 0.0f);
  }
}

TEST(BuiltinTest, Conversions) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global int *out) {
      out[0] = convert_int(3.7f);
      out[1] = convert_int_rte(2.5f);
      out[2] = convert_int_rtp(2.1f);
      out[3] = convert_int_rtn(-2.1f);
      out[4] = convert_uchar_sat(300);
      out[5] = convert_char_sat(-300);
      out[6] = convert_int_sat(1e20f);
      out[7] = convert_int_sat(NAN);
      out[8] = convert_ushort_sat(-5);
      int4 v = convert_int4_sat_rte((float4)(1.5f, -1.5f, 3e10f, 0.49f));
      out[9] = v.x; out[10] = v.y; out[11] = v.z; out[12] = v.w;
      uint2 u = convert_uint2_sat((long2)(-1, 5000000000L));
      out[13] = (int)u.x; out[14] = (int)u.y;
      float2 f = convert_float2((int2)(7, -8));
      out[15] = (int)(f.x * 10) + (int)f.y;
    })"));
  std::vector<int32_t> Out(16);
  ASSERT_TRUE(P.run("k", range1(1, 1), {Arg::pointer(Out.data())}));
  std::vector<int32_t> Expect = {3, 2, 3, -3, 255, -128, INT32_MAX, 0, 0, 2, -2, INT32_MAX, 0, 0, -1, 62};
  EXPECT_EQ(Out, Expect);
}

// Conversions to floating types that can be inexact honour every rounding
// mode: the inputs come from memory, so nothing is folded at compile time.
TEST(BuiltinTest, ConversionsToFloatingTypesRoundByTheMode) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    #pragma OPENCL EXTENSION cl_khr_fp64 : enable
    kernel void k(global const int *i, global const long *l, global const ulong *u,
                  global const double *d, global float *f, global double *o) {
      f[0] = convert_float_rtz(i[0]);  f[1] = convert_float_rtp(i[0]);
      f[2] = convert_float_rtn(i[1]);  f[3] = convert_float_rte(i[0]);
      f[4] = convert_float_rtz(l[0]);  f[5] = convert_float_rtp(l[0]);
      f[6] = convert_float_rtn(l[1]);  f[7] = convert_float_rtz(u[0]);
      f[8] = convert_float_rtz(d[0]);  f[9] = convert_float_rtp(d[1]);
      f[10] = convert_float_rtn(d[2]); f[11] = convert_float_rtz(d[2]);
      float4 v = convert_float4_rtn((int4)(i[0], i[1], 3, -3));
      f[12] = v.x; f[13] = v.y; f[14] = v.z; f[15] = v.w;
      o[0] = convert_double_rtz(u[0]); o[1] = convert_double_rtp(l[2]);
      o[2] = convert_double_rtn(l[2]); o[3] = convert_double_rtz(l[1]);
    })"));
  int32_t I[] = {16777217, -16777217};
  int64_t L[] = {INT64_MAX, INT64_MIN + 1, (int64_t(1) << 53) + 1};
  uint64_t U[] = {UINT64_MAX};
  double D[] = {1e300, 1e-50, -1e-50};
  std::vector<float> F(16);
  std::vector<double> O(4);
  ASSERT_TRUE(P.run("k", range1(1, 1),
                    {Arg::pointer(I), Arg::pointer(L), Arg::pointer(U), Arg::pointer(D),
                     Arg::pointer(F.data()), Arg::pointer(O.data())}));
  const float MinDenorm = std::numeric_limits<float>::denorm_min();
  std::vector<float> WantF = {16777216.0f, 16777218.0f, -16777218.0f, 16777216.0f,
                              0x1.fffffep62f, 0x1p63f, -0x1p63f, 0x1.fffffep63f,
                              std::numeric_limits<float>::max(), MinDenorm, -MinDenorm, -0.0f,
                              16777216.0f, -16777218.0f, 3.0f, -3.0f};
  for (size_t K = 0; K < WantF.size(); ++K)
    EXPECT_EQ(F[K], WantF[K]) << K;
  EXPECT_TRUE(std::signbit(F[11]));
  std::vector<double> WantO = {0x1.fffffffffffffp63, 0x1p53 + 2, 0x1p53, -0x1.fffffffffffffp62};
  for (size_t K = 0; K < WantO.size(); ++K)
    EXPECT_EQ(O[K], WantO[K]) << K;
}

TEST(BuiltinTest, AtomicsGlobalAndLocal) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    #pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
    kernel void k(global int *g, global long *gl, global float *gf, global uint *um) {
      local int counter;
      if (get_local_id(0) == 0) counter = 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      atomic_inc(&counter);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (get_local_id(0) == 0) atomic_add(&g[0], counter);
      atomic_max(&g[1], (int)get_global_id(0));
      atom_add(&gl[0], 1L << 33);
      atomic_cmpxchg(&g[2], 0, 7);
      atomic_xchg(&gf[0], 2.5f);
      atomic_min(&um[0], (uint)get_global_id(0) + 3);
      atomic_or(&g[3], 1 << (get_global_id(0) % 8));
    })"));
  std::vector<int32_t> G = {0, -1, 0, 0};
  std::vector<int64_t> GL = {0};
  std::vector<float> GF = {0};
  std::vector<uint32_t> UM = {1000};
  ASSERT_TRUE(P.run("k", range1(64, 16), {Arg::pointer(G.data()), Arg::pointer(GL.data()), Arg::pointer(GF.data()), Arg::pointer(UM.data())}));
  EXPECT_EQ(G[0], 64);
  EXPECT_EQ(G[1], 63);
  EXPECT_EQ(G[2], 7);
  EXPECT_EQ(G[3], 0xFF);
  EXPECT_EQ(GL[0], 64ll << 33);
  EXPECT_EQ(GF[0], 2.5f);
  EXPECT_EQ(UM[0], 3u);
}


TEST(BuiltinTest, AsyncWorkGroupCopies) {
  // Each work-group stages its slice of In through __local memory with the
  // (strided) async copies and writes it back reversed; wait_group_events
  // must make every element visible to every work-item.
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global const float4 *in, global float4 *out, global int *strided,
                  local float4 *tile, local int *itile) {
      size_t n = get_local_size(0), base = get_group_id(0) * n;
      event_t e = async_work_group_copy(tile, in + base, n, 0);
      wait_group_events(1, &e);
      out[base + get_local_id(0)] = tile[n - 1 - get_local_id(0)];
      event_t s = async_work_group_strided_copy(itile, strided + base * 2, n, 2, 0);
      wait_group_events(1, &s);
      event_t w = async_work_group_strided_copy(strided + base * 2 + 1, itile, n, 2, 0);
      wait_group_events(1, &w);
      prefetch(in, 4);
    })"));
  const size_t N = 64, L = 16;
  std::vector<float> In(4 * N), Out(4 * N, -1.0f);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = float(I);
  std::vector<int32_t> Strided(2 * N);
  for (size_t I = 0; I < N; ++I)
    Strided[2 * I] = int32_t(I * 3);
  ASSERT_TRUE(P.run("k", range1(N, L),
                    {Arg::pointer(In.data()), Arg::pointer(Out.data()),
                     Arg::pointer(Strided.data()), Arg::local(L * 16), Arg::local(L * 4)}));
  for (size_t G = 0; G < N / L; ++G)
    for (size_t I = 0; I < L; ++I)
      for (size_t C = 0; C < 4; ++C)
        ASSERT_EQ(Out[4 * (G * L + I) + C], In[4 * (G * L + L - 1 - I) + C]);
  for (size_t I = 0; I < N; ++I)
    ASSERT_EQ(Strided[2 * I + 1], int32_t(I * 3)) << I;
}

TEST(BuiltinTest, PredefinedMacros) {
  // __OPENCL_VERSION__ is the device's (SPIR leaves it undefined);
  // __IMAGE_SUPPORT__ is defined exactly when the device reports images.
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global int *out) {
      out[0] = __OPENCL_VERSION__;
    #ifdef __IMAGE_SUPPORT__
      out[1] = 1;
    #else
      out[1] = 0;
    #endif
    })"));
  std::vector<int32_t> Out(2, -1);
  ASSERT_TRUE(P.run("k", range1(1, 1), {Arg::pointer(Out.data())}));
  EXPECT_EQ(Out[0], int32_t(CL_VERSION_MAJOR(weft::rt::OpenCLVersion) * 100 +
                            CL_VERSION_MINOR(weft::rt::OpenCLVersion) * 10));
  EXPECT_EQ(Out[0], 310);
  EXPECT_EQ(Out[1], weft::rt::Images.Supported ? 1 : 0);
}

namespace {
/// What a one-work-item kernel k(global int *out), built with Options,
/// leaves in out[0]; -1 (and a failure) if it does not build or run.
int32_t probe(const char *Source, const char *Options) {
  Program P;
  std::vector<int32_t> Out(1, -1);
  EXPECT_TRUE(P.build(Source, Options) && P.run("k", range1(1, 1), {Arg::pointer(Out.data())}));
  return Out[0];
}
} // namespace

TEST(BuiltinTest, FeatureMacrosMatchTheDevice) {
  // Clang's header defines some OpenCL C 3.0 feature macros for every SPIR
  // target; only the features the device reports may be defined (CTS
  // compiler/features_macro): fp64, work-group collectives and seq_cst
  // atomics are, and read-write images as the feature table says.
  int32_t Bits = probe(R"(
    kernel void k(global int *out) {
      int n = 0;
    #ifdef __opencl_c_atomic_order_seq_cst
      n |= 1;
    #endif
    #ifdef __opencl_c_work_group_collective_functions
      n |= 2;
    #endif
    #ifdef __opencl_c_read_write_images
      n |= 4;
    #endif
    #ifdef __opencl_c_fp64
      n |= 8;
    #endif
      out[0] = n;
    })",
                       "-cl-std=CL3.0");
  EXPECT_EQ(Bits, 8 | (weft::rt::Images.MaxReadWriteArgs ? 4 : 0) | 2 | 1);
}

TEST(BuiltinTest, ExtensionMacrosMatchTheDevice) {
  // Clang's header also defines the extended sub-group extensions, integer
  // dot products and float atomics for every SPIR target from OpenCL C 2.0
  // on, and declares their builtins while the macro is defined; the device
  // reports the sub-group ones (cl_khr_subgroups and the cl_khr_subgroup_*
  // family) and the integer dot products, not the float atomics.
  int32_t Bits = probe(R"(
    kernel void k(global int *out) {
      int n = 0;
    #ifdef cl_khr_subgroups
      n |= 1;
    #endif
    #if defined(cl_khr_subgroup_ballot) || defined(cl_khr_subgroup_shuffle) || \
        defined(cl_khr_subgroup_non_uniform_vote) || defined(cl_khr_subgroup_rotate)
      n |= 2;
    #endif
    #if defined(cl_khr_integer_dot_product) || defined(__opencl_c_integer_dot_product_input_4x8bit)
      n |= 4;
    #endif
    #if defined(cl_ext_float_atomics) || defined(__opencl_c_ext_fp32_global_atomic_add)
      n |= 8;
    #endif
      out[0] = n;
    })",
                       "-cl-std=CL3.0");
  EXPECT_EQ(Bits, 1 | 2 | 4);

  // The float forms of the atomics stay undeclared: only the integer ones,
  // none of which fits better than another, are left to call.
  auto R = rt::ProgramCompiler::get().buildSource(
      "kernel void k(volatile global atomic_float *p) {\n"
      "  atomic_fetch_add_explicit(p, 1.0f, memory_order_relaxed);\n"
      "}",
      "-cl-std=CL3.0");
  ASSERT_TRUE(std::holds_alternative<rt::BuildFailure>(R));
  const std::string &Log = std::get<rt::BuildFailure>(R).Log;
  EXPECT_NE(Log.find("call to 'atomic_fetch_add_explicit' is ambiguous"), std::string::npos) << Log;
}

TEST(BuiltinTest, GeometricFunctionsDoNotOverflow) {
  // Regression (CTS geom_length/geom_distance): the squares of large
  // components overflowed to inf, of tiny ones underflowed to 0.
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global float *out, global double *dout) {
      out[0] = length((float2)(0x1p+64f, 0.0f));
      out[1] = distance((float4)(0x1p+100f, 0.0f, 0.0f, 0.0f), (float4)(0.0f));
      out[2] = length((float3)(3e-30f, 4e-30f, 0.0f));
      out[3] = normalize((float2)(0x1p+120f, 0x1p+120f)).x;
      out[4] = normalize((float2)(INFINITY, 1.0f)).x;
      dout[0] = length((double2)(0x1p+600, 0x1p+600));
    })"));
  std::vector<float> Out(5);
  std::vector<double> DOut(1);
  ASSERT_TRUE(P.run("k", range1(1, 1), {Arg::pointer(Out.data()), Arg::pointer(DOut.data())}));
  EXPECT_EQ(Out[0], 0x1p+64f);
  EXPECT_EQ(Out[1], 0x1p+100f);
  EXPECT_NEAR(Out[2], 5e-30f, 1e-36f);
  EXPECT_NEAR(Out[3], 0.70710678f, 1e-6f);
  EXPECT_EQ(Out[4], 1.0f);
  EXPECT_NEAR(DOut[0], 0x1p+600 * 1.4142135623730951, 0x1p+600 * 1e-15);
}

TEST(BuiltinTest, IntegerDivisionByZeroDoesNotTrap) {
  // Regression (CTS integer_ops crashed with SIGFPE): the value is
  // undefined, the process must survive. INT_MIN / -1 wraps.
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global int *n, global int *d, global int *q, global int *r,
                  global long4 *vn, global long4 *vd, global long4 *vq) {
      size_t i = get_global_id(0);
      q[i] = n[i] / d[i];
      r[i] = n[i] % d[i];
      vq[i] = vn[i] / vd[i];
    })"));
  const size_t N = 64;
  std::vector<int32_t> Num(N), Den(N, 0), Q(N), R(N);
  Buffer<int64_t> VN(4 * N, 5), VD(4 * N, 0), VQ(4 * N); // long4s, aligned as a buffer is
  for (size_t I = 0; I < N; ++I)
    Num[I] = int32_t(I) - 7;
  Num[1] = INT32_MIN;
  Den[1] = -1;
  Den[2] = 3;
  ASSERT_TRUE(P.run("k", range1(N, 16),
                    {Arg::pointer(Num.data()), Arg::pointer(Den.data()), Arg::pointer(Q.data()),
                     Arg::pointer(R.data()), Arg::pointer(VN.data()), Arg::pointer(VD.data()),
                     Arg::pointer(VQ.data())}));
  EXPECT_EQ(Q[1], INT32_MIN);
  EXPECT_EQ(R[1], 0);
  EXPECT_EQ(Q[2], -5 / 3);
  EXPECT_EQ(R[2], -5 % 3);
}

TEST(BuiltinTest, ShuffleAndShuffle2) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global int *out, global float *fout) {
      int4 a = (int4)(10, 11, 12, 13), b = (int4)(20, 21, 22, 23);
      int8 s = shuffle(a, (uint8)(3, 2, 1, 0, 7, 4, 5, 6)); // only mask % 4 counts
      int2 t = shuffle2(a, b, (uint2)(5, 10));              // mask % 8: b[1], a[2]
      vstore8(s, 0, out);
      vstore2(t, 0, out + 8);
      float16 f = shuffle((float2)(1.5f, 2.5f), (uint16)(1));
      fout[0] = f.sf;
    })"));
  std::vector<int32_t> Out(10);
  std::vector<float> FOut(1);
  ASSERT_TRUE(P.run("k", range1(1, 1), {Arg::pointer(Out.data()), Arg::pointer(FOut.data())}));
  std::vector<int32_t> Expect = {13, 12, 11, 10, 13, 10, 11, 12, 21, 12};
  EXPECT_EQ(Out, Expect);
  EXPECT_EQ(FOut[0], 2.5f);
}

TEST(BuiltinTest, NarrowIntegerEdgeCases) {
  // Regressions from CTS test_integer_ops and test_atomics: clz/popcount of
  // negative narrow values sign-extended; unsigned mad_sat/mul_hi overflowed
  // a signed intermediate; 64-bit atom_min/atom_max were truncated to 32
  // bits.
  Program P;
  ASSERT_TRUE(P.build(R"(
    #pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
    kernel void k(global int *out, global uint *uout, global long *l) {
      out[0] = clz((char)-117);
      out[1] = popcount((char)-1);
      out[2] = clz((short)-1);
      uout[0] = mad_sat((ushort)0x96ae, (ushort)0xfe5a, (ushort)0xdddb);
      uout[1] = mad_sat(0xffffffffu, 0xffffffffu, 5u);
      uout[2] = mul_hi((ushort)0xffff, (ushort)0xffff);
      uout[3] = mul_hi(0xffffffffu, 0xffffffffu);
      atom_min(l, -5000000000L);
      atom_max(l + 1, 6000000000L);
    })"));
  std::vector<int32_t> Out(3);
  std::vector<uint32_t> UOut(4);
  std::vector<int64_t> L = {0, 0};
  ASSERT_TRUE(P.run("k", range1(1, 1),
                    {Arg::pointer(Out.data()), Arg::pointer(UOut.data()), Arg::pointer(L.data())}));
  EXPECT_EQ(Out[0], 0);
  EXPECT_EQ(Out[1], 8);
  EXPECT_EQ(Out[2], 0);
  EXPECT_EQ(UOut[0], 0xffffu);
  EXPECT_EQ(UOut[1], 0xffffffffu);
  EXPECT_EQ(UOut[2], 0xfffeu);
  EXPECT_EQ(UOut[3], 0xfffffffeu);
  EXPECT_EQ(L[0], -5000000000LL);
  EXPECT_EQ(L[1], 6000000000LL);
}

TEST(BuiltinTest, OpenCLC3AtomicsWithOrderAndScope) {
  // Every work-item of four groups adds into a global counter and a local
  // one, takes the max, exchanges and compare-exchanges: the OpenCL C 3.0
  // atomics with an explicit order and scope, on named address spaces.
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(volatile global atomic_int *sum, volatile global atomic_long *mx,
                  global uint *perGroup, volatile global atomic_float *f,
                  volatile global atomic_flag *flag, global int *cas) {
      local atomic_uint count;
      if (get_local_id(0) == 0)
        atomic_init(&count, 0u);
      barrier(CLK_LOCAL_MEM_FENCE);
      int id = (int)get_global_id(0);
      atomic_fetch_add_explicit(sum, id, memory_order_relaxed, memory_scope_work_group);
      atomic_fetch_max_explicit(mx, (long)id << 33, memory_order_relaxed, memory_scope_work_group);
      atomic_fetch_add_explicit(&count, 1u, memory_order_relaxed, memory_scope_work_group);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (get_local_id(0) == 0)
        perGroup[get_group_id(0)] = atomic_load_explicit(&count, memory_order_relaxed,
                                                         memory_scope_work_group);
      if (id == 5) {
        atomic_store_explicit(f, 2.5f, memory_order_relaxed, memory_scope_work_group);
        int e = 7;
        cas[0] = atomic_compare_exchange_strong_explicit((volatile global atomic_int *)cas + 1, &e,
                     9, memory_order_relaxed, memory_order_relaxed, memory_scope_work_group);
        cas[2] = e;
        cas[3] = atomic_flag_test_and_set_explicit(flag, memory_order_relaxed,
                                                   memory_scope_work_group);
      }
    })", "-cl-std=CL3.0"));
  const size_t N = 64, L = 16;
  int32_t Sum = 0;
  int64_t Max = 0;
  std::vector<uint32_t> PerGroup(N / L);
  float F = 0;
  int32_t Flag = 0;
  std::vector<int32_t> Cas = {-1, 3, -1, -1};
  ASSERT_TRUE(P.run("k", range1(N, L),
                    {Arg::pointer(&Sum), Arg::pointer(&Max), Arg::pointer(PerGroup.data()),
                     Arg::pointer(&F), Arg::pointer(&Flag), Arg::pointer(Cas.data())}));
  EXPECT_EQ(Sum, int32_t(N * (N - 1) / 2));
  EXPECT_EQ(Max, int64_t(N - 1) << 33);
  for (uint32_t C : PerGroup)
    EXPECT_EQ(C, L);
  EXPECT_EQ(F, 2.5f);
  EXPECT_EQ(Cas[0], 0); // 3 != 7: failed
  EXPECT_EQ(Cas[1], 3);
  EXPECT_EQ(Cas[2], 3); // expected updated with the value seen
  EXPECT_EQ(Cas[3], 0); // the flag was clear
  EXPECT_EQ(Flag, 1);
}

TEST(BuiltinTest, OpenCLC3AtomicsWithDefaultOrderAndScope) {
  // The forms without a scope (device) and without an order as well
  // (seq_cst), which the device's full atomic capabilities declare, on
  // global, local and generic pointers.
  Program P;
  ASSERT_TRUE(P.build(R"(
    void bump(volatile atomic_int *p) { atomic_fetch_add(p, 1); } // generic
    kernel void k(volatile global atomic_int *sum, volatile global atomic_ulong *bits,
                  volatile global atomic_double *d, volatile global atomic_flag *flag,
                  global int *out) {
      local atomic_int count;
      if (get_local_id(0) == 0)
        atomic_store(&count, 0);
      barrier(CLK_LOCAL_MEM_FENCE);
      int id = (int)get_global_id(0);
      atomic_fetch_add(sum, id);
      atomic_fetch_or_explicit(bits, 1ul << id, memory_order_acq_rel);
      bump(&count);
      atomic_fetch_sub_explicit(&count, 0, memory_order_release);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (get_local_id(0) == 0)
        out[get_group_id(0)] = atomic_load_explicit(&count, memory_order_acquire);
      if (id == 3) {
        atomic_store(d, 1.5);
        out[4] = (int)(atomic_exchange(d, 4.0) * 2);
        double e = 4.0;
        out[5] = atomic_compare_exchange_weak(d, &e, 8.0);
        int want = 99;
        out[6] = atomic_compare_exchange_strong_explicit((volatile global atomic_int *)out + 7,
                     &want, 1, memory_order_seq_cst, memory_order_relaxed);
        out[8] = want;
        out[9] = atomic_flag_test_and_set(flag);
        atomic_flag_clear_explicit(flag, memory_order_release);
        out[10] = atomic_flag_test_and_set_explicit(flag, memory_order_acquire);
      }
    })", "-cl-std=CL3.0"));
  const size_t N = 64, L = 16;
  int32_t Sum = 0, Flag = 0;
  uint64_t Bits = 0;
  double D = 0;
  std::vector<int32_t> Out(11, -1);
  Out[7] = 42;
  ASSERT_TRUE(P.run("k", range1(N, L),
                    {Arg::pointer(&Sum), Arg::pointer(&Bits), Arg::pointer(&D),
                     Arg::pointer(&Flag), Arg::pointer(Out.data())}));
  EXPECT_EQ(Sum, int32_t(N * (N - 1) / 2));
  EXPECT_EQ(Bits, ~uint64_t(0));
  for (size_t G = 0; G < N / L; ++G)
    EXPECT_EQ(Out[G], int32_t(L)) << G;
  EXPECT_EQ(Out[4], 3);  // 1.5 exchanged for 4.0
  EXPECT_EQ(Out[5], 1);  // 4.0 seen: 8.0 stored
  EXPECT_EQ(D, 8.0);
  EXPECT_EQ(Out[6], 0);  // 42 != 99
  EXPECT_EQ(Out[7], 42);
  EXPECT_EQ(Out[8], 42);
  EXPECT_EQ(Out[9], 0);
  EXPECT_EQ(Out[10], 0); // cleared in between
  EXPECT_EQ(Flag, 1);
}

TEST(BuiltinTest, HalfLoadStoreWithRoundingModes) {
  // 1 + 2^-11 lies exactly between two halves (1.0 and 1 + 2^-10): even
  // rounding keeps 1.0, toward +inf takes the upper one. 65520 overflows
  // to infinity under round-to-nearest but stays finite toward zero.
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global half *h, global float *f) {
      vstore_half(1.0f + 0x1p-11f, 0, h);
      vstore_half_rtp(1.0f + 0x1p-11f, 1, h);
      vstore_half_rtn(-1.0f - 0x1p-11f, 2, h);
      vstore_half(65520.0f, 3, h);
      vstore_half_rtz(65520.0f, 4, h);
      vstore_half_rte(0x1p-25f, 5, h);      // half of the smallest denormal: even, 0
      vstore_half_rtp(0x1p-30f, 6, h);      // rounds up to the smallest denormal
      vstore_half(3.0, 7, h);               // double data
      vstorea_half3((float3)(1.0f, 2.0f, 3.0f), 2, h); // aligned: at 8, 9, 10
      float4 v = vload_half4(0, h + 8);
      f[0] = v.x; f[1] = v.y; f[2] = v.z;
      f[3] = vload_half(6, h);
    })"));
  std::vector<uint16_t> H(12, 0xffff);
  std::vector<float> F(4);
  ASSERT_TRUE(P.run("k", range1(1, 1), {Arg::pointer(H.data()), Arg::pointer(F.data())}));
  EXPECT_EQ(H[0], 0x3c00);
  EXPECT_EQ(H[1], 0x3c01);
  EXPECT_EQ(H[2], 0xbc01);
  EXPECT_EQ(H[3], 0x7c00);
  EXPECT_EQ(H[4], 0x7bff);
  EXPECT_EQ(H[5], 0x0000);
  EXPECT_EQ(H[6], 0x0001);
  EXPECT_EQ(H[7], 0x4200);
  EXPECT_EQ(F[0], 1.0f);
  EXPECT_EQ(F[1], 2.0f);
  EXPECT_EQ(F[2], 3.0f);
  EXPECT_EQ(F[3], 0x1p-24f);
}

// The math builtins with a pointer argument (fract, modf, sincos, frexp,
// remquo, lgamma_r), each called three times: with the second result going
// to __global, __private and __local memory. As CL1.2 that calls the named
// address-space overloads; as CL3.0 (generic address space) the generic ones.
// Every x meets every y (only remquo reads y); results are compared with the
// host's libm.
namespace {

const char *MathPointerSource = R"(
  #pragma OPENCL EXTENSION cl_khr_fp64 : enable
  #define BODY(F, I)                         \
    r[6 * i + 0] = fract(v, F(0));           \
    r[6 * i + 1] = modf(v, F(1));            \
    r[6 * i + 2] = sincos(v, F(2));          \
    r[6 * i + 3] = frexp(v, I(3));           \
    r[6 * i + 4] = remquo(v, w, I(4));       \
    r[6 * i + 5] = lgamma_r(v, I(5));
  #define COPY(F, I)                                                 \
    o[6 * i] = *F(0), o[6 * i + 1] = *F(1), o[6 * i + 2] = *F(2);    \
    n[6 * i + 3] = *I(3), n[6 * i + 4] = *I(4), n[6 * i + 5] = *I(5);
  #define ARGS global const TN *x, global const TN *y, global TN *r, global TN *o, global IN *n
  #define START size_t i = get_global_id(0); TN v = x[i], w = y[i];
  #define G_F(k) (&o[6 * i + k])
  #define G_I(k) (&n[6 * i + k])
  kernel void kglobal(ARGS) { START BODY(G_F, G_I) }
  #define P_F(k) (&pf[k])
  #define P_I(k) (&pi[k - 3])
  kernel void kprivate(ARGS) { START TN pf[3]; IN pi[3]; BODY(P_F, P_I) COPY(P_F, P_I) }
  #define L_F(k) (&lf[get_local_id(0)][k])
  #define L_I(k) (&li[get_local_id(0)][k - 3])
  kernel void klocal(ARGS) {
    START local TN lf[16][3]; local IN li[16][3];
    BODY(L_F, L_I) COPY(L_F, L_I)
  }
)";

template <typename T> std::vector<T> mathPointerXs() {
  using L = std::numeric_limits<T>;
  return {// Special values.
          0, -T(0), L::infinity(), -L::infinity(), L::quiet_NaN(),
          // Integers (poles of lgamma), halves (remquo ties), a quotient above 127.
          1, -1, 3, -3, 5, 7, -7, T(0.5), T(-0.5), T(2.75), T(-2.75), T(-2.5), T(100.5),
          // Tiny: fract(-tiny) rounds to 1; denormals.
          T(1e-30), T(-1e-30), L::min(), L::denorm_min() * 3, -L::denorm_min() * 1000,
          // Large: integral, or with a last fractional bit.
          T(1e30), T(-1e30), L::max(), -L::max(), T(1) / L::epsilon() + 1,
          -T(0.5) / L::epsilon() - T(0.5)};
}
template <typename T> std::vector<T> mathPointerYs() {
  using L = std::numeric_limits<T>;
  return {1, -1, 2, T(0.75), 3, T(-0.3),
          // Huge quotients; 128|y| overflowing.
          L::denorm_min(), L::denorm_min() * 7, T(1e30), std::ldexp(T(1), L::max_exponent - 1),
          -L::max(),
          // No quotient, or an undefined one.
          L::infinity(), -L::infinity(), L::quiet_NaN(), 0, -T(0)};
}

float hostLgammaR(float X, int *S) { return ::lgammaf_r(X, S); }
double hostLgammaR(double X, int *S) { return ::lgamma_r(X, S); }

// The error of Got in units in the last place of T at the reference Ref
// (which is finite and within T's range); below the normal range, the ulp
// of the least normal exponent.
template <typename T> long double ulpError(T Got, long double Ref) {
  using Lim = std::numeric_limits<T>;
  int E = Ref == 0 ? Lim::min_exponent - 1 : std::max(std::ilogb(Ref), Lim::min_exponent - 1);
  return std::fabs(Got - Ref) / std::ldexp(1.0L, E - (Lim::digits - 1));
}

// fract as the CTS's reference computes it, from modf: the specification's
// fmin(x - floor(x), 0x1.fffffep-1f), with zero results taking x's sign.
template <typename T> T fractRef(T X, T &I) {
  if (std::isnan(X)) {
    I = X;
    return X;
  }
  T F = std::modf(X, &I);
  if (F < 0) {
    F = T(1) + F;
    I -= 1;
    if (F == 1)
      F = std::nextafter(T(1), T(0));
  }
  return F;
}

template <typename T> void checkMathPointer(const std::string &Std, int Width) {
  std::string Suffix = Width > 1 ? std::to_string(Width) : "";
  std::string TN = (sizeof(T) == 4 ? "float" : "double") + Suffix, IN = "int" + Suffix;
  SCOPED_TRACE(Std + " " + TN);
  Program P;
  ASSERT_TRUE(P.build("#define TN " + TN + "\n#define IN " + IN + "\n" + MathPointerSource, Std));
  std::vector<T> Xs = mathPointerXs<T>(), Ys = mathPointerYs<T>();
  const size_t Lanes = Xs.size() * Ys.size(), Stride = Width == 3 ? 4 : Width;
  const size_t Items = (Lanes + Width * 16 - 1) / (Width * 16) * 16;
  Buffer<T> X(Items * Stride, T(-123)), Y(Items * Stride, T(-123));
  for (size_t L = 0; L < Items * Width; ++L) {
    X[L / Width * Stride + L % Width] = Xs[L / Ys.size() % Xs.size()];
    Y[L / Width * Stride + L % Width] = Ys[L % Ys.size()];
  }
  for (const char *Kernel : {"kglobal", "kprivate", "klocal"}) {
    SCOPED_TRACE(Kernel);
    Buffer<T> R(Items * 6 * Stride, T(-123)), O(Items * 6 * Stride, T(-123));
    Buffer<int32_t> N(Items * 6 * Stride, -123);
    ASSERT_TRUE(P.run(Kernel, range1(Items, 16),
                      {Arg::pointer(X.data()), Arg::pointer(Y.data()), Arg::pointer(R.data()),
                       Arg::pointer(O.data()), Arg::pointer(N.data())}));
    int Failures = 0;
    for (size_t L = 0; L < Lanes && Failures < 20; ++L) {
      size_t I = L / Width, J = L % Width, In = I * Stride + J;
      auto Out = [&](int K) { return (6 * I + K) * Stride + J; };
      T x = X[In], y = Y[In], Ref, RefT;
      int RefI;
      std::ostringstream Where;
      Where << std::hexfloat << "x=" << x << " y=" << y << " lane " << L;
      auto Check = [&](bool Ok, const char *What) {
        if (!Ok) {
          ++Failures;
          ADD_FAILURE() << What << " " << Where.str();
        }
      };
      Ref = fractRef(x, RefT);
      Check(sameValue(R[Out(0)], Ref) && sameValue(O[Out(0)], RefT), "fract");
      Ref = std::modf(x, &RefT);
      Check(sameValue(R[Out(1)], Ref) && sameValue(O[Out(1)], RefT), "modf");
      // sin and cos allow 4 ulp (glibc's are within 1); ±0 must keep its sign.
      if (std::isfinite(x))
        Check(ulpDistance(R[Out(2)], std::sin(x)) <= 4 && ulpDistance(O[Out(2)], std::cos(x)) <= 4,
              "sincos");
      else
        Check(std::isnan(R[Out(2)]) && std::isnan(O[Out(2)]), "sincos");
      Ref = std::frexp(x, &RefI);
      Check(sameValue(R[Out(3)], Ref) && (!std::isfinite(x) || N[Out(3)] == RefI), "frexp");
      Ref = std::remquo(x, y, &RefI);
      // quo is unspecified for x = ±inf, y = 0 and NaN; else sign and 7 bits.
      bool QuoOk =
          !std::isfinite(x) || std::isnan(y) || y == 0 ||
          (N[Out(4)] == quo7Ref(x, y) && (std::abs(N[Out(4)]) & 7) == (std::abs(RefI) & 7));
      Check(sameValue(R[Out(4)], Ref) && QuoOk, "remquo");
      // lgamma_r is SLEEF's lgamma (1 ulp, or 1e-15 near its zeros), glibc's
      // sign.
      Ref = hostLgammaR(x, &RefI);
      T Lg = R[Out(5)];
      bool LgOk = std::isfinite(Ref) ? ulpDistance(Lg, Ref) <= 4 || std::fabs(Lg - Ref) <= 1e-15
                                     : sameValue(Lg, Ref);
      Check(LgOk && (std::isnan(x) || N[Out(5)] == RefI), "lgamma_r");
    }
  }
}

} // namespace

// The π-scaled trigonometric functions reduce x exactly: sinpi(1e7f + 0.5f)
// is sinpi(1e7f) = +0 (1e7f + 0.5f rounds to 1e7f), 2^22 + 1/2 is a quarter
// period past an even integer. Zeros and infinities take the signs of
// OpenCL C 7.5.1. Vector forms are exercised too.
TEST(BuiltinTest, PiScaledTrigonometry) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global float *f, global double *d) {
      float4 s = sinpi((float4)(1e7f + 0.5f, 0x1p22f + 0.5f, -3.0f, 0.25f));
      float4 c = cospi((float4)(2.5f, 1e7f + 1.0f, -0x1p22f - 0.5f, 0x1p30f));
      float4 t = tanpi((float4)(0.5f, 1.5f, -3.0f, -2.0f));
      f[0] = s.x; f[1] = s.y; f[2] = s.z; f[3] = s.w;
      f[4] = c.x; f[5] = c.y; f[6] = c.z; f[7] = c.w;
      f[8] = t.x; f[9] = t.y; f[10] = t.z; f[11] = t.w;
      f[12] = asinpi(1.0f); f[13] = acospi(-1.0f); f[14] = atanpi(-INFINITY);
      f[15] = atan2pi(0.0f, -1.0f); f[16] = atan2pi(-0.0f, -1.0f);
      f[17] = acospi(0.5f); f[18] = tanpi(0.1f); f[19] = sinpi(-0x1p-149f);
      f[20] = asinpi(-0.0f); f[21] = atan2pi(-1.0f, INFINITY);
      double2 sd = sinpi((double2)(0x1p51 + 0.5, -7.0));
      d[0] = sd.x; d[1] = sd.y;
      d[2] = cospi(0x1p52 + 1.0); d[3] = tanpi(-2.5); d[4] = atan2pi(-1.0, 0.0);
      d[5] = asinpi(0.5); d[6] = sinpi(1.0 / 3);
    })"));
  std::vector<float> F(22);
  std::vector<double> D(7);
  ASSERT_TRUE(P.run("k", range1(1, 1), {Arg::pointer(F.data()), Arg::pointer(D.data())}));
  const float Inf = INFINITY;
  const std::vector<float> Exact = {0.0f, 1.0f, -0.0f, 0,    0.0f, -1.0f, 0.0f, 1.0f, Inf,
                                    -Inf, 0.0f, -0.0f, 0.5f, 1.0f, -0.5f, 1.0f, -1.0f};
  for (size_t I = 0; I < Exact.size(); ++I) {
    if (I == 3) // sinpi(0.25f), checked below
      continue;
    EXPECT_TRUE(sameValue(F[I], Exact[I])) << "f[" << I << "] = " << F[I];
  }
  const long double Pi = 3.141592653589793238462643383279502884L;
  EXPECT_LE(ulpDistance(F[3], float(std::sqrt(0.5L))), 1);
  EXPECT_LE(ulpDistance(F[17], float(1.0L / 3)), 2);
  EXPECT_LE(ulpDistance(F[18], float(std::tan(Pi / 10))), 2);
  EXPECT_TRUE(sameValue(F[19], -0x1.8p-148f)) << F[19]; // -π·2^-149 rounds to -3·2^-149
  EXPECT_TRUE(sameValue(F[20], -0.0f) && sameValue(F[21], -0.0f)) << F[20] << " " << F[21];
  const std::vector<double> ExactD = {1.0, -0.0, -1.0, -INFINITY, -0.5, 1.0 / 6};
  for (size_t I = 0; I < 5; ++I)
    EXPECT_TRUE(sameValue(D[I], ExactD[I])) << "d[" << I << "] = " << D[I];
  EXPECT_LE(ulpDistance(D[5], 1.0 / 6), 2);
  EXPECT_LE(ulpDistance(D[6], double(std::sqrt(0.75L))), 2);
}

// pown with |n| >= 2^24 (where (float)n rounds: 2^25 + 1 would become the
// even 2^25 and lose the sign), pown(x, 0) = 1 for every x, rootn against
// long double (pow(x, 1/n) is ~7 ulp off here), and the special cases of
// rootn and powr.
TEST(BuiltinTest, PownRootnPowr) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global float *f, global double *d) {
      float X = -(1.0f + 0x1p-23f);
      f[0] = pown(X, 0x2000001);
      f[1] = pown(X, -0x2000001);
      float4 z = pown((float4)(NAN, INFINITY, 0.0f, -0.0f), 0);
      f[2] = z.x; f[3] = z.y; f[4] = z.z; f[5] = z.w;
      f[6] = rootn(-8.0f, 3); f[7] = rootn(-8.0f, 2); f[8] = rootn(2.0f, 0);
      f[9] = rootn(-0.0f, 3); f[10] = rootn(-0.0f, -3); f[11] = rootn(-0.0f, 4);
      f[12] = rootn(0x1.8p-120f, 3); f[13] = rootn(-INFINITY, -5);
      float4 r = powr((float4)(-1.0f, 0.0f, INFINITY, 1.0f), (float4)(2.0f, 0.0f, 0.0f, INFINITY));
      f[14] = r.x; f[15] = r.y; f[16] = r.z; f[17] = r.w;
      f[18] = powr(-0.0f, 3.0f); f[19] = powr(2.0f, 10.0f);
      d[0] = pown(-(1.0 + 0x1p-52), 0x7fffffff); d[1] = rootn(-27.0, 3);
      d[2] = rootn(0x1.8p-1000, 7); d[3] = powr(-2.0, 2.0); d[4] = rootn(-1.0, -2);
    })"));
  std::vector<float> F(20);
  std::vector<double> D(5);
  ASSERT_TRUE(P.run("k", range1(1, 1), {Arg::pointer(F.data()), Arg::pointer(D.data())}));
  const long double X = -(1.0L + 0x1p-23L);
  EXPECT_LE(ulpDistance(F[0], float(std::pow(X, 0x2000001L))), 2) << F[0];
  EXPECT_LE(ulpDistance(F[1], float(std::pow(X, -0x2000001L))), 2) << F[1];
  for (int I = 2; I < 6; ++I)
    EXPECT_TRUE(sameValue(F[I], 1.0f)) << "pown(x, 0): " << F[I];
  EXPECT_TRUE(sameValue(F[6], -2.0f)) << F[6];
  EXPECT_TRUE(std::isnan(F[7]) && std::isnan(F[8]));
  EXPECT_TRUE(sameValue(F[9], -0.0f) && sameValue(F[10], -INFINITY) && sameValue(F[11], 0.0f));
  EXPECT_LE(ulpDistance(F[12], float(std::cbrt(0x1.8p-120L))), 2) << F[12];
  EXPECT_TRUE(sameValue(F[13], -0.0f));
  for (int I = 14; I < 18; ++I)
    EXPECT_TRUE(std::isnan(F[I])) << "powr special case " << I << ": " << F[I];
  EXPECT_TRUE(sameValue(F[18], 0.0f) && sameValue(F[19], 1024.0f));
  EXPECT_LE(ulpDistance(D[0], double(std::pow(-(1.0L + 0x1p-52L), 0x7fffffffL))), 2);
  EXPECT_TRUE(sameValue(D[1], -3.0));
  EXPECT_LE(ulpDistance(D[2], double(std::pow(0x1.8p-1000L, 1.0L / 7))), 2);
  EXPECT_TRUE(std::isnan(D[3]) && std::isnan(D[4]));
}

// nan() keeps the code in the significand of a quiet NaN; ilogb(0) and
// ilogb(NaN) are the header's FP_ILOGB0 (INT_MIN) and FP_ILOGBNAN (INT_MAX).
TEST(BuiltinTest, NanAndIlogb) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global uint *u, global ulong *ul, global int *i) {
      uint4 n = as_uint4(nan((uint4)(0x7fffffu, 0u, 1u, 0x123u)));
      u[0] = n.x; u[1] = n.y; u[2] = n.z; u[3] = n.w;
      ul[0] = as_ulong(nan(1ul));
      ul[1] = as_ulong(nan((ulong2)(0xfffffffffffful, 0)).x);
      i[0] = ilogb(0.0f); i[1] = ilogb(NAN); i[2] = ilogb(INFINITY); i[3] = ilogb(0x1p-149f);
      i[4] = ilogb(-0.0); i[5] = ilogb((double)NAN); i[6] = ilogb(0x1p-1074);
      i[7] = i[0] == FP_ILOGB0 && i[1] == FP_ILOGBNAN && i[4] == FP_ILOGB0 && i[5] == FP_ILOGBNAN;
    })"));
  std::vector<uint32_t> U(4);
  std::vector<uint64_t> UL(2);
  std::vector<int32_t> I(8);
  ASSERT_TRUE(P.run("k", range1(1, 1),
                    {Arg::pointer(U.data()), Arg::pointer(UL.data()), Arg::pointer(I.data())}));
  EXPECT_EQ(U, (std::vector<uint32_t>{0x7fffffffu, 0x7fc00000u, 0x7fc00001u, 0x7fc00123u}));
  EXPECT_EQ(UL[0], 0x7ff8000000000001ull);
  EXPECT_EQ(UL[1], 0x7ff8ffffffffffffull);
  EXPECT_EQ(I, (std::vector<int32_t>{INT32_MIN, INT32_MAX, INT32_MAX, -149, INT32_MIN, INT32_MAX,
                                     -1074, 1}));
}

// The exponent-field functions, written on the bits (Math.cl), against the
// host's libm (exact for these) over zeros, subnormals, normals, the range
// ends, infinities and NaN, every pair of them, and exponents that cross
// the subnormal and overflow boundaries from either side. ilogb keeps
// OpenCL C's FP_ILOGB0 (INT_MIN) and FP_ILOGBNAN (INT_MAX).
template <typename T> void checkExponentFunctions() {
  const bool IsDouble = sizeof(T) == 8;
  using Lim = std::numeric_limits<T>;
  const std::vector<T> Values = {0,
                                 -T(0),
                                 Lim::denorm_min(),
                                 -3 * Lim::denorm_min(),
                                 Lim::min() - Lim::denorm_min(),
                                 Lim::min(),
                                 -Lim::min(),
                                 T(0.75),
                                 T(1),
                                 -T(1),
                                 T(1.5),
                                 std::nextafter(T(2), T(0)),
                                 T(-1e30),
                                 Lim::max(),
                                 -Lim::max(),
                                 Lim::infinity(),
                                 -Lim::infinity(),
                                 Lim::quiet_NaN()};
  const std::vector<int> Exponents =
      IsDouble ? std::vector<int>{INT_MIN, -2200, -2098, -1100, -1075, -1074, -1022, -1, 0, 1, 1023,
                                  1024, 2046, 2200, INT_MAX}
               : std::vector<int>{INT_MIN, -400, -300, -278, -150, -149, -126, -1, 0, 1, 127, 128,
                                  254, 300, INT_MAX};
  const size_t NV = Values.size(), NE = Exponents.size(), N = NV * NV * NE;
  std::vector<T> X(N), Y(N), Out(4 * N);
  std::vector<int> E(N), IOut(N);
  for (size_t I = 0; I < N; ++I) {
    X[I] = Values[I / (NV * NE)];
    Y[I] = Values[I / NE % NV];
    E[I] = Exponents[I % NE];
  }
  std::string T_ = IsDouble ? "double" : "float";
  Program P;
  ASSERT_TRUE(P.build("kernel void k(global const " + T_ + " *x, global const " + T_ +
                      " *y, global const int *e, global " + T_ + R"( *out, global int *iout) {
      size_t i = get_global_id(0);
      out[4 * i] = ldexp(x[i], e[i]);
      out[4 * i + 1] = logb(x[i]);
      out[4 * i + 2] = nextafter(x[i], y[i]);
      out[4 * i + 3] = fdim(x[i], y[i]);
      iout[i] = ilogb(x[i]);
    })"));
  ASSERT_TRUE(P.run("k", range1(N, 30),
                    {Arg::pointer(X.data()), Arg::pointer(Y.data()), Arg::pointer(E.data()),
                     Arg::pointer(Out.data()), Arg::pointer(IOut.data())}));
  for (size_t I = 0; I < N; ++I) {
    const T A = X[I], B = Y[I];
    SCOPED_TRACE(testing::Message() << T_ << " x = " << A << ", y = " << B << ", e = " << E[I]);
    EXPECT_TRUE(sameValue(Out[4 * I], std::ldexp(A, E[I]))) << "ldexp: " << Out[4 * I];
    EXPECT_TRUE(sameValue(Out[4 * I + 1], std::logb(A))) << "logb: " << Out[4 * I + 1];
    EXPECT_TRUE(sameValue(Out[4 * I + 2], std::nextafter(A, B))) << "nextafter: " << Out[4 * I + 2];
    EXPECT_TRUE(sameValue(Out[4 * I + 3], std::fdim(A, B))) << "fdim: " << Out[4 * I + 3];
    const int Ilogb = std::isnan(A) ? INT_MAX : A == 0 ? INT_MIN : std::isinf(A) ? INT_MAX
                                                                               : std::ilogb(A);
    EXPECT_EQ(IOut[I], Ilogb) << "ilogb";
  }
}

TEST(BuiltinTest, ExponentFunctionsAreExact) {
  checkExponentFunctions<float>();
  checkExponentFunctions<double>();
}

// 64-bit mad_sat saturates the exact a * b + c: a product that overflows
// alone can come back into range with c (this returned LONG_MAX once).
TEST(BuiltinTest, MadSat64SaturatesTheExactResult) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global long *l, global ulong *u) {
      l[0] = mad_sat(0x100000000L, 0x80000000L, -10L);
      l[1] = mad_sat(-0x100000000L, 0x80000000L, -1L);
      l[2] = mad_sat(-0x100000000L, 0x80000000L, 10L);
      l[3] = mad_sat(0x100000000L, 0x80000000L, 0L);
      l[4] = mad_sat(LONG_MIN, -1L, LONG_MIN);
      l[5] = mad_sat(LONG_MAX, LONG_MAX, LONG_MIN);
      l[6] = mad_sat(-7L, 6L, 5L);
      l[7] = mad_sat(LONG_MIN, 1L, -1L);
      u[0] = mad_sat(0x100000000UL, 0x100000000UL, 0UL);
      u[1] = mad_sat(0xffffffffUL, 0x100000001UL, 0UL);
      u[2] = mad_sat(0xffffffffUL, 0x100000001UL, 1UL);
      u[3] = mad_sat(3UL, 5UL, ULONG_MAX - 15);
      u[4] = mad_sat(3UL, 5UL, ULONG_MAX - 14);
      u[5] = mad_sat(3UL, 5UL, 7UL);
    })"));
  std::vector<int64_t> L(8);
  std::vector<uint64_t> U(6);
  ASSERT_TRUE(P.run("k", range1(1, 1), {Arg::pointer(L.data()), Arg::pointer(U.data())}));
  EXPECT_EQ(L, (std::vector<int64_t>{INT64_MAX - 9, INT64_MIN, INT64_MIN + 10, INT64_MAX, 0,
                                     INT64_MAX, -37, INT64_MIN}));
  EXPECT_EQ(U, (std::vector<uint64_t>{UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX,
                                      22}));
}

// glibc's lgamma stores the sign of gamma in the global signgam, a data race
// once work-groups run on several threads; the builtin must not touch it.
TEST(BuiltinTest, LgammaLeavesSigngamAlone) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global float *f, global double *d) {
      f[0] = lgamma(-0.5f);
      d[0] = lgamma(-0.5);
      float4 v = lgamma((float4)(-2.5f, -0.5f, 0.5f, 3.0f));
      vstore4(v, 0, f + 1);
    })"));
  std::vector<float> F(5);
  std::vector<double> D(1);
  signgam = 5;
  ASSERT_TRUE(P.run("k", range1(1, 1), {Arg::pointer(F.data()), Arg::pointer(D.data())}));
  EXPECT_EQ(signgam, 5);
  EXPECT_FLOAT_EQ(F[0], std::lgamma(-0.5f));
  EXPECT_DOUBLE_EQ(D[0], std::lgamma(-0.5));
  EXPECT_FLOAT_EQ(F[1], std::lgamma(-2.5f));
  EXPECT_FLOAT_EQ(F[4], std::lgamma(3.0f));
}

// lgamma is finite up to about 2^1013.5, where SLEEF's overflows early
// (MathShared.h), and infinite beyond; lgamma_r agrees and gives the sign.
// Work-groups of 64, so that the vector forms run.
TEST(BuiltinTest, LgammaOfHugeArguments) {
  const std::vector<double> X = {0x1p1000, 0x1.0000000000001p1010, 0x1.7313195475c4fp+1012,
                                 0x1.74c7093e8626dp+1014, 0x1.75p+1014, 0x1.7ffp+1014,
                                 0x1.6c8e5ca239029p+1016, 0x1.fffffffffffffp+1023};
  const size_t N = 256;
  std::vector<double> In(N), Out(N), OutR(N);
  std::vector<int> Sign(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = X[I % X.size()];
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global const double *x, global double *l, global double *r, global int *s) {
      size_t i = get_global_id(0);
      l[i] = lgamma(x[i]);
      r[i] = lgamma_r(x[i], s + i);
    })"));
  ASSERT_TRUE(P.run("k", range1(N, 64),
                    {Arg::pointer(In.data()), Arg::pointer(Out.data()), Arg::pointer(OutR.data()),
                     Arg::pointer(Sign.data())}));
  for (size_t I = 0; I < N; ++I) {
    long double Ref = lgammal(In[I]);
    if (Ref > std::numeric_limits<double>::max())
      EXPECT_TRUE(std::isinf(Out[I])) << std::hexfloat << In[I];
    else
      EXPECT_LE(ulpError(Out[I], Ref), 2.0L)
          << std::hexfloat << In[I] << " gives " << Out[I] << ", reference " << double(Ref);
    EXPECT_EQ(std::memcmp(&Out[I], &OutR[I], sizeof(double)), 0) << std::hexfloat << In[I];
    EXPECT_EQ(Sign[I], 1);
  }
}

// tgamma below -170, where SLEEF's is far off (Math.cl shifts the argument
// by 20): near the poles (the CTS found -1621 ulp at -172 + 2^-38), where
// the result turns subnormal, where it underflows to a zero of its sign,
// and at the poles themselves. Work-groups of 64, so that the vector forms
// run (smaller groups can run all in the loop's scalar remainder).
TEST(BuiltinTest, TgammaFarBelowZero) {
  const std::vector<double> X = {-0x1.5800000000200p+7, -0x1.5c00000000205p+7, -170.5, -171.25,
                                 -175.9999999,          -183.5,               -0x1.78e90791b6a5ap+7,
                                 -188.5,                -191.5,               -192.5,
                                 -250.25,               -1e15 - 0.5,          -172.0,
                                 -0x1p60,               -INFINITY,            -169.5};
  const size_t N = 256;
  std::vector<double> In(N), Out(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = X[I % X.size()];
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global const double *x, global double *g) {
      size_t i = get_global_id(0);
      g[i] = tgamma(x[i]);
    })"));
  ASSERT_TRUE(P.run("k", range1(N, 64), {Arg::pointer(In.data()), Arg::pointer(Out.data())}));
  for (size_t I = 0; I < N; ++I) {
    long double Ref = tgammal(In[I]);
    double Got = Out[I];
    if (std::isnan(Ref)) {
      EXPECT_TRUE(std::isnan(Got)) << std::hexfloat << In[I] << " gives " << Got;
    } else if (double(Ref) == 0.0) {
      EXPECT_EQ(Got, 0.0) << std::hexfloat << In[I];
      EXPECT_EQ(std::signbit(Got), std::signbit(Ref)) << std::hexfloat << In[I];
    } else {
      EXPECT_LE(ulpError(Got, Ref), 4.0L)
          << std::hexfloat << In[I] << " gives " << Got << ", reference " << double(Ref);
    }
  }
}

// Double log1p of tiny and subnormal x, where SLEEF's vector and scalar
// forms are far off (464 ulp at 1e-310, 0 at 2^-1074): log1p(x) rounds to
// x for |x| < 2^-52 (Math.cl). Work-groups of 64, so that the vector forms
// run, and on double8 too, whose lanes are a vectorized loop.
TEST(BuiltinTest, DoubleLog1pOfTinyArguments) {
  // Subnormal, the smallest normal and around it, then tiny and small normal.
  const std::vector<double> Subnormal = {0x1p-1074, -0x1p-1074, 1e-310, -1e-310, 0.0, -0.0};
  const std::vector<double> Normal = {
      0x1p-1022, 4e-308, -4e-308, 1e-300, 0x1p-53, -0x1p-53, 0x1.fffffffffffffp-53,
      1e-20,     3e-16,  -3e-16};
  std::vector<double> X = Subnormal;
  X.insert(X.end(), Normal.begin(), Normal.end());
  const size_t N = 256;
  Buffer<double> In(N), Out(N), Out8(N);
  for (size_t I = 0; I < N; ++I)
    In[I] = X[I % X.size()];
  Program P;
  ASSERT_TRUE(P.build(R"(
    #pragma OPENCL EXTENSION cl_khr_fp64 : enable
    kernel void k(global const double *x, global double *y) {
      size_t i = get_global_id(0);
      y[i] = log1p(x[i]);
    }
    kernel void k8(global const double8 *x, global double8 *y) {
      size_t i = get_global_id(0);
      y[i] = log1p(x[i]);
    })"));
  ASSERT_TRUE(P.run("k", range1(N, 64), {Arg::pointer(In.data()), Arg::pointer(Out.data())}));
  ASSERT_TRUE(P.run("k8", range1(N / 8, 8), {Arg::pointer(In.data()), Arg::pointer(Out8.data())}));
  for (size_t I = 0; I < N; ++I) {
    long double Ref = log1pl(In[I]);
    for (double Got : {Out[I], Out8[I]}) {
      if (std::fabs(In[I]) < 0x1p-52)
        EXPECT_TRUE(sameValue(Got, In[I])) << std::hexfloat << In[I] << " gives " << Got;
      else
        EXPECT_LE(ulpError(Got, Ref), 2.0L)
            << std::hexfloat << In[I] << " gives " << Got << ", reference " << double(Ref);
    }
  }
}

// Double exp and expm1 are Weft's own (Math.cl): their special values and
// the ends of their ranges (overflow, the subnormals, -1) against glibc.
TEST(BuiltinTest, DoubleExpAndExpm1SpecialValues) {
  const double Inf = INFINITY, NaN = NAN;
  const std::vector<double> X = {0.0,    -0.0,    Inf,        -Inf,     NaN,     1e300,
                                 -1e300, 710.0,   709.782712893384, -745.13321910194110,
                                 -745.2, -708.4,  -40.0,      -37.5,    38.8,    0x1p-60,
                                 -0x1p-60, 0x1p-54, 0.34657359027997264, -1.0};
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global const double *x, global double *e, global double *m) {
      size_t i = get_global_id(0);
      e[i] = exp(x[i]);
      m[i] = expm1(x[i]);
    })"));
  std::vector<double> E(X.size()), M(X.size());
  ASSERT_TRUE(P.run("k", range1(X.size(), 1),
                    {Arg::pointer(const_cast<double *>(X.data())), Arg::pointer(E.data()),
                     Arg::pointer(M.data())}));
  auto same = [](double Got, double Want) {
    if (std::isnan(Want))
      return std::isnan(Got);
    if (Got == Want)
      return std::signbit(Got) == std::signbit(Want);
    // Otherwise within an ulp of glibc (exact at these inputs but for the
    // rounding of a non-special result).
    return std::fabs(Got - Want) <= std::fabs(std::nextafter(Want, INFINITY) - Want);
  };
  for (size_t I = 0; I < X.size(); ++I) {
    EXPECT_TRUE(same(E[I], std::exp(X[I]))) << "exp(" << X[I] << ") = " << E[I];
    EXPECT_TRUE(same(M[I], std::expm1(X[I]))) << "expm1(" << X[I] << ") = " << M[I];
  }
  EXPECT_EQ(E[9], 0x1p-1074); // exp(-745.133...) is the least subnormal
  EXPECT_TRUE(std::signbit(M[1]));
  EXPECT_EQ(M[3], -1.0);
}

// The transcendental functions against a long double reference at OpenCL
// C's ulp bounds (7.4), one kernel per function over 16384 work-items, so
// that each loop vectorizes and the vector forms of libmvec (where present)
// and SLEEF (VectorMath.cpp), or Math.cl's own, are what runs. Inputs:
// float bit patterns spread over every exponent, or doubles over every
// exponent and many within 2^±30; for the two-argument functions, pairs of
// them.
template <typename T> void checkVectorMathBounds() {
  const bool IsDouble = sizeof(T) == 8;
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  using Lim = std::numeric_limits<T>;
  struct Fn {
    const char *Name;
    int Bound;
    long double (*Ref)(long double, long double);
  };
  const std::vector<Fn> Fns = {
      {"acos", 4, [](long double X, long double) { return std::acos(X); }},
      {"acosh", 4, [](long double X, long double) { return std::acosh(X); }},
      {"asin", 4, [](long double X, long double) { return std::asin(X); }},
      {"asinh", 4, [](long double X, long double) { return std::asinh(X); }},
      {"atan", 5, [](long double X, long double) { return std::atan(X); }},
      {"atanh", 5, [](long double X, long double) { return std::atanh(X); }},
      {"cbrt", 2, [](long double X, long double) { return std::cbrt(X); }},
      {"cos", 4, [](long double X, long double) { return std::cos(X); }},
      {"cosh", 4, [](long double X, long double) { return std::cosh(X); }},
      {"erf", 16, [](long double X, long double) { return std::erf(X); }},
      {"erfc", 16, [](long double X, long double) { return std::erfc(X); }},
      {"exp", 3, [](long double X, long double) { return std::exp(X); }},
      {"exp2", 3, [](long double X, long double) { return std::exp2(X); }},
      {"exp10", 3, [](long double X, long double) { return std::pow(10.0L, X); }},
      {"expm1", 3, [](long double X, long double) { return std::expm1(X); }},
      {"log", 3, [](long double X, long double) { return std::log(X); }},
      {"log2", 3, [](long double X, long double) { return std::log2(X); }},
      {"log10", 3, [](long double X, long double) { return std::log10(X); }},
      {"log1p", 2, [](long double X, long double) { return std::log1p(X); }},
      {"sin", 4, [](long double X, long double) { return std::sin(X); }},
      {"sinh", 4, [](long double X, long double) { return std::sinh(X); }},
      {"tan", 5, [](long double X, long double) { return std::tan(X); }},
      {"tanh", 5, [](long double X, long double) { return std::tanh(X); }},
      {"tgamma", 16, [](long double X, long double) { return std::tgamma(X); }},
      {"atan2", 6, [](long double Y, long double X) { return std::atan2(Y, X); }},
      {"hypot", 4, [](long double X, long double Y) { return std::hypot(X, Y); }},
      {"pow", 16, [](long double X, long double Y) { return std::pow(X, Y); }},
      {"remainder", 0, [](long double X, long double Y) { return std::remainder(X, Y); }}};
  const size_t N = 16384;
  std::vector<T> X(N), Y(N);
  uint64_t State = 0x9e3779b97f4a7c15ull;
  auto next = [&State] {
    State ^= State << 13;
    State ^= State >> 7;
    State ^= State << 17;
    return State;
  };
  const int Bias = Lim::max_exponent - 1, Mant = Lim::digits - 1;
  for (size_t I = 0; I < N; ++I)
    for (T *V : {&X[I], &Y[I]}) {
      Bits B = Bits(next());
      if (I % 2) // within 2^±30: the part of the domain most programs use
        B = (B & ~(Bits(0x7ff) << Mant)) | (Bits(Bias - 30 + next() % 60) << Mant);
      std::memcpy(V, &B, sizeof(T));
    }
  std::string TN = IsDouble ? "double" : "float", Source;
  for (const Fn &F : Fns) {
    bool Binary = std::string(F.Name) == "atan2" || F.Name == std::string("hypot") ||
                  F.Name == std::string("pow") || F.Name == std::string("remainder");
    Source += "kernel void " + std::string(F.Name) + "_k(global const " + TN +
              " *x, global const " + TN + " *y, global " + TN +
              " *out) { size_t i = get_global_id(0); out[i] = " + F.Name +
              (Binary ? "(x[i], y[i]); }\n" : "(x[i]); }\n");
  }
  Program P;
  ASSERT_TRUE(P.build(Source));
  std::vector<T> Out(N);
  for (const Fn &F : Fns) {
    ASSERT_TRUE(P.run(std::string(F.Name) + "_k", range1(N, 64),
                      {Arg::pointer(X.data()), Arg::pointer(Y.data()), Arg::pointer(Out.data())}));
    double Worst = 0;
    size_t Failures = 0;
    for (size_t I = 0; I < N; ++I) {
      long double Ref = F.Ref(X[I], Y[I]);
      T Got = Out[I];
      bool Ok;
      double Err = 0;
      if (std::isnan(Ref))
        Ok = std::isnan(Got);
      else if (std::fabs(Ref) > Lim::max()) // overflow: infinity, or the largest value
        Ok = std::signbit(Got) == std::signbit(Ref) && std::fabs(Got) >= Lim::max();
      else if (std::isnan(Got) || std::isinf(Got))
        Ok = false;
      else {
        Err = double(ulpError(Got, Ref));
        Ok = Err <= F.Bound;
        Worst = std::max(Worst, Err);
      }
      if (!Ok && Failures++ < 3)
        ADD_FAILURE() << TN << " " << F.Name << "(" << std::hexfloat << X[I] << ", " << Y[I]
                      << ") = " << Got << ", reference " << double(Ref) << std::defaultfloat
                      << " (" << Err << " ulp, bound " << F.Bound << ")";
    }
    EXPECT_EQ(Failures, 0u) << TN << " " << F.Name << ": worst " << Worst << " ulp";
  }
}

TEST(BuiltinTest, VectorMathMeetsTheBounds) {
  checkVectorMathBounds<float>();
  checkVectorMathBounds<double>();
}

TEST(BuiltinTest, MathWithPointerNamedAddressSpaces) {
  for (int Width : {1, 2, 4, 16})
    checkMathPointer<float>("-cl-std=CL1.2", Width);
  for (int Width : {1, 3, 8})
    checkMathPointer<double>("-cl-std=CL1.2", Width);
}

TEST(BuiltinTest, MathWithPointerGenericAddressSpace) {
  for (int Width : {1, 3, 8})
    checkMathPointer<float>("-cl-std=CL3.0", Width);
  for (int Width : {1, 2, 4, 16})
    checkMathPointer<double>("-cl-std=CL3.0", Width);
}

} // namespace weft::compiler::test
