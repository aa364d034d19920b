0
typedef struct { char c; int i; float4 v; double d; } S;
__kernel void s(S s, __global S *o, __constant int *c) {
  o[get_global_id(0)] = s;
  o[0].i += c[0];
}
