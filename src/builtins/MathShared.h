// Math cores that Math.cl and MathPointer.cl share: remquo's, which
// remainder uses without the quotient, lgamma's, which lgamma_r uses, and
// the sign of gamma, which lgamma_r returns and tgamma's zeros carry.
#pragma once

// A double function of the host's, by its symbol, pure so that the loop
// vectorizer may replace it with a vector form (VectorMath).
#define HOST_LIBM(NAME, SYMBOL) double NAME(double) __attribute__((const)) __asm__(SYMBOL);

// SLEEF's scalar lgamma, which vectorizes (VectorMath): glibc's writes the
// global signgam, a data race between work-groups run on different threads.
// SLEEF's overflows from about 0x1.74cp+1014, where lgamma is still finite
// (up to 2^1024 / 701.9): from 2^1010, lgamma(x) = x (log x - 1) to within
// 1.22 ulp (the terms left out are below 2^-1000 of it).
HOST_LIBM(hostLgamma, "Sleef_lgamma_u10")
static INL double lgammaD(double x) {
  return x > 0x1p1010 ? x * (__builtin_log(x) - 1.0) : hostLgamma(x);
}
// Floats are below 2^128, within SLEEF's range: float lgamma is SLEEF's in
// double, with no logarithm to discard.
static INL float lgammaF(float x) { return (float)hostLgamma((double)x); }

// The sign of gamma(x): negative at -0 and where a negative non-integer x
// has an odd floor (x in (-1, 0), (-3, -2), ...); +1 at the poles, the
// infinities and NaN, as glibc's lgamma_r. A negative non-integer is above
// -2^52, so its floor and half of that are exact.
static INL int gammaSign(double x) {
  double Fl = __builtin_floor(x);
  bool OddFloor = Fl * 0.5 != __builtin_floor(Fl * 0.5);
  // Bitwise, not short-circuit (no operand has a side effect): the same
  // truth table without branches, and a float4 kernel calling tgamma ran
  // about 90 rather than 97 ms per 4 Mi floats.
  bool Neg = ((x < 0.0) & (Fl != x) & OddFloor) | ((x == 0.0) & (__builtin_signbit(x) != 0));
  return Neg ? -1 : 1;
}

// remquo and remainder vectorize, with fmod's frem as their only call.
// remquo: Rem = fmod(|x|, 128|y|) is exact and keeps the seven low bits of
// the quotient, which are taken off one at a time: Rem >= k|y| means k|y| <=
// Rem < 2k|y|, so Rem - k|y| is exact (and contracting it to an fma changes
// nothing). 128|y| overflowing to inf is right too: then |x| < 128|y| and
// fmod gives |x|. The remainder then rounds to the nearest multiple, ties to
// an even quotient; |y| - Rem is exact whenever it could decide the
// comparison. NaN, x = inf and y = 0 come out of fmod as NaN with quo = 0;
// y = inf gives x and quo = 0.
#define REMQUO_CORE(T, TS, SUF, UT, SIGN_BIT)                                                      \
  static INL T remquo##TS(T x, T y, __private int *quo) {                                          \
    T Ax = __builtin_fabs##SUF(x), Ay = __builtin_fabs##SUF(y);                                    \
    T Rem = __builtin_fmod##SUF(Ax, (T)128 * Ay);                                                  \
    int Q = 0;                                                                                     \
    for (int K = 64; K >= 1; K >>= 1)                                                              \
      if (Rem >= (T)K * Ay) {                                                                      \
        Rem -= (T)K * Ay;                                                                          \
        Q += K;                                                                                    \
      }                                                                                            \
    T Rest = Ay - Rem;                                                                             \
    if (Rem > Rest || (Rem == Rest && (Q & 1))) {                                                  \
      Rem -= Ay;                                                                                   \
      ++Q;                                                                                         \
    }                                                                                              \
    Q &= 0x7f;                                                                                     \
    *quo = (__builtin_signbit(x) != __builtin_signbit(y)) ? -Q : Q;                                \
    /* r = x - k*y has the sign of x when it is zero, else Rem's times x's */                      \
    return as_##T(as_##UT(Rem) ^ (as_##UT(x) & SIGN_BIT));                                         \
  }
// TS names the core (F or D), SUF the clang builtin (f or nothing).
REMQUO_CORE(float, F, f, uint, 0x80000000u)
REMQUO_CORE(double, D, , ulong, 0x8000000000000000ul)
