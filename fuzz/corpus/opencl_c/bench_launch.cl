0

// The smallest kernel whose execution can be observed.
__kernel void empty(__global uint *Out, uint Value) {
  if (get_global_id(0) == 0)
    Out[0] = Value;
}

// One work-group; in an in-order queue N launches add exactly N.
__kernel void tiny(__global uint *Counter) {
  if (get_global_id(0) == 0)
    Counter[0] += 1u;
}
