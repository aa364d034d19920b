0
#define TILE 16

// C = A * B, all N x N, row-major; one work-item per element of C.
__kernel void sgemmNaive(__global const float *A, __global const float *B, __global float *C,
                         int N) {
  int Col = get_global_id(0), Row = get_global_id(1);
  float Acc = 0.0f;
  for (int K = 0; K < N; ++K)
    Acc += A[Row * N + K] * B[K * N + Col];
  C[Row * N + Col] = Acc;
}

// The same product through TILE x TILE tiles of A and B in __local memory:
// each work-item loads one element of each tile, then reads TILE of each.
__kernel void sgemmTiled(__global const float *A, __global const float *B, __global float *C,
                         int N) {
  __local float ATile[TILE][TILE];
  __local float BTile[TILE][TILE];
  int Lx = get_local_id(0), Ly = get_local_id(1);
  int Col = get_global_id(0), Row = get_global_id(1);
  float Acc = 0.0f;
  for (int T = 0; T < N; T += TILE) {
    ATile[Ly][Lx] = A[Row * N + T + Lx];
    BTile[Ly][Lx] = B[(T + Ly) * N + Col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int K = 0; K < TILE; ++K)
      Acc += ATile[Ly][K] * BTile[K][Lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[Row * N + Col] = Acc;
}
