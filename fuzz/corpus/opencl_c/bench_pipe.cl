1

// Each work-item writes one packet; a failed write is counted.
__kernel void pipeSend(__global const uint *In, __write_only pipe uint Out,
                       volatile __global uint *Failed) {
  if (write_pipe(Out, &In[get_global_id(0)]) != 0)
    atomic_inc(Failed);
}

// Each work-item reads one packet (0xffffffff where the pipe was empty).
__kernel void pipeReceive(__read_only pipe uint In, __global uint *Out) {
  uint V;
  Out[get_global_id(0)] = read_pipe(In, &V) == 0 ? V : 0xffffffffu;
}
