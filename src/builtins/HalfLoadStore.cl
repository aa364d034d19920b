// vload_half, vloada_half, vstore_half and vstorea_half with every rounding
// mode (OpenCL C 6.15.8.1): half values in memory, float (or double) values
// in registers. Core OpenCL C, needed with or without cl_khr_fp16, so the
// conversions are done on the bits with integer arithmetic, exactly.
// Included by PointerBuiltins.cl, once per address-space set.

#ifndef WEFT_HALF_CONVERSIONS
#define WEFT_HALF_CONVERSIONS

// The conversions are straight-line code, selects rather than branches:
// a kernel that loads or stores halves in its work-item loop must still
// vectorize, and the loop vectorizer gives up on a switch (which
// SimplifyCFG makes of a chain of tests on one exponent field).

/// The float a half's bits stand for (always exact).
static INL float halfBitsToFloat(ushort h) {
  uint Sign = (uint)(h & 0x8000) << 16;
  uint Exp = (h >> 10) & 0x1f, Mant = h & 0x3ff;
  // Normal: rebias the exponent; infinity or NaN (payload kept): 255.
  uint Bits = ((Exp + 112 + (Exp == 31 ? 112u : 0u)) << 23) | (Mant << 13);
  // Zero or denormal: Mant * 2^-24, exact in float.
  Bits = Exp == 0 ? as_uint((float)Mant * 0x1p-24f) : Bits;
  return as_float(Sign | Bits);
}

// Rounding modes of vstore_half: to nearest even, toward zero, +inf, -inf.
#define RTE 0
#define RTZ 1
#define RTP 2
#define RTN 3

/// The half bits nearest (by Mode, a constant once inlined) to a binary
/// floating value with the given sign, unbiased exponent E and significand
/// M (with its leading one, or 0 for zero) of MBITS fraction bits. U is
/// the unsigned integer type holding M.
#define TO_HALF(U, MBITS)                                                                          \
  static INL ushort toHalf##MBITS(uint Sign, int E, U M, int Mode) {                               \
    /* The half's unit in the last place is 2^(max(E, -14) - 10). */                               \
    int Shift = (MBITS - 10) + ((E < -14 ? -14 : E) - E);                                          \
    /* So far below that the whole of M is under half an ulp: shift by */                          \
    /* less, keeping nothing (M < 2^(MBITS+1) <= half of 2^(width-1)). */                          \
    bool Far = Shift >= (int)(8 * sizeof(U));                                                      \
    int S = Far ? (int)(8 * sizeof(U)) - 1 : Shift;                                                \
    U Q = Far ? (U)0 : M >> S;                                                                     \
    U Rem = M & ((((U)1) << S) - 1);                                                               \
    U Half = ((U)1) << (S - 1);                                                                    \
    bool Up = Mode == RTE   ? Rem > Half || (Rem == Half && (Q & 1))                               \
              : Mode == RTP ? Rem != 0 && !Sign                                                    \
              : Mode == RTN ? Rem != 0 && Sign                                                     \
                            : false;                                                               \
    Q += Up;                                                                                       \
    /* Normal: the exponent field is E + 15 and Q carries the implicit one */                      \
    /* (a carry out of the significand bumps the exponent). Denormal: Q. */                        \
    uint Bits = E < -14 ? (uint)Q : (uint)((E + 14) << 10) + (uint)Q;                              \
    /* Overflow: infinity or the largest finite, by mode. */                                       \
    bool ToInf = Mode == RTE || (Mode == RTP && !Sign) || (Mode == RTN && Sign);                   \
    Bits = Bits >= 0x7c00 ? (ToInf ? 0x7c00u : 0x7bffu) : Bits;                                    \
    return (ushort)(Sign | Bits);                                                                  \
  }
TO_HALF(uint, 23)
TO_HALF(ulong, 52)

/// A float or double's half bits. EXP_MAX is the exponent field of inf and
/// NaN, BIAS the exponent bias, PAYLOAD the shift that keeps a NaN's top
/// payload bits (and it stays quiet); a denormal of the source type is far
/// below half's range (the exponent TINY stands for it), and anything from
/// 2^16 up rounds as 2^16 does.
#define TO_HALF_BITS(T, UT, MBITS, EXP_MAX, BIAS, PAYLOAD, TINY)                                   \
  static INL ushort T##ToHalfBits(T F, int Mode) {                                                 \
    UT X = as_##UT(F);                                                                             \
    uint Sign = (uint)(X >> (8 * sizeof(UT) - 16)) & 0x8000;                                       \
    int Exp = (int)(X >> MBITS) & EXP_MAX;                                                         \
    UT Frac = X & ((((UT)1) << MBITS) - 1);                                                        \
    UT One = ((UT)1) << MBITS;                                                                     \
    int E = Exp == 0 ? TINY : min(Exp - BIAS, 16);                                                 \
    UT M = Exp == 0 ? Frac : Exp - BIAS > 15 ? One : Frac | One;                                   \
    ushort Finite = toHalf##MBITS(Sign, E, M, Mode);                                               \
    uint Special = Sign | 0x7c00 | (Frac ? 0x200 | (uint)(Frac >> PAYLOAD) : 0);                   \
    return Exp == EXP_MAX ? (ushort)Special : Finite;                                              \
  }
TO_HALF_BITS(float, uint, 23, 0xff, 127, 13, -200)
TO_HALF_BITS(double, ulong, 52, 0x7ff, 1023, 42, -2000)

#endif // WEFT_HALF_CONVERSIONS

// Loads: N halves at p + offset * N (vloada: offset * 4 for N = 3).
#define VLOAD_HALF_N(N, STRIDE, NAME, AS)                                                          \
  OVL float##N NAME##N(size_t offset, const AS half *p) {                                          \
    const AS ushort *q = (const AS ushort *)p + offset * STRIDE;                                   \
    float E[N];                                                                                    \
    for (int k = 0; k < N; ++k)                                                                    \
      E[k] = halfBitsToFloat(q[k]);                                                                \
    return VLOAD_HALF_PACK##N(E);                                                                  \
  }
#define VLOAD_HALF_PACK2(E) (float2)(E[0], E[1])
#define VLOAD_HALF_PACK3(E) (float3)(E[0], E[1], E[2])
#define VLOAD_HALF_PACK4(E) (float4)(E[0], E[1], E[2], E[3])
#define VLOAD_HALF_PACK8(E) (float8)(E[0], E[1], E[2], E[3], E[4], E[5], E[6], E[7])
#define VLOAD_HALF_PACK16(E)                                                                       \
  (float16)(E[0], E[1], E[2], E[3], E[4], E[5], E[6], E[7], E[8], E[9], E[10], E[11], E[12],       \
            E[13], E[14], E[15])
#define VLOAD_HALFS(AS)                                                                            \
  OVL float vload_half(size_t offset, const AS half *p) {                                          \
    return halfBitsToFloat(((const AS ushort *)p)[offset]);                                        \
  }                                                                                                \
  VLOAD_HALF_N(2, 2, vload_half, AS)                                                               \
  VLOAD_HALF_N(3, 3, vload_half, AS)                                                               \
  VLOAD_HALF_N(4, 4, vload_half, AS)                                                               \
  VLOAD_HALF_N(8, 8, vload_half, AS)                                                               \
  VLOAD_HALF_N(16, 16, vload_half, AS)                                                             \
  OVL float vloada_half(size_t offset, const AS half *p) { return vload_half(offset, p); }         \
  VLOAD_HALF_N(2, 2, vloada_half, AS)                                                              \
  VLOAD_HALF_N(3, 4, vloada_half, AS)                                                              \
  VLOAD_HALF_N(4, 4, vloada_half, AS)                                                              \
  VLOAD_HALF_N(8, 8, vloada_half, AS)                                                              \
  VLOAD_HALF_N(16, 16, vloada_half, AS)

// Stores of float and double data, for one rounding suffix.
#define VSTORE_HALF_N(T, N, STRIDE, NAME, SUF, MODE, AS)                                           \
  OVL void NAME##N##SUF(T##N v, size_t offset, AS half *p) {                                       \
    AS ushort *q = (AS ushort *)p + offset * STRIDE;                                               \
    T E[N == 3 ? 4 : N];                                                                           \
    *(T##N *)E = v;                                                                                \
    for (int k = 0; k < N; ++k)                                                                    \
      q[k] = T##ToHalfBits(E[k], MODE);                                                            \
  }
#define VSTORE_HALF_SUFFIX(T, SUF, MODE, AS)                                                       \
  OVL void vstore_half##SUF(T v, size_t offset, AS half *p) {                                      \
    ((AS ushort *)p)[offset] = T##ToHalfBits(v, MODE);                                             \
  }                                                                                                \
  OVL void vstorea_half##SUF(T v, size_t offset, AS half *p) {                                     \
    vstore_half##SUF(v, offset, p);                                                                \
  }                                                                                                \
  VSTORE_HALF_N(T, 2, 2, vstore_half, SUF, MODE, AS)                                               \
  VSTORE_HALF_N(T, 3, 3, vstore_half, SUF, MODE, AS)                                               \
  VSTORE_HALF_N(T, 4, 4, vstore_half, SUF, MODE, AS)                                               \
  VSTORE_HALF_N(T, 8, 8, vstore_half, SUF, MODE, AS)                                               \
  VSTORE_HALF_N(T, 16, 16, vstore_half, SUF, MODE, AS)                                             \
  VSTORE_HALF_N(T, 2, 2, vstorea_half, SUF, MODE, AS)                                              \
  VSTORE_HALF_N(T, 3, 4, vstorea_half, SUF, MODE, AS)                                              \
  VSTORE_HALF_N(T, 4, 4, vstorea_half, SUF, MODE, AS)                                              \
  VSTORE_HALF_N(T, 8, 8, vstorea_half, SUF, MODE, AS)                                              \
  VSTORE_HALF_N(T, 16, 16, vstorea_half, SUF, MODE, AS)
#define VSTORE_HALFS_T(T, AS)                                                                      \
  VSTORE_HALF_SUFFIX(T, , RTE, AS)                                                                 \
  VSTORE_HALF_SUFFIX(T, _rte, RTE, AS)                                                             \
  VSTORE_HALF_SUFFIX(T, _rtz, RTZ, AS)                                                             \
  VSTORE_HALF_SUFFIX(T, _rtp, RTP, AS)                                                             \
  VSTORE_HALF_SUFFIX(T, _rtn, RTN, AS)
#define VSTORE_HALFS(AS) VSTORE_HALFS_T(float, AS) VSTORE_HALFS_T(double, AS)

#if __OPENCL_C_VERSION__ >= 200
VLOAD_HALFS()
VSTORE_HALFS()
#else
VLOAD_HALFS(__global)
VLOAD_HALFS(__local)
VLOAD_HALFS(__constant)
VLOAD_HALFS(__private)
VSTORE_HALFS(__global)
VSTORE_HALFS(__local)
VSTORE_HALFS(__private)
#endif
