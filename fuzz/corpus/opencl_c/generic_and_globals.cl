1
global int counter = 3;
int twice(int *p) { return *p * 2; }
__kernel void g(__global int *o, __local int *l) {
  int x = get_global_id(0);
  l[get_local_id(0)] = x;
  o[x] = twice(&x) + twice(o) + counter + to_global(o) != 0;
}
