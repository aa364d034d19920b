// The core of remquo, shared by remquo (MathPointer.cl) and remainder
// (Math.cl), which drops the quotient: both vectorize, with fmod's frem
// as their only call.
#pragma once

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
