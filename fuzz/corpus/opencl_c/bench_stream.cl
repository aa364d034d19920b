0

__kernel void streamCopy(__global const float *restrict A, __global float *restrict C) {
  size_t I = get_global_id(0);
  C[I] = A[I];
}

__kernel void streamTriad(__global const float *restrict A, __global const float *restrict B,
                          __global float *restrict C, float S) {
  size_t I = get_global_id(0);
  C[I] = A[I] + S * B[I];
}
