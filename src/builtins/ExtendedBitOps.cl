// cl_khr_extended_bit_ops: bitfield_insert, bitfield_extract_signed,
// bitfield_extract_unsigned and bit_reverse on every integer type and its
// vectors (OpenCL C 3.0, 6.15.3.x "Extended Bit Operations"; the SPIR-V
// path reaches the same functions, SPIR-V's OpBitField* read back as them
// by LLVMSPIRVLib, and OpBitReverse as llvm.bitreverse).
//
// The bitfields are shifts and masks in T's unsigned twin, written once
// with vector operators for the scalar and every width, so a vector of any
// width stays a handful of vector instructions and a work-item loop calling
// them vectorizes; offset and count are one scalar for all components, so
// the mask is computed once. The specification leaves count, offset or
// offset + count beyond the width undefined, but pins down two edges the
// plain shift forms get wrong:
//  - count == 0: insert returns base and both extracts return 0; a mask of
//    count ones made as "all ones >> (BITS - count)" would shift by the
//    full width, which OpenCL C takes modulo the width (all ones), so the
//    mask is a select on the scalar count, and the extracts clear their
//    result with a mask selected the same way (not a branch, which would
//    keep the base's load from being vectorized with the rest);
//  - offset + count == BITS and count == BITS are ordinary: the field's
//    top is the type's top bit, a left shift of 0 in the extracts.
// bit_reverse is llvm.bitreverse per component (the split forms of
// BuiltinMacros.h give the vectorizers one intrinsic call per lane to pack;
// the back end reverses a vector with GFNI or a nibble table, no loop
// over bits).
#include "BuiltinMacros.h"

// The mask of count ones from bit offset up, in the unsigned type U (a
// scalar: one mask serves every component). W is the type the mask is
// computed in: uint for types up to 32 bits, ulong for 64.
#define FIELD_MASK(U, W, WBITS)                                                                    \
  static INL U fieldMask_##U(uint offset, uint count) {                                            \
    return count == 0 ? (U)0 : (U)(((W) ~(W)0 >> (WBITS - count)) << offset);                     \
  }
FIELD_MASK(uchar, uint, 32)
FIELD_MASK(ushort, uint, 32)
FIELD_MASK(uint, uint, 32)
FIELD_MASK(ulong, ulong, 64)

// T##N and its unsigned (U) and signed (S) twins; BITS is T's width. A
// scalar char promotes to int in the shifts, hence the casts back to
// U##N before each right shift (no-ops on vectors, which do not promote).
#define BITFIELD_OPS(T, U, S, BITS, N)                                                             \
  OVL T##N bitfield_insert(T##N base, T##N insert, uint offset, uint count) {                      \
    U##N Mask = (U##N)fieldMask_##U(offset, count);                                                \
    return as_##T##N((U##N)((as_##U##N(base) & ~Mask) | ((U##N)(as_##U##N(insert) << offset) &    \
                                                          Mask)));                                 \
  }                                                                                                \
  OVL S##N bitfield_extract_signed(T##N base, uint offset, uint count) {                           \
    /* The field's top bit to the type's top, then an arithmetic shift                         */ \
    /* back down that replicates it.                                                         */    \
    S##N Top = as_##S##N((U##N)(as_##U##N(base) << (BITS - offset - count)));                      \
    return (S##N)(Top >> (BITS - count)) & (S##N)(count == 0 ? (S)0 : (S)-1);                      \
  }                                                                                                \
  OVL U##N bitfield_extract_unsigned(T##N base, uint offset, uint count) {                         \
    U##N Top = (U##N)(as_##U##N(base) << (BITS - offset - count));                                 \
    return (U##N)(Top >> (BITS - count)) & (U##N)(count == 0 ? (U)0 : (U)~(U)0);                   \
  }

// Every width of T: the scalar (N empty) and the vectors.
#define BITFIELD_WIDTHS(T, U, S, BITS)                                                             \
  BITFIELD_OPS(T, U, S, BITS, )                                                                    \
  BITFIELD_OPS(T, U, S, BITS, 2)                                                                   \
  BITFIELD_OPS(T, U, S, BITS, 3)                                                                   \
  BITFIELD_OPS(T, U, S, BITS, 4)                                                                   \
  BITFIELD_OPS(T, U, S, BITS, 8) BITFIELD_OPS(T, U, S, BITS, 16)
BITFIELD_WIDTHS(char, uchar, char, 8)
BITFIELD_WIDTHS(uchar, uchar, char, 8)
BITFIELD_WIDTHS(short, ushort, short, 16)
BITFIELD_WIDTHS(ushort, ushort, short, 16)
BITFIELD_WIDTHS(int, uint, int, 32)
BITFIELD_WIDTHS(uint, uint, int, 32)
BITFIELD_WIDTHS(long, ulong, long, 64)
BITFIELD_WIDTHS(ulong, ulong, long, 64)

// bit_reverse: clang's __builtin_bitreverseN is llvm.bitreverse (through
// the unsigned twin, so a char is reversed as 8 bits, not promoted).
#define BIT_REVERSE(T, U, REV)                                                                     \
  OVL T bit_reverse(T x) { return (T)REV((U)x); }                                                  \
  VEC_UNARY(bit_reverse, T, T)
BIT_REVERSE(char, uchar, __builtin_bitreverse8)
BIT_REVERSE(uchar, uchar, __builtin_bitreverse8)
BIT_REVERSE(short, ushort, __builtin_bitreverse16)
BIT_REVERSE(ushort, ushort, __builtin_bitreverse16)
BIT_REVERSE(int, uint, __builtin_bitreverse32)
BIT_REVERSE(uint, uint, __builtin_bitreverse32)
BIT_REVERSE(long, ulong, __builtin_bitreverse64)
BIT_REVERSE(ulong, ulong, __builtin_bitreverse64)
