// ExactFmod, the fmod and fmodf the JIT'd kernels call: bit for bit the
// host libm's (fmod is exact, so there is one right answer) on the special
// values, on quotients from 1 to 2^2097, subnormals and near-multiples, and
// on random bit patterns; and through kernels, whose fmod, remainder and
// remquo reach it from frem.
#include "KernelRunner.h"
#include "MathReference.h"

#include "compiler/vectorize/ExactFmod.h"

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

// fmod, remainder and remquo in a kernel on Type or its Width-lane vectors
// (frem: vector frems in vector registers, VectorFremPass; a lane that
// needs more, and scalar frems, through ExactFmod), against libm.
template <typename T>
void checkKernel(const std::string &Type, int Width, Buffer<T> &X, Buffer<T> &Y) {
  SCOPED_TRACE(Type + " x" + std::to_string(Width));
  const std::string N = Width == 1 ? "" : std::to_string(Width);
  const std::string Load = Width == 1 ? "(p)[i]" : "vload" + N + "(i, p)";
  const std::string Store = Width == 1 ? "(p)[i] = (v)" : "vstore" + N + "(v, i, p)";
  Program P;
  ASSERT_TRUE(P.build("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                      "#define LOAD(p) " + Load + "\n#define STORE(v, p) " + Store + "\n"
                      "kernel void k(global const " + Type + " *x, global const " + Type +
                      " *y, global " + Type + " *f, global " + Type + " *r, global " + Type +
                      " *rq, global int *q) {\n"
                      "  size_t i = get_global_id(0);\n"
                      "  " + Type + N + " a = LOAD(x), b = LOAD(y);\n"
                      "  int" + N + " n;\n"
                      "  STORE(fmod(a, b), f);\n"
                      "  STORE(remainder(a, b), r);\n"
                      "  STORE(remquo(a, b, &n), rq);\n"
                      "  STORE(n, q);\n"
                      "}\n"));
  const size_t Count = X.size();
  Buffer<T> F(Count), R(Count), Rq(Count);
  Buffer<int> Q(Count);
  ASSERT_TRUE(P.run("k", range1(Count / Width, 64),
                    {Arg::pointer(X.data()), Arg::pointer(Y.data()), Arg::pointer(F.data()),
                     Arg::pointer(R.data()), Arg::pointer(Rq.data()), Arg::pointer(Q.data())}));
  int Failures = 0;
  for (size_t I = 0; I < Count && Failures < 20; ++I) {
    int RefQ = 0;
    T Fm = libmFmod(X[I], Y[I]), Rem = std::remainder(X[I], Y[I]),
      RemQ = std::remquo(X[I], Y[I], &RefQ);
    // quo: unspecified for x = ±inf, y = 0 and NaN; else the sign and the
    // seven low bits of the quotient, whose three lowest are glibc's.
    bool QOk = !std::isfinite(X[I]) || std::isnan(Y[I]) || Y[I] == 0 ||
               (Q[I] == quo7Ref(X[I], Y[I]) && (std::abs(Q[I]) & 7) == (std::abs(RefQ) & 7));
    if (!sameValue(F[I], Fm) || !sameValue(R[I], Rem) || !sameValue(Rq[I], RemQ) || !QOk) {
      ++Failures;
      std::ostringstream S;
      S << std::hexfloat << "x=" << X[I] << " y=" << Y[I] << ": fmod " << F[I] << " (" << Fm
        << "), remainder " << R[I] << " (" << Rem << "), remquo " << Rq[I] << " (" << RemQ
        << ") quo " << Q[I] << " (" << RefQ << ")";
      ADD_FAILURE() << S.str();
    }
  }
}

template <typename T> T randomBits(std::mt19937_64 &Rng) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  return fromBits<T>(Bits(Rng()));
}

// Random bit patterns: every exponent difference, nearly every vector with
// a lane for the scalar fmod.
template <typename T> void checkRandomBits(const std::string &Type) {
  constexpr size_t N = 1 << 14;
  Buffer<T> X(N), Y(N);
  std::mt19937_64 Rng(7);
  for (size_t I = 0; I < N; ++I) {
    X[I] = randomBits<T>(Rng);
    Y[I] = randomBits<T>(Rng);
  }
  checkKernel(Type, 1, X, Y);
}

// What kernels mostly meet: quotients below 2^60 (most below VectorFremPass's
// 2^52), x near a multiple of y, both signs, subnormals; and in one run of 16
// elements in 5 a pair of edge values (inf, NaN, zero, huge quotients), so
// that most vectors take the vector path and some the scalar one.
template <typename T> void checkSmallQuotients(const std::string &Type, int Width) {
  constexpr size_t N = 1 << 16;
  constexpr int Digits = std::numeric_limits<T>::digits;
  const std::vector<T> Edges = edgeValues<T>();
  Buffer<T> X(N), Y(N);
  std::mt19937_64 Rng(11);
  for (size_t I = 0; I < N; ++I) {
    T Yv;
    do
      Yv = randomBits<T>(Rng);
    while (!std::isfinite(Yv) || Yv == 0);
    T K = std::ldexp(T(Rng() >> 11), int(Rng() % 60) - Digits);
    T Xv = std::trunc(K) * Yv;
    if (Rng() % 3 == 0)
      Xv = std::nextafter(Xv, Rng() % 2 ? T(0) : std::numeric_limits<T>::infinity());
    else if (Rng() % 3 == 0)
      Xv = K * Yv;
    X[I] = std::isfinite(Xv) ? Xv : Yv;
    Y[I] = Yv;
  }
  for (size_t Run = 0; Run < N / 16; Run += 5) {
    X[Run * 16 + Run % 16] = Edges[Rng() % Edges.size()];
    Y[Run * 16 + Run % 16] = Edges[Rng() % Edges.size()];
  }
  checkKernel(Type, Width, X, Y);
}

TEST(ExactFmodTest, KernelsMatchLibm) {
  checkRandomBits<float>("float");
  checkRandomBits<double>("double");
}

// The same with quotients VectorFremPass computes in vector registers, in
// kernels on scalars (the work-item loop vectorized) and on vectors.
TEST(ExactFmodTest, VectorKernelsMatchLibm) {
  for (int Width : {1, 4, 8, 16}) {
    checkSmallQuotients<float>("float", Width);
    checkSmallQuotients<double>("double", Width);
  }
}

} // namespace weft::compiler::test
