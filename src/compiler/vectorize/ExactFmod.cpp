// ExactFmod (see the header). The reduction, for finite x and y != 0:
//
//   R = |x|; while R >= |y|:
//     Ys = |y| 2^s, s = max(ilogb(R) - ilogb(|y|) - 51, 0)   (exact)
//     Q  = trunc(R / Ys)                                      (<= 2^52)
//     R  = R - Q Ys; if R < 0: R += Ys                        (exact, below)
//
// R stays congruent to |x| modulo |y|, and each step with s > 0 takes at
// least 51 bits off R's exponent, so a double takes at most 42 steps and a
// float (computed in double) 6; glibc 2.36 takes one step per bit.
//
// Why each step is exact: R / Ys < 2^52, so its rounded value is within a
// quarter of the true quotient and, rounding being monotonic, Q is the
// true quotient's integer part n or n + 1. R - Q Ys is then in [-Ys, Ys),
// and it is a multiple of Ys's quantum 2^(ilogb(Ys) - 52) (as R >= Ys is):
// a double. The fused multiply-add rounds only the result, which is exact,
// and so is adding Ys back to a negative one. Subnormal y scales up exactly.
#include "compiler/vectorize/ExactFmod.h"

#include <cmath>
#include <limits>

namespace weft::compiler::ExactFmod {

double fmod(double X, double Y) {
  if (std::isnan(X) || std::isnan(Y))
    return X + Y;
  if (std::isinf(X) || Y == 0)
    return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(Y))
    return X;
  const double Ay = std::fabs(Y);
  double R = std::fabs(X);
  // The common case, a quotient below 2^52 (x = 0 and |x| < |y| too), in
  // one step without the exponents.
  double Q = std::trunc(R / Ay);
  if (Q < 0x1p52) {
    R = std::fma(-Q, Ay, R);
    return std::copysign(R < 0 ? R + Ay : R, X);
  }
  const int EY = std::ilogb(Ay);
  while (R >= Ay) {
    int S = std::ilogb(R) - EY - 51;
    double Ys = S > 0 ? std::scalbn(Ay, S) : Ay;
    Q = std::trunc(R / Ys);
    R = std::fma(-Q, Ys, R);
    if (R < 0)
      R += Ys;
  }
  return std::copysign(R, X);
}

// Every float is a normal double and the float result is the double one,
// which is exact; the exponents differ by at most 127 + 149.
float fmodf(float X, float Y) { return float(fmod(double(X), double(Y))); }

} // namespace weft::compiler::ExactFmod
