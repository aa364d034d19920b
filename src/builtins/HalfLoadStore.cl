// vload_half, vloada_half, vstore_half and vstorea_half with every rounding
// mode (OpenCL C 6.15.8.1): half values in memory, float (or double) values
// in registers. Core OpenCL C, needed with or without cl_khr_fp16, so the
// conversions are done on the bits with integer arithmetic, exactly.
// Included by PointerBuiltins.cl, once per address-space set.

#ifndef WEFT_HALF_CONVERSIONS
#define WEFT_HALF_CONVERSIONS

/// The float a half's bits stand for (always exact).
static INL float halfBitsToFloat(ushort h) {
  uint Sign = (uint)(h & 0x8000) << 16;
  uint Exp = (h >> 10) & 0x1f, Mant = h & 0x3ff;
  if (Exp == 0) // zero or denormal: Mant * 2^-24, exact in float
    return as_float(Sign | as_uint((float)Mant * 0x1p-24f));
  if (Exp == 31) // infinity or NaN (payload kept)
    return as_float(Sign | 0x7f800000u | (Mant << 13));
  return as_float(Sign | ((Exp + 112) << 23) | (Mant << 13));
}

// Rounding modes of vstore_half: to nearest even, toward zero, +inf, -inf.
#define RTE 0
#define RTZ 1
#define RTP 2
#define RTN 3

/// The half bits nearest (by Mode) to a binary floating value with the given
/// sign, unbiased exponent E and significand M (with its leading one) of
/// MBITS fraction bits. U is the unsigned integer type holding M.
#define TO_HALF(U, MBITS)                                                                          \
  static INL ushort toHalf##MBITS(uint Sign, int E, U M, int Mode) {                               \
    /* The half's unit in the last place is 2^(max(E, -14) - 10). */                              \
    int Shift = (MBITS - 10) + ((E < -14 ? -14 : E) - E);                                          \
    U Q, Rem, Half;                                                                                \
    if (Shift >= (int)(8 * sizeof(U))) {                                                           \
      Q = 0;                                                                                       \
      Rem = M; /* nonzero, and below half an ulp */                                                \
      Half = (U)1 << (8 * sizeof(U) - 1);                                                          \
    } else {                                                                                       \
      Q = M >> Shift;                                                                              \
      Rem = M & ((((U)1) << Shift) - 1);                                                           \
      Half = ((U)1) << (Shift - 1);                                                                \
    }                                                                                              \
    bool Up;                                                                                       \
    switch (Mode) {                                                                                \
    case RTE:                                                                                      \
      Up = Rem > Half || (Rem == Half && (Q & 1));                                                 \
      break;                                                                                       \
    case RTP:                                                                                      \
      Up = Rem != 0 && !Sign;                                                                      \
      break;                                                                                       \
    case RTN:                                                                                      \
      Up = Rem != 0 && Sign;                                                                       \
      break;                                                                                       \
    default:                                                                                       \
      Up = false;                                                                                  \
    }                                                                                              \
    Q += Up;                                                                                       \
    /* Normal: the exponent field is E + 15 and Q carries the implicit one */                      \
    /* (a carry out of the significand bumps the exponent). Denormal: Q. */                        \
    uint Bits = E < -14 ? (uint)Q : (uint)((E + 14) << 10) + (uint)Q;                              \
    if (Bits >= 0x7c00) { /* overflow: infinity or the largest finite */                           \
      bool ToInf = Mode == RTE || (Mode == RTP && !Sign) || (Mode == RTN && Sign);                 \
      Bits = ToInf ? 0x7c00 : 0x7bff;                                                              \
    }                                                                                              \
    return (ushort)(Sign | Bits);                                                                  \
  }
TO_HALF(uint, 23)
TO_HALF(ulong, 52)

static INL ushort floatToHalfBits(float F, int Mode) {
  uint X = as_uint(F), Sign = (X >> 16) & 0x8000;
  uint Exp = (X >> 23) & 0xff, Frac = X & 0x7fffff;
  if (Exp == 0xff) // infinity, or a quiet NaN keeping the top payload bits
    return (ushort)(Sign | 0x7c00 | (Frac ? 0x200 | (Frac >> 13) : 0));
  if (Exp == 0) { // zero, or a float denormal: far below half's range
    if (Frac == 0)
      return (ushort)Sign;
    return toHalf23(Sign, -200, Frac, Mode);
  }
  if ((int)Exp - 127 > 15) // beyond half's range: overflow by mode
    return toHalf23(Sign, 16, 0x800000u, Mode) | (ushort)Sign;
  return toHalf23(Sign, (int)Exp - 127, Frac | 0x800000u, Mode);
}

static INL ushort doubleToHalfBits(double D, int Mode) {
  ulong X = as_ulong(D);
  uint Sign = (uint)(X >> 48) & 0x8000;
  uint Exp = (uint)(X >> 52) & 0x7ff;
  ulong Frac = X & 0xfffffffffffffUL;
  if (Exp == 0x7ff)
    return (ushort)(Sign | 0x7c00 | (Frac ? 0x200 | (uint)(Frac >> 42) : 0));
  if (Exp == 0) {
    if (Frac == 0)
      return (ushort)Sign;
    return toHalf52(Sign, -2000, Frac, Mode);
  }
  if ((int)Exp - 1023 > 15)
    return toHalf52(Sign, 16, 0x10000000000000UL, Mode) | (ushort)Sign;
  return toHalf52(Sign, (int)Exp - 1023, Frac | 0x10000000000000UL, Mode);
}

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
