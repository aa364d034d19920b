0
__kernel void p(__global int *o, float f) { printf("%d %5.@2f %s ؉˗d\N", o[0], f, "x", (short4)(1,2,3,4)); }
