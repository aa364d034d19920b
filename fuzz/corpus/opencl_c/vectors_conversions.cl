0
__kernel void v(__global float8 *f, __global int8 *i, __global uchar16 *u) {
  size_t g = get_global_id(0);
  i[g] = convert_int8_sat_rte(f[g] * 3.5f);
  u[g] = convert_uchar16_sat(as_int4(f[g].lo).s0123012301230123);
  f[g] = sincos(f[g], (float8 *)0) + vload8(0, (float *)u);
}
