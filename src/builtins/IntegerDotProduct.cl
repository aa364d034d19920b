// cl_khr_integer_dot_product 2.0: dot and dot_acc_sat of two 4-component
// 8-bit vectors (__opencl_c_integer_dot_product_input_4x8bit) and of two
// such vectors packed into uints, lowest component in the least
// significant byte (__opencl_c_integer_dot_product_input_4x8bit_packed),
// in every mix of signedness. The SPIR-V path reaches the same functions:
// SpirvBuiltinCalls.cpp rewrites the translator's __spirv_*DotKHR calls.
//
// Every form is one of three packed computations on two uints, the vector
// forms reading their operands as one (as_uint: component 0 is the low
// byte, the packed layout). Each byte is widened to int by a shift pair
// (signed) or a shift and mask (unsigned) and the four products summed,
// all in 32-bit lanes: in a work-item loop the loop vectorizer widens
// that into a few vector shifts, multiplies and adds per group of lanes,
// with the operands loaded as whole dwords, never split into bytes (a
// uchar4 taken component by component would become a strided byte load
// and a shuffle per component). A product with an unsigned byte has an
// operand whose upper 17 bits are zero, which the x86 back end makes a
// pmaddwd (a signed-by-signed one stays a pmulld). The exact sum fits an
// int in every mix (4 * 255 * 255 = 260100 at most), so it needs no wider
// type, and the accumulating forms saturate only the final addition, as
// the extension specifies (dot, then add_sat): a 32-bit llvm.sadd.sat /
// llvm.uadd.sat, which vectorizes. On CPUs with
// VNNI, DotProductPass turns the sums, vectorized or not, into vpdpbusd(s):
// the shapes above are the ones it recognizes.
#include "BuiltinMacros.h"

// Byte K of X, sign- or zero-extended to 32 bits.
static INL int byteS(uint x, uint k) { return (int)(x << (24 - 8 * k)) >> 24; }
static INL int byteU(uint x, uint k) { return (int)((x >> 8 * k) & 0xffu); }

// The three sums: signed by signed, unsigned by unsigned (as a uint, its
// exact value), unsigned (a) by signed (b).
static INL int dotSS(uint a, uint b) {
  return byteS(a, 0) * byteS(b, 0) + byteS(a, 1) * byteS(b, 1) + byteS(a, 2) * byteS(b, 2) +
         byteS(a, 3) * byteS(b, 3);
}
static INL uint dotUU(uint a, uint b) {
  return (uint)(byteU(a, 0) * byteU(b, 0) + byteU(a, 1) * byteU(b, 1) + byteU(a, 2) * byteU(b, 2) +
                byteU(a, 3) * byteU(b, 3));
}
static INL int dotUS(uint a, uint b) {
  return byteU(a, 0) * byteS(b, 0) + byteU(a, 1) * byteS(b, 1) + byteU(a, 2) * byteS(b, 2) +
         byteU(a, 3) * byteS(b, 3);
}

// Packed forms: XY names the signedness of a's and b's components.
OVL uint dot_4x8packed_uu_uint(uint a, uint b) { return dotUU(a, b); }
OVL int dot_4x8packed_ss_int(uint a, uint b) { return dotSS(a, b); }
OVL int dot_4x8packed_us_int(uint a, uint b) { return dotUS(a, b); }
OVL int dot_4x8packed_su_int(uint a, uint b) { return dotUS(b, a); }

OVL uint dot_acc_sat_4x8packed_uu_uint(uint a, uint b, uint acc) {
  return __builtin_elementwise_add_sat(dotUU(a, b), acc);
}
OVL int dot_acc_sat_4x8packed_ss_int(uint a, uint b, int acc) {
  return __builtin_elementwise_add_sat(dotSS(a, b), acc);
}
OVL int dot_acc_sat_4x8packed_us_int(uint a, uint b, int acc) {
  return __builtin_elementwise_add_sat(dotUS(a, b), acc);
}
OVL int dot_acc_sat_4x8packed_su_int(uint a, uint b, int acc) {
  return __builtin_elementwise_add_sat(dotUS(b, a), acc);
}

// Vector forms: the same sums on the vectors' bytes.
OVL uint dot(uchar4 a, uchar4 b) { return dotUU(as_uint(a), as_uint(b)); }
OVL int dot(char4 a, char4 b) { return dotSS(as_uint(a), as_uint(b)); }
OVL int dot(uchar4 a, char4 b) { return dotUS(as_uint(a), as_uint(b)); }
OVL int dot(char4 a, uchar4 b) { return dotUS(as_uint(b), as_uint(a)); }

OVL uint dot_acc_sat(uchar4 a, uchar4 b, uint acc) {
  return __builtin_elementwise_add_sat(dotUU(as_uint(a), as_uint(b)), acc);
}
OVL int dot_acc_sat(char4 a, char4 b, int acc) {
  return __builtin_elementwise_add_sat(dotSS(as_uint(a), as_uint(b)), acc);
}
OVL int dot_acc_sat(uchar4 a, char4 b, int acc) {
  return __builtin_elementwise_add_sat(dotUS(as_uint(a), as_uint(b)), acc);
}
OVL int dot_acc_sat(char4 a, uchar4 b, int acc) {
  return __builtin_elementwise_add_sat(dotUS(as_uint(b), as_uint(a)), acc);
}
