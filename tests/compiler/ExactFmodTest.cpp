// ExactFmod, the fmod and fmodf the JIT'd kernels call: bit for bit the
// host libm's (fmod is exact, so there is one right answer) on the special
// values, on quotients from 1 to 2^2097, subnormals and near-multiples, and
// on random bit patterns; and through kernels, whose fmod, remainder and
// remquo reach it from frem.
#include "KernelRunner.h"
#include "MathReference.h"

#include "compiler/ExactFmod.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

namespace weft::compiler::test {

namespace {

template <typename T> T fromBits(uint64_t Bits) {
  T V;
  if constexpr (sizeof(T) == 4) {
    uint32_t B = uint32_t(Bits);
    std::memcpy(&V, &B, 4);
  } else {
    std::memcpy(&V, &Bits, 8);
  }
  return V;
}

float libmFmod(float X, float Y) { return ::fmodf(X, Y); }
double libmFmod(double X, double Y) { return ::fmod(X, Y); }
float exactFmod(float X, float Y) { return ExactFmod::fmodf(X, Y); }
double exactFmod(double X, double Y) { return ExactFmod::fmod(X, Y); }

// Values that reach every path: the special ones, both ends of the normal
// and subnormal ranges, and pairs whose quotient is just below or above an
// integer, a power of two or 2^52 (the one-step path's limit).
template <typename T> std::vector<T> edgeValues() {
  using L = std::numeric_limits<T>;
  std::vector<T> V = {0,
                      L::infinity(),
                      L::quiet_NaN(),
                      L::denorm_min(),
                      L::denorm_min() * 3,
                      L::min(),
                      std::nextafter(L::min(), T(0)),
                      L::max(),
                      std::nextafter(L::max(), T(0)),
                      1,
                      std::nextafter(T(1), T(2)),
                      std::nextafter(T(1), T(0)),
                      T(0.1),
                      T(3),
                      T(0x1p52),
                      std::nextafter(T(0x1p52), T(0)),
                      T(0x1p53) + 2,
                      T(6.283185307179586),
                      T(1e30),
                      T(1e-30)};
  size_t N = V.size();
  for (size_t I = 0; I < N; ++I)
    V.push_back(-V[I]);
  return V;
}

template <typename T> void expectSameAsLibm(T X, T Y, int &Failures) {
  T Got = exactFmod(X, Y), Want = libmFmod(X, Y);
  if (!sameValue(Got, Want) && ++Failures <= 20) {
    std::ostringstream S;
    S << std::hexfloat << "fmod(" << X << ", " << Y << ") = " << Got << ", libm " << Want;
    ADD_FAILURE() << S.str();
  }
}

template <typename T> void checkAgainstLibm() {
  int Failures = 0;
  std::vector<T> Edges = edgeValues<T>();
  for (T X : Edges)
    for (T Y : Edges)
      expectSameAsLibm(X, Y, Failures);
  std::mt19937_64 Rng(20261122);
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  constexpr int Digits = std::numeric_limits<T>::digits;
  constexpr int MaxExp = std::numeric_limits<T>::max_exponent;
  for (int I = 0; I < 200000; ++I) {
    // Random bit patterns: exponent differences spread over the whole range.
    expectSameAsLibm(fromBits<T>(Bits(Rng())), fromBits<T>(Bits(Rng())), Failures);
    // x a multiple of y, one ulp off it, or a random quotient below 2^60.
    T Y = fromBits<T>(Bits(Rng()) >> 1);
    if (!std::isfinite(Y) || Y == 0)
      continue;
    T K = std::ldexp(T(Rng() >> 11), int(Rng() % 60) - Digits);
    T X = std::trunc(K) * Y;
    if (std::isfinite(X)) {
      expectSameAsLibm(X, Y, Failures);
      expectSameAsLibm(std::nextafter(X, T(0)), Y, Failures);
      expectSameAsLibm(std::nextafter(X, std::numeric_limits<T>::infinity()), Y, Failures);
    }
    // Subnormal y under every x exponent.
    T Ys = fromBits<T>(Bits(Rng()) & ((Bits(1) << (Digits - 1)) - 1));
    T Xs = std::ldexp(T(1) + T(Rng() % 1000) / 1000, int(Rng() % (2 * MaxExp)) - MaxExp);
    expectSameAsLibm(Xs, Ys, Failures);
  }
  EXPECT_EQ(Failures, 0);
}

} // namespace

TEST(ExactFmodTest, FloatMatchesLibmBitForBit) { checkAgainstLibm<float>(); }

TEST(ExactFmodTest, DoubleMatchesLibmBitForBit) { checkAgainstLibm<double>(); }

// The signs: the result has x's, including a zero one; y's sign is ignored.
TEST(ExactFmodTest, ZeroResultsTakeTheSignOfX) {
  EXPECT_TRUE(sameValue(ExactFmod::fmod(-6.0, 3.0), -0.0));
  EXPECT_TRUE(sameValue(ExactFmod::fmod(6.0, -3.0), 0.0));
  EXPECT_TRUE(sameValue(ExactFmod::fmod(-0x1p1000, 0x1p-1000), -0.0));
  EXPECT_TRUE(sameValue(ExactFmod::fmodf(-0x1p100f, 0x1p-140f), -0.0f));
  EXPECT_TRUE(sameValue(ExactFmod::fmod(-7.0, -2.0), -1.0));
  EXPECT_TRUE(std::isnan(ExactFmod::fmod(std::numeric_limits<double>::infinity(), 2.0)));
  EXPECT_TRUE(std::isnan(ExactFmod::fmod(2.0, -0.0)));
  EXPECT_TRUE(sameValue(ExactFmod::fmod(-2.0, std::numeric_limits<double>::infinity()), -2.0));
}

// fmod, remainder and remquo in kernels (frem, resolved to ExactFmod by the
// JIT) on random bit patterns with every exponent difference, against libm.
template <typename T> void checkKernels(const std::string &Type) {
  SCOPED_TRACE(Type);
  Program P;
  ASSERT_TRUE(P.build("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                      "kernel void k(global const " +
                      Type + " *x, global const " + Type + " *y, global " + Type +
                      " *r, global int *q) {\n"
                      "  size_t i = get_global_id(0);\n"
                      "  r[3 * i] = fmod(x[i], y[i]);\n"
                      "  r[3 * i + 1] = remainder(x[i], y[i]);\n"
                      "  r[3 * i + 2] = remquo(x[i], y[i], &q[i]);\n"
                      "}\n"));
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  constexpr size_t N = 1 << 14;
  std::vector<T> X(N), Y(N), R(3 * N);
  std::vector<int> Q(N);
  std::mt19937_64 Rng(7);
  for (size_t I = 0; I < N; ++I) {
    X[I] = fromBits<T>(Bits(Rng()));
    Y[I] = fromBits<T>(Bits(Rng()));
  }
  ASSERT_TRUE(P.run("k", range1(N, 64),
                    {Arg::pointer(X.data()), Arg::pointer(Y.data()), Arg::pointer(R.data()),
                     Arg::pointer(Q.data())}));
  int Failures = 0;
  for (size_t I = 0; I < N && Failures < 20; ++I) {
    int RefQ = 0;
    T Fm = libmFmod(X[I], Y[I]), Rem = std::remainder(X[I], Y[I]),
      Rq = std::remquo(X[I], Y[I], &RefQ);
    // quo: unspecified for x = ±inf, y = 0 and NaN; else the sign and the
    // seven low bits of the quotient, whose three lowest are glibc's.
    bool QOk = !std::isfinite(X[I]) || std::isnan(Y[I]) || Y[I] == 0 ||
               (Q[I] == quo7Ref(X[I], Y[I]) && (std::abs(Q[I]) & 7) == (std::abs(RefQ) & 7));
    if (!sameValue(R[3 * I], Fm) || !sameValue(R[3 * I + 1], Rem) || !sameValue(R[3 * I + 2], Rq) ||
        !QOk) {
      ++Failures;
      std::ostringstream S;
      S << std::hexfloat << "x=" << X[I] << " y=" << Y[I] << ": fmod " << R[3 * I] << " (" << Fm
        << "), remainder " << R[3 * I + 1] << " (" << Rem << "), remquo " << R[3 * I + 2] << " ("
        << Rq << ") quo " << Q[I] << " (" << RefQ << ")";
      ADD_FAILURE() << S.str();
    }
  }
}

TEST(ExactFmodTest, KernelsMatchLibm) {
  checkKernels<float>("float");
  checkKernels<double>("double");
}

} // namespace weft::compiler::test
