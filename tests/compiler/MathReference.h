// Host references the math builtin tests share: equality of results bit for
// bit (any NaN equals any NaN), their distance in ulps, and the seven low bits of remquo's quotient,
// which glibc's remquo does not give (it gives three).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace weft::compiler::test {

template <typename T> bool sameValue(T A, T B) {
  return (std::isnan(A) && std::isnan(B)) || std::memcmp(&A, &B, sizeof(T)) == 0;
}

// Distance in units in the last place between finite values (opposite signs,
// even ±0, count as far apart).
template <typename T> int64_t ulpDistance(T A, T B) {
  using Bits = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  Bits IA, IB;
  std::memcpy(&IA, &A, sizeof(T));
  std::memcpy(&IB, &B, sizeof(T));
  return IA < IB ? int64_t(IB) - IA : int64_t(IA) - IB;
}

// The seven low bits of remquo's quotient, with the sign of x/y: fmod by
// 128|y| in long double is exact, the quotient below 128 comes out of one
// division, and the sign of remainder() says whether the nearest quotient is
// the next one. For finite x and y != 0.
template <typename T> int quo7Ref(T X, T Y) {
  long double Ax = std::fabs((long double)X), Ay = std::fabs((long double)Y);
  int K = int(std::floor(std::fmod(Ax, 128 * Ay) / Ay));
  if (std::remainder(std::fabs(X), std::fabs(Y)) < 0)
    ++K;
  K &= 0x7f;
  return std::signbit(X) != std::signbit(Y) ? -K : K;
}

} // namespace weft::compiler::test
