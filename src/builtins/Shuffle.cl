// shuffle and shuffle2 (OpenCL C 6.15.13): every element type, input and
// result widths 2, 4, 8 and 16. Element i of the result is element
// mask[i] % M of the input (of the concatenation x, y for shuffle2); only
// the low bits of each mask element count, as the specification says.
#include "BuiltinMacros.h"

#define SHUFFLE(T, UT, M, N)                                                                       \
  OVL T##N shuffle(T##M x, UT##N mask) {                                                           \
    union { T##M v; T s[M]; } In = {x};                                                            \
    union { UT##N v; UT s[N]; } Mask = {mask};                                                     \
    union { T##N v; T s[N]; } Out;                                                                 \
    for (int i = 0; i < N; ++i)                                                                    \
      Out.s[i] = In.s[Mask.s[i] % M];                                                              \
    return Out.v;                                                                                  \
  }                                                                                                \
  OVL T##N shuffle2(T##M x, T##M y, UT##N mask) {                                                  \
    union { T##M v[2]; T s[2 * M]; } In = {{x, y}};                                                \
    union { UT##N v; UT s[N]; } Mask = {mask};                                                     \
    union { T##N v; T s[N]; } Out;                                                                 \
    for (int i = 0; i < N; ++i)                                                                    \
      Out.s[i] = In.s[Mask.s[i] % (2 * M)];                                                        \
    return Out.v;                                                                                  \
  }
#define SHUFFLE_N(T, UT, M) SHUFFLE(T, UT, M, 2) SHUFFLE(T, UT, M, 4) SHUFFLE(T, UT, M, 8) SHUFFLE(T, UT, M, 16)
#define SHUFFLES(T, UT) SHUFFLE_N(T, UT, 2) SHUFFLE_N(T, UT, 4) SHUFFLE_N(T, UT, 8) SHUFFLE_N(T, UT, 16)

SHUFFLES(char, uchar)
SHUFFLES(uchar, uchar)
SHUFFLES(short, ushort)
SHUFFLES(ushort, ushort)
SHUFFLES(int, uint)
SHUFFLES(uint, uint)
SHUFFLES(long, ulong)
SHUFFLES(ulong, ulong)
SHUFFLES(float, uint)
SHUFFLES(double, ulong)
