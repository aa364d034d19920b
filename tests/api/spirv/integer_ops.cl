// The kernels of IntegerOpsExtensionsTest.cpp: cl_khr_extended_bit_ops and
// cl_khr_integer_dot_product, run twice, as OpenCL C source (built with
// -cl-std=CL3.0) and as SPIR-V (clang-15 -cl-std=CL2.0, llvm-spirv-15 with
// SPV_KHR_bit_instructions and SPV_KHR_integer_dot_product: OpBitField*,
// OpBitReverse, OpSDot, OpUDot, OpSUDot and their AccSat forms; the packed
// built-ins stay calls of the library's functions, which is all
// llvm-spirv-15 makes of them).

#if !defined(cl_khr_extended_bit_ops) || !defined(cl_khr_integer_dot_product) ||                  \
    !defined(__opencl_c_integer_dot_product_input_4x8bit) ||                                       \
    !defined(__opencl_c_integer_dot_product_input_4x8bit_packed)
#error "the extension and feature macros must be defined"
#endif

// Every bit operation of T##N on one element per work-item, offset and
// count per work-item too (oc[i] = (offset, count)).
#define BIT_OPS(T, U, S, N)                                                                        \
  kernel void bit_ops_##T##N(global const T##N *base, global const T##N *insert,                   \
                             global const uint2 *oc, global T##N *inserted,                        \
                             global S##N *extracted_signed, global U##N *extracted_unsigned,       \
                             global T##N *reversed) {                                              \
    size_t i = get_global_id(0);                                                                   \
    uint offset = oc[i].x, count = oc[i].y;                                                        \
    inserted[i] = bitfield_insert(base[i], insert[i], offset, count);                              \
    extracted_signed[i] = bitfield_extract_signed(base[i], offset, count);                         \
    extracted_unsigned[i] = bitfield_extract_unsigned(base[i], offset, count);                     \
    reversed[i] = bit_reverse(base[i]);                                                            \
  }
#define BIT_OPS_WIDTHS(T, U, S)                                                                    \
  BIT_OPS(T, U, S, )                                                                               \
  BIT_OPS(T, U, S, 2)                                                                              \
  BIT_OPS(T, U, S, 3) BIT_OPS(T, U, S, 4) BIT_OPS(T, U, S, 8) BIT_OPS(T, U, S, 16)
BIT_OPS_WIDTHS(char, uchar, char)
BIT_OPS_WIDTHS(uchar, uchar, char)
BIT_OPS_WIDTHS(short, ushort, short)
BIT_OPS_WIDTHS(ushort, ushort, short)
BIT_OPS_WIDTHS(int, uint, int)
BIT_OPS_WIDTHS(uint, uint, int)
BIT_OPS_WIDTHS(long, ulong, long)
BIT_OPS_WIDTHS(ulong, ulong, long)

// The edges with offset and count known to the compiler: nothing (count
// 0, offset at the top), the whole value, the top bit, the low bit, and
// a field that ends at the top; 7 results per work-item.
#define BIT_EDGES(T, U, S, BITS)                                                                   \
  kernel void bit_edges_##T(global const T *base, global const T *insert, global T *inserted,      \
                            global S *extracted_signed, global U *extracted_unsigned) {            \
    size_t i = get_global_id(0);                                                                   \
    T b = base[i], n = insert[i];                                                                  \
    inserted[7 * i + 0] = bitfield_insert(b, n, BITS, 0);                                          \
    inserted[7 * i + 1] = bitfield_insert(b, n, 0, BITS);                                          \
    inserted[7 * i + 2] = bitfield_insert(b, n, BITS - 1, 1);                                      \
    inserted[7 * i + 3] = bitfield_insert(b, n, 0, 1);                                             \
    inserted[7 * i + 4] = bitfield_insert(b, n, 3, BITS - 3);                                      \
    inserted[7 * i + 5] = bitfield_insert(b, n, 0, 0);                                             \
    inserted[7 * i + 6] = bitfield_insert(b, n, 1, BITS - 2);                                      \
    extracted_signed[7 * i + 0] = bitfield_extract_signed(b, BITS, 0);                             \
    extracted_signed[7 * i + 1] = bitfield_extract_signed(b, 0, BITS);                             \
    extracted_signed[7 * i + 2] = bitfield_extract_signed(b, BITS - 1, 1);                         \
    extracted_signed[7 * i + 3] = bitfield_extract_signed(b, 0, 1);                                \
    extracted_signed[7 * i + 4] = bitfield_extract_signed(b, 3, BITS - 3);                         \
    extracted_signed[7 * i + 5] = bitfield_extract_signed(b, 0, 0);                                \
    extracted_signed[7 * i + 6] = bitfield_extract_signed(b, 1, BITS - 2);                         \
    extracted_unsigned[7 * i + 0] = bitfield_extract_unsigned(b, BITS, 0);                         \
    extracted_unsigned[7 * i + 1] = bitfield_extract_unsigned(b, 0, BITS);                         \
    extracted_unsigned[7 * i + 2] = bitfield_extract_unsigned(b, BITS - 1, 1);                     \
    extracted_unsigned[7 * i + 3] = bitfield_extract_unsigned(b, 0, 1);                            \
    extracted_unsigned[7 * i + 4] = bitfield_extract_unsigned(b, 3, BITS - 3);                     \
    extracted_unsigned[7 * i + 5] = bitfield_extract_unsigned(b, 0, 0);                            \
    extracted_unsigned[7 * i + 6] = bitfield_extract_unsigned(b, 1, BITS - 2);                     \
  }
BIT_EDGES(char, uchar, char, 8)
BIT_EDGES(uchar, uchar, char, 8)
BIT_EDGES(short, ushort, short, 16)
BIT_EDGES(ushort, ushort, short, 16)
BIT_EDGES(int, uint, int, 32)
BIT_EDGES(uint, uint, int, 32)
BIT_EDGES(long, ulong, long, 64)
BIT_EDGES(ulong, ulong, long, 64)

// One dot product per kernel, out[i] = F(a[i], b[i]) or F(a[i], b[i],
// acc[i]): the shape of loop the vectorizer widens.
#define DOT(Name, R, A, B, Call)                                                                   \
  kernel void Name(global const A *a, global const B *b, global R *out) {                          \
    size_t i = get_global_id(0);                                                                   \
    out[i] = Call(a[i], b[i]);                                                                     \
  }
#define DOT_ACC(Name, R, A, B, Call)                                                               \
  kernel void Name(global const A *a, global const B *b, global const R *acc, global R *out) {     \
    size_t i = get_global_id(0);                                                                   \
    out[i] = Call(a[i], b[i], acc[i]);                                                             \
  }
DOT(dot_uu, uint, uchar4, uchar4, dot)
DOT(dot_ss, int, char4, char4, dot)
DOT(dot_us, int, uchar4, char4, dot)
DOT(dot_su, int, char4, uchar4, dot)
DOT_ACC(dot_acc_sat_uu, uint, uchar4, uchar4, dot_acc_sat)
DOT_ACC(dot_acc_sat_ss, int, char4, char4, dot_acc_sat)
DOT_ACC(dot_acc_sat_us, int, uchar4, char4, dot_acc_sat)
DOT_ACC(dot_acc_sat_su, int, char4, uchar4, dot_acc_sat)
DOT(dot_packed_uu, uint, uint, uint, dot_4x8packed_uu_uint)
DOT(dot_packed_ss, int, uint, uint, dot_4x8packed_ss_int)
DOT(dot_packed_us, int, uint, uint, dot_4x8packed_us_int)
DOT(dot_packed_su, int, uint, uint, dot_4x8packed_su_int)
DOT_ACC(dot_acc_sat_packed_uu, uint, uint, uint, dot_acc_sat_4x8packed_uu_uint)
DOT_ACC(dot_acc_sat_packed_ss, int, uint, uint, dot_acc_sat_4x8packed_ss_int)
DOT_ACC(dot_acc_sat_packed_us, int, uint, uint, dot_acc_sat_4x8packed_us_int)
DOT_ACC(dot_acc_sat_packed_su, int, uint, uint, dot_acc_sat_4x8packed_su_int)

// Chains: each work-item accumulates count[i] products of its rows onto
// its eight starting values (init), saturating at every step, every sign
// mix, vectors and packed (a loop of data-dependent length per work-item,
// which stays scalar).
kernel void dot_chains(global const uchar4 *a, global const char4 *b, global const uint *count,
                       global const int *init, global int *out) {
  size_t i = get_global_id(0);
  const global int *s = init + 8 * i;
  uint uu = s[0], puu = s[4];
  int ss = s[1], us = s[2], su = s[3], pss = s[5], pus = s[6], psu = s[7];
  for (uint j = 0; j < count[i]; ++j) {
    uchar4 x = a[i * 64 + j];
    char4 y = b[i * 64 + j];
    uu = dot_acc_sat(x, as_uchar4(y), uu);
    ss = dot_acc_sat(as_char4(x), y, ss);
    us = dot_acc_sat(x, y, us);
    su = dot_acc_sat(y, x, su);
    puu = dot_acc_sat_4x8packed_uu_uint(as_uint(x), as_uint(y), puu);
    pss = dot_acc_sat_4x8packed_ss_int(as_uint(x), as_uint(y), pss);
    pus = dot_acc_sat_4x8packed_us_int(as_uint(x), as_uint(y), pus);
    psu = dot_acc_sat_4x8packed_su_int(as_uint(x), as_uint(y), psu);
  }
  out[8 * i + 0] = uu;
  out[8 * i + 1] = ss;
  out[8 * i + 2] = us;
  out[8 * i + 3] = su;
  out[8 * i + 4] = puu;
  out[8 * i + 5] = pss;
  out[8 * i + 6] = pus;
  out[8 * i + 7] = psu;
}
