// Kernels with barriers, run through the API and checked against results
// computed on the host: the tiled demo kernel, barriers in loops, under
// uniform conditions and nested, private arrays live across barriers, and a
// work-group reduction in __local memory. These are the shapes a CPU
// work-group compiler gets wrong when it splits a kernel at its barriers.
#include "../support/FoldedSums.h"
#include "ApiTest.h"

#include <numeric>

using namespace weft::test;

namespace {

class Barriers : public WithQueue {
protected:
  /// Runs a 1-D kernel with (in, out, n) arguments over In and returns out.
  std::vector<int> run1D(const char *Source, const char *Name, const std::vector<int> &In,
                         size_t Global, size_t Local, size_t OutCount, const char *Options = "") {
    cl_kernel K = kernel(Source, Name, Options);
    cl_mem A = buffer(In.size() * sizeof(int), CL_MEM_COPY_HOST_PTR, const_cast<int *>(In.data()));
    cl_mem B = buffer(OutCount * sizeof(int));
    EXPECT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &A), CL_SUCCESS);
    EXPECT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &B), CL_SUCCESS);
    EXPECT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &Global, &Local, 0, nullptr, nullptr),
              CL_SUCCESS);
    return read<int>(B, OutCount);
  }
};

std::vector<int> inputs(size_t N) {
  std::vector<int> V(N);
  for (size_t I = 0; I < N; ++I)
    V[I] = int((I * 37 + 11) % 101) - 50;
  return V;
}

// The kernel of examples/demo/TiledDemo.cpp.
const char *TiledSource = R"CLC(
__kernel void tiled(__global const float *a, __global const float *b, __global float *c) {
  __local float aTile[TILE][TILE];
  __local float bTile[TILE][TILE];
  const size_t x = get_local_id(0), y = get_local_id(1);
  const size_t col = get_global_id(0), row = get_global_id(1);
  aTile[y][x] = a[row * N + col];
  bTile[y][x] = b[row * N + col];
  barrier(CLK_LOCAL_MEM_FENCE);
  c[row * N + col] = aTile[x][y] * bTile[y][x];
}
)CLC";

} // namespace

TEST_F(Barriers, TiledDemoKernel) {
  const size_t Tile = 16, TilesX = 5, TilesY = 3, N = TilesX * Tile, Rows = TilesY * Tile;
  const size_t Count = N * Rows;
  std::vector<float> A(Count), B(Count);
  for (size_t I = 0; I < Count; ++I) {
    A[I] = float(I % 1013) * 0.5f;
    B[I] = float(I % 517) * 0.25f + 1.0f;
  }
  std::string Options = "-DTILE=" + std::to_string(Tile) + " -DN=" + std::to_string(N);
  cl_kernel K = kernel(TiledSource, "tiled", Options.c_str());
  cl_mem BufA = buffer(Count * 4, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, A.data());
  cl_mem BufB = buffer(Count * 4, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, B.data());
  cl_mem BufC = buffer(Count * 4, CL_MEM_WRITE_ONLY);
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &BufA), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &BufB), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 2, sizeof(cl_mem), &BufC), CL_SUCCESS);
  const size_t Global[2] = {N, Rows}, Local[2] = {Tile, Tile};
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 2, nullptr, Global, Local, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto C = read<float>(BufC, Count);
  for (size_t Row = 0; Row < Rows; ++Row)
    for (size_t Col = 0; Col < N; ++Col) {
      size_t X = Col % Tile, Y = Row % Tile, TileCol = Col - X, TileRow = Row - Y;
      float Want = A[(TileRow + X) * N + TileCol + Y] * B[(TileRow + Y) * N + TileCol + X];
      ASSERT_EQ(C[Row * N + Col], Want) << "row " << Row << " col " << Col;
    }
}

TEST_F(Barriers, BarrierInALoop) {
  // Each round every work-item takes its right neighbour's value (rotating
  // within the group) and adds its round number.
  const char *Source = R"CLC(
__kernel void rotate(__global const int *in, __global int *out) {
  __local int buf[64];
  size_t l = get_local_id(0), n = get_local_size(0);
  int v = in[get_global_id(0)];
  for (int round = 0; round < 10; ++round) {
    buf[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = buf[(l + 1) % n] + round;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = v;
}
)CLC";
  const size_t N = 256, Local = 64;
  std::vector<int> In = inputs(N);
  auto Got = run1D(Source, "rotate", In, N, Local, N);
  for (size_t I = 0; I < N; ++I) {
    size_t G = I / Local, L = I % Local;
    int Want = In[G * Local + (L + 10) % Local] + 45;
    ASSERT_EQ(Got[I], Want) << I;
  }
}

TEST_F(Barriers, BarrierUnderUniformConditionAndLoopBound) {
  // The branch and the trip count depend only on the group id (uniform
  // within a work-group), as the specification requires around barriers.
  const char *Source = R"CLC(
__kernel void cond(__global const int *in, __global int *out) {
  __local int buf[32];
  size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
  int v = in[get_global_id(0)];
  if (g % 2 == 0) {
    buf[l] = v * 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    v = buf[n - 1 - l];
  } else {
    for (size_t k = 0; k < g; ++k) {
      buf[l] = v;
      barrier(CLK_LOCAL_MEM_FENCE);
      v = buf[(l + 1) % n] + 1;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  out[get_global_id(0)] = v;
}
)CLC";
  const size_t N = 32 * 6, Local = 32;
  std::vector<int> In = inputs(N);
  auto Got = run1D(Source, "cond", In, N, Local, N);
  for (size_t G = 0; G < N / Local; ++G)
    for (size_t L = 0; L < Local; ++L) {
      int Want =
          G % 2 == 0 ? In[G * Local + Local - 1 - L] * 2 : In[G * Local + (L + G) % Local] + int(G);
      ASSERT_EQ(Got[G * Local + L], Want) << "group " << G << " item " << L;
    }
}

TEST_F(Barriers, NestedLoopsWithBarriers) {
  const char *Source = R"CLC(
__kernel void nested(__global const int *in, __global int *out) {
  __local int buf[16];
  size_t l = get_local_id(0), n = get_local_size(0);
  int acc = 0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) {
      buf[l] = in[get_global_id(0)] * (i + 1) + j;
      barrier(CLK_LOCAL_MEM_FENCE);
      acc += buf[(l + i + j) % n];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
      buf[0] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    acc += buf[0] % 7;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc;
}
)CLC";
  const size_t N = 64, Local = 16;
  std::vector<int> In = inputs(N);
  auto Got = run1D(Source, "nested", In, N, Local, N);
  for (size_t G = 0; G < N / Local; ++G) {
    std::vector<int> Acc(Local, 0);
    for (int I = 0; I < 3; ++I) {
      for (int J = 0; J < 4; ++J) {
        std::vector<int> Buf(Local);
        for (size_t L = 0; L < Local; ++L)
          Buf[L] = In[G * Local + L] * (I + 1) + J;
        for (size_t L = 0; L < Local; ++L)
          Acc[L] += Buf[(L + I + J) % Local];
      }
      int Shared = Acc[0];
      for (size_t L = 0; L < Local; ++L)
        Acc[L] += Shared % 7;
    }
    for (size_t L = 0; L < Local; ++L)
      ASSERT_EQ(Got[G * Local + L], Acc[L]) << "group " << G << " item " << L;
  }
}

TEST_F(Barriers, PrivateArrayLiveAcrossBarriers) {
  const char *Source = R"CLC(
__kernel void priv(__global const int *in, __global int *out) {
  __local int buf[32];
  int p[8];
  size_t l = get_local_id(0), n = get_local_size(0);
  int v = in[get_global_id(0)];
  for (int k = 0; k < 8; ++k)
    p[k] = v * (k + 1);
  buf[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  int neighbour = buf[(l + 3) % n];
  barrier(CLK_LOCAL_MEM_FENCE);
  buf[l] = neighbour;
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = 0;
  for (int k = 0; k < 8; ++k)
    sum += p[k] * (k % 2 ? 1 : -1);
  out[get_global_id(0)] = sum + buf[(l + 1) % n];
}
)CLC";
  const size_t N = 128, Local = 32;
  std::vector<int> In = inputs(N);
  auto Got = run1D(Source, "priv", In, N, Local, N);
  for (size_t I = 0; I < N; ++I) {
    size_t G = I / Local, L = I % Local;
    int V = In[I], Sum = 0;
    for (int K = 0; K < 8; ++K)
      Sum += V * (K + 1) * (K % 2 ? 1 : -1);
    ASSERT_EQ(Got[I], Sum + In[G * Local + (L + 1 + 3) % Local]) << I;
  }
}

TEST_F(Barriers, WorkGroupReductionInLocalMemory) {
  const char *Source = R"CLC(
__kernel void reduce(__global const int *in, __global int *out, __local int *scratch) {
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = scratch[0];
}
)CLC";
  const size_t N = 4096;
  std::vector<int> In = inputs(N);
  for (size_t Local : {size_t(64), size_t(128), size_t(8)}) {
    SCOPED_TRACE(Local);
    cl_kernel K = kernel(Source, "reduce");
    cl_mem A = buffer(N * sizeof(int), CL_MEM_COPY_HOST_PTR, In.data());
    const size_t Groups = N / Local;
    cl_mem B = buffer(Groups * sizeof(int));
    ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &A), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &B), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(K, 2, Local * sizeof(int), nullptr), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0, nullptr, nullptr),
              CL_SUCCESS);
    auto Got = read<int>(B, Groups);
    for (size_t G = 0; G < Groups; ++G)
      ASSERT_EQ(Got[G], std::accumulate(In.begin() + G * Local, In.begin() + (G + 1) * Local, 0))
          << "group " << G;
  }
}

// A kernel launched again and again: from its JitExecutable::HotLaunches-th
// launch of one shape on, it runs a work-group function compiled for that
// local size (a launch whose groups all have it); a shape with a smaller
// last group keeps the generic one. Every launch, with inputs of its own,
// gives its own sums.
TEST_F(Barriers, HotKernelsGiveTheSameResultsCompiledForTheirLocalSize) {
  cl_kernel K = kernel(weft::test::FoldedSumsSource, "folded_sums", "-cl-std=CL3.0");
  const size_t MaxN = 4096;
  cl_mem A = buffer(MaxN * sizeof(int));
  cl_mem B = buffer(MaxN * sizeof(int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &A), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &B), CL_SUCCESS);
  for (int Round = 0; Round < 6; ++Round)
    for (auto [N, Local] : {std::pair<size_t, size_t>{4096, 64}, {4096, 8}, {4000, 64}}) {
      SCOPED_TRACE("round " + std::to_string(Round) + " global " + std::to_string(N) + " local " +
                   std::to_string(Local));
      std::vector<int> In(N);
      for (size_t I = 0; I < N; ++I)
        In[I] = int((I * 37 + 11 * Round) % 101) - 50;
      ASSERT_EQ(clEnqueueWriteBuffer(Queue, A, CL_TRUE, 0, N * sizeof(int), In.data(), 0, nullptr,
                                     nullptr),
                CL_SUCCESS);
      ASSERT_EQ(clSetKernelArg(K, 2, Local * sizeof(int), nullptr), CL_SUCCESS);
      ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &N, &Local, 0, nullptr, nullptr),
                CL_SUCCESS);
      const size_t Groups = (N + Local - 1) / Local;
      auto Got = read<int>(B, Groups);
      for (size_t G = 0; G < Groups; ++G) {
        const size_t End = std::min(N, (G + 1) * Local);
        ASSERT_EQ(Got[G], std::accumulate(In.begin() + G * Local, In.begin() + End, 0))
            << "group " << G;
      }
    }
}

TEST_F(Barriers, TwoDimensionalGroupsWithOffsetAndBarrier) {
  // Transposes each 8 x 4 tile through __local memory, with a global offset.
  const char *Source = R"CLC(
__kernel void transpose_tiles(__global const int *in, __global int *out) {
  __local int tile[4][8];
  size_t x = get_local_id(0), y = get_local_id(1);
  size_t gx = get_global_id(0) - get_global_offset(0);
  size_t gy = get_global_id(1) - get_global_offset(1);
  size_t w = get_global_size(0);
  tile[y][x] = in[gy * w + gx];
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t i = y * 8 + x;            // linear id in the tile
  out[gy * w + gx] = tile[i % 4][i / 4];
}
)CLC";
  cl_kernel K = kernel(Source, "transpose_tiles");
  const size_t W = 32, H = 12, Count = W * H;
  std::vector<int> In = inputs(Count);
  cl_mem A = buffer(Count * sizeof(int), CL_MEM_COPY_HOST_PTR, In.data());
  cl_mem B = buffer(Count * sizeof(int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &A), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &B), CL_SUCCESS);
  const size_t Global[2] = {W, H}, Local[2] = {8, 4}, Offset[2] = {3, 5};
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 2, Offset, Global, Local, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto Got = read<int>(B, Count);
  for (size_t Y = 0; Y < H; ++Y)
    for (size_t X = 0; X < W; ++X) {
      size_t TX = X % 8, TY = Y % 4, I = TY * 8 + TX;
      size_t SrcY = Y - TY + I % 4, SrcX = X - TX + I / 4;
      ASSERT_EQ(Got[Y * W + X], In[SrcY * W + SrcX]) << X << "," << Y;
    }
}
