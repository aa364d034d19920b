// Kernels with barriers, run through their work-group functions: barriers in
// loops (with trip counts that differ between groups), nested loops, under
// work-group-uniform conditions, after an early return, in a helper
// function, with private arrays live across barriers.
#include "../support/FoldedSums.h"
#include "KernelRunner.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace weft::compiler::test {

TEST(BarrierTest, ReverseThroughLocalMemory) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global const int *in, global int *out) {
      local int tmp[64];
      size_t l = get_local_id(0), n = get_local_size(0);
      int mine = in[get_global_id(0)] * 3; // private value live across the barrier
      tmp[l] = in[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = tmp[n - 1 - l] + mine;
    })"));
  EXPECT_GT(P.kernel("k")->PrivateFrameSize, 0u);
  std::vector<int> In(128), Out(128, -1);
  for (int I = 0; I < 128; ++I)
    In[I] = I;
  ASSERT_TRUE(P.run("k", range1(128, 64), {Arg::pointer(In.data()), Arg::pointer(Out.data())}));
  for (int I = 0; I < 128; ++I)
    EXPECT_EQ(Out[I], (I / 64) * 64 + 63 - I % 64 + 3 * I) << I;
}

TEST(BarrierTest, TreeReductionInLoop) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void sum(global const float *in, global float *out, local float *s) {
      size_t l = get_local_id(0);
      s[l] = in[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
        if (l < stride) s[l] += s[l + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (l == 0) out[get_group_id(0)] = s[0];
    })"));
  std::vector<float> In(256), Out(4, -1);
  for (int I = 0; I < 256; ++I)
    In[I] = float(I);
  ASSERT_TRUE(P.run("sum", range1(256, 64),
                    {Arg::pointer(In.data()), Arg::pointer(Out.data()), Arg::local(64 * sizeof(float))}));
  for (int G = 0; G < 4; ++G) {
    float Expect = 0;
    for (int I = 0; I < 64; ++I)
      Expect += float(G * 64 + I);
    EXPECT_EQ(Out[G], Expect) << G;
  }
}

// The steps of tree reductions in the forms GPU code writes them, in every
// group size from 1 to 70 and in 2-D groups: a size_t or an int local id,
// `>> 1` or `/ 2`, `if (l < k) work` or `if (l >= k) {} else work`, any
// size (the upper part folded onto the lower while odd), and in 2-D groups
// a row per y. The strides are the same in every work-item
// and kept once per group (BarrierStatePass); each step runs only the
// work-items its check lets in (ActiveRangePass).
TEST(BarrierTest, TreeReductionStepsInEveryShapeAndSize) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void halves(global const int *in, global int *out, local int *s) {
      size_t l = get_local_id(0), n = get_local_size(0);
      s[l] = in[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      // Any size: fold the upper part onto the lower while it is odd.
      for (size_t live = n; live > 1;) {
        size_t up = (live + 1) >> 1;
        if (l < live - up)
          s[l] += s[l + up];
        live = up;
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (l == 0) out[get_group_id(0)] = s[0];
    }
    kernel void ints(global const int *in, global int *out, local int *s) {
      int l = get_local_id(0), n = get_local_size(0);
      s[l] = in[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int live = n; live > 1;) {
        int up = (live + 1) / 2;
        if (l >= live - up) {
        } else {
          s[l] += s[l + up];
        }
        live = up;
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (l == 0) out[get_group_id(0)] = s[0];
    }
    kernel void rows(global const int *in, global int *out, local int *s) {
      size_t x = get_local_id(0), y = get_local_id(1), w = get_local_size(0);
      s[y * w + x] = in[get_global_id(1) * get_global_size(0) + get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (size_t stride = w / 2; stride > 0; stride /= 2) {
        if (x < stride) s[y * w + x] += s[y * w + x + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (x == 0) out[get_global_id(1) * get_num_groups(0) + get_group_id(0)] = s[y * w];
    })"));
  for (size_t Local = 1; Local <= 70; ++Local) {
    const size_t Groups = 3, N = Local * Groups;
    std::vector<int> In(N);
    for (size_t I = 0; I < N; ++I)
      In[I] = int(I * 7 % 13) - 5;
    std::vector<int> Want(Groups, 0);
    for (size_t I = 0; I < N; ++I)
      Want[I / Local] += In[I];
    for (const char *K : {"halves", "ints"}) {
      std::vector<int> Out(Groups, -1);
      ASSERT_TRUE(P.run(
          K, range1(N, Local),
          {Arg::pointer(In.data()), Arg::pointer(Out.data()), Arg::local(Local * sizeof(int))}));
      for (size_t G = 0; G < Groups; ++G)
        EXPECT_EQ(Out[G], Want[G]) << K << " local " << Local << " group " << G;
    }
  }
  for (size_t W : {1, 2, 4, 8, 16, 32, 64}) {
    const size_t H = 3, GroupsX = 2, GroupsY = 2;
    NDRange R;
    R.Dims = 2;
    R.Global = {W * GroupsX, H * GroupsY, 1};
    R.Local = {W, H, 1};
    const size_t N = R.Global[0] * R.Global[1];
    std::vector<int> In(N), Out(GroupsX * R.Global[1], -1);
    for (size_t I = 0; I < N; ++I)
      In[I] = int(I % 17) * 3 - 20;
    ASSERT_TRUE(P.run(
        "rows", R,
        {Arg::pointer(In.data()), Arg::pointer(Out.data()), Arg::local(W * H * sizeof(int))}));
    for (size_t Row = 0; Row < R.Global[1]; ++Row)
      for (size_t G = 0; G < GroupsX; ++G) {
        int Want = 0;
        for (size_t X = 0; X < W; ++X)
          Want += In[Row * R.Global[0] + G * W + X];
        EXPECT_EQ(Out[Row * GroupsX + G], Want)
            << "width " << W << " row " << Row << " group " << G;
      }
  }
}

// Values that cross barriers: the same in every work-item (kept once per
// group), or not (a column each), side by side in one kernel. A uniform
// counter updated in every region and read after the update in the same
// region; one that only some work-items update (a column); one computed in
// a loop whose trip count depends on the local id (a column); a uniform
// value chosen by a uniform condition; a value loaded from memory (a
// column: another work-item may write it).
TEST(BarrierTest, ValuesTheSameInEveryWorkItemAndValuesThatDiffer) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global int *out, global const int *in, int rounds) {
      local int t[64];
      size_t l = get_local_id(0);
      int u = rounds * 3;           // uniform
      int some = 0;                 // updated by some work-items
      int steps = 0;                // a trip count per work-item
      for (int j = 0; j < (int)l % 5; ++j) steps += j + 1;
      int loaded = in[l];           // memory
      int pick = get_group_id(0) == 1 ? 100 : 200; // uniform condition
      for (int r = 0; r < rounds; ++r) {
        u = u * 2 + r;
        t[l] = u + (int)l;
        if (l < 3) some += r + 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        u -= t[(l + 1) % get_local_size(0)] - (int)((l + 1) % get_local_size(0));
        loaded += u & 7;
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      out[get_global_id(0)] = u + some * 1000 + steps * 100000 + loaded * 7 + pick;
    })"));
  for (int Rounds : {0, 1, 5}) {
    const size_t Local = 37, Groups = 3;
    std::vector<int> In(Local), Out(Local * Groups, -1);
    for (size_t I = 0; I < Local; ++I)
      In[I] = int(I) * 11 - 40;
    ASSERT_TRUE(P.run("k", range1(Local * Groups, Local),
                      {Arg::pointer(Out.data()), Arg::pointer(In.data()), Arg::value(Rounds)}));
    for (size_t I = 0; I < Local * Groups; ++I) {
      const size_t L = I % Local;
      int U = Rounds * 3, Some = 0, Steps = 0, Loaded = In[L];
      for (int J = 0; J < int(L % 5); ++J)
        Steps += J + 1;
      for (int R = 0; R < Rounds; ++R) {
        U = U * 2 + R;
        if (L < 3)
          Some += R + 1;
        U -= U; // t[n] - n is the u every work-item stored
        Loaded += U & 7;
      }
      const int Pick = I / Local == 1 ? 100 : 200;
      EXPECT_EQ(Out[I], U + Some * 1000 + Steps * 100000 + Loaded * 7 + Pick)
          << "rounds " << Rounds << " item " << I;
    }
  }
}

// Loops that every work-item of a group runs alike, with a trip count
// known only at run time, in kernels with barriers: each iteration is a
// region of its own (BarrierStatePass). Zero, one and many trips; a uniform
// break and continue; such a loop inside another; one inside a loop whose
// trip count depends on the local id, and a loop whose own trip count does
// (loops of each work-item's own, which must stay so); a private array
// written in the loop; groups of 1, 3, 16 and 33.
TEST(BarrierTest, LoopsOfTheSameTripCountInEveryWorkItem) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global const int *in, global int *out, local int *s, int n, int m) {
      size_t l = get_local_id(0), g = get_global_id(0);
      int acc = 0, arr[4] = {0, 0, 0, 0};
      for (int i = 0; i < n; ++i) {               // uniform trip count
        if (i == 7) continue;                     // uniform continue
        if (i > 40) break;                        // uniform break
        acc += in[(g + (size_t)i) % 97] * (i + 1);
        arr[i & 3] += i;
      }
      for (int j = 0; j < m; ++j)                 // nested: both uniform
        for (int k = 0; k < n; ++k)
          acc ^= (j * 31 + k) << (l & 7);
      for (int q = 0; q < (int)(l % 4); ++q)      // per work-item ...
        for (int r = 0; r < n; ++r)               // ... around a uniform one
          acc += r + q;
      for (int t = 0; t < (int)(l % 3) + n; ++t)  // a trip count of its own
        acc += t * 5;
      s[l] = acc + arr[0] * 3 + arr[1] * 5 + arr[2] * 7 + arr[3] * 11;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[g] = s[l] + s[(l + 1) % get_local_size(0)];
    })"));
  std::vector<int> In(97);
  for (int I = 0; I < 97; ++I)
    In[I] = I * 13 % 29 - 9;
  auto value = [&](size_t G, size_t L, int N, int M) {
    int Acc = 0, Arr[4] = {0, 0, 0, 0};
    for (int I = 0; I < N; ++I) {
      if (I == 7)
        continue;
      if (I > 40)
        break;
      Acc += In[(G + size_t(I)) % 97] * (I + 1);
      Arr[I & 3] += I;
    }
    for (int J = 0; J < M; ++J)
      for (int K = 0; K < N; ++K)
        Acc ^= (J * 31 + K) << (L & 7);
    for (int Q = 0; Q < int(L % 4); ++Q)
      for (int R = 0; R < N; ++R)
        Acc += R + Q;
    for (int T = 0; T < int(L % 3) + N; ++T)
      Acc += T * 5;
    return Acc + Arr[0] * 3 + Arr[1] * 5 + Arr[2] * 7 + Arr[3] * 11;
  };
  for (size_t Local : {1, 3, 16, 33})
    for (auto [N, M] : {std::pair{0, 0}, {1, 1}, {9, 2}, {50, 3}}) {
      const size_t Global = Local * 3;
      std::vector<int> Out(Global, -1);
      ASSERT_TRUE(P.run("k", range1(Global, Local),
                        {Arg::pointer(In.data()), Arg::pointer(Out.data()),
                         Arg::local(Local * sizeof(int)), Arg::value(N), Arg::value(M)}));
      for (size_t G = 0; G < Global; ++G) {
        const size_t L = G % Local, Base = G - L, Next = Base + (L + 1) % Local;
        EXPECT_EQ(Out[G], value(G, L, N, M) + value(Next, (L + 1) % Local, N, M))
            << "local " << Local << " n " << N << " m " << M << " item " << G;
      }
    }
}

TEST(BarrierTest, PerGroupTripCountsAndNestedLoops) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global int *out) {
      local int acc[8];
      size_t l = get_local_id(0), g = get_group_id(0);
      int priv = 0;
      acc[l] = 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int i = 0; i < (int)g + 1; ++i) {      // trip count differs per group
        for (int j = 0; j < 2; ++j) {
          acc[(l + 1) % get_local_size(0)] += 1;  // neighbour's slot
          barrier(CLK_LOCAL_MEM_FENCE);
          priv += acc[l];
          barrier(CLK_LOCAL_MEM_FENCE);
        }
      }
      out[get_global_id(0)] = priv;
    })"));
  std::vector<int> Out(24, -1);
  ASSERT_TRUE(P.run("k", range1(24, 8), {Arg::pointer(Out.data())}));
  for (int I = 0; I < 24; ++I) {
    int Trips = (I / 8 + 1) * 2, Expect = 0;
    for (int T = 1; T <= Trips; ++T)
      Expect += T;
    EXPECT_EQ(Out[I], Expect) << I;
  }
}

TEST(BarrierTest, UniformConditionAndEarlyReturn) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global int *out, int mode) {
      local int t[16];
      size_t l = get_local_id(0);
      if (mode == 0) {
        t[l] = (int)l;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = t[15 - l];
        return;                                   // everyone returns early
      }
      if (get_group_id(0) == 1) {                 // uniform per group
        t[l] = 1000 + (int)l;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = t[(l + 1) % 16];
      } else {
        out[get_global_id(0)] = -5;
      }
    })"));
  for (int Mode : {0, 1}) {
    std::vector<int> Out(32, -1);
    ASSERT_TRUE(P.run("k", range1(32, 16), {Arg::pointer(Out.data()), Arg::value(Mode)}));
    for (int I = 0; I < 32; ++I) {
      int L = I % 16;
      int Expect = Mode == 0 ? 15 - L : (I / 16 == 1 ? 1000 + (L + 1) % 16 : -5);
      EXPECT_EQ(Out[I], Expect) << Mode << " " << I;
    }
  }
}

TEST(BarrierTest, BarrierInHelperAndPrivateArray) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    __attribute__((noinline)) void exchange(local int *t, int *priv, size_t l, size_t n) {
      t[l] = priv[0];
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
      priv[1] = t[n - 1 - l];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    kernel void k(global int *out) {
      local int t[32];
      int priv[8];
      size_t l = get_local_id(0), n = get_local_size(0);
      for (int i = 0; i < 8; ++i) priv[i] = (int)l * 10 + i;
      exchange(t, priv, l, n);
      int s = 0;
      for (int i = 0; i < 8; ++i) s += priv[i];
      out[get_global_id(0)] = s;
    })", "-cl-std=CL2.0"));
  std::vector<int> Out(32, -1);
  ASSERT_TRUE(P.run("k", range1(32, 32), {Arg::pointer(Out.data())}));
  for (int L = 0; L < 32; ++L) {
    int Expect = 0;
    for (int I = 0; I < 8; ++I)
      Expect += L * 10 + I;
    Expect += (31 - L) * 10 - (L * 10 + 1); // priv[1] replaced by the mirror's priv[0]
    EXPECT_EQ(Out[L], Expect) << L;
  }
}

TEST(BarrierTest, TwoDimensionalTranspose) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void t(global const float *in, global float *out, int w, int h) {
      local float tile[4][5];
      int lx = get_local_id(0), ly = get_local_id(1);
      int x = get_global_id(0), y = get_global_id(1);
      tile[ly][lx] = in[y * w + x];
      barrier(CLK_LOCAL_MEM_FENCE);
      int ox = get_group_id(1) * 4 + lx, oy = get_group_id(0) * 4 + ly;
      out[oy * h + ox] = tile[lx][ly];
    })"));
  const int W = 8, H = 12;
  std::vector<float> In(W * H), Out(W * H, -1);
  for (int I = 0; I < W * H; ++I)
    In[I] = float(I);
  NDRange R;
  R.Dims = 2;
  R.Global = {W, H, 1};
  R.Local = {4, 4, 1};
  ASSERT_TRUE(P.run("t", R, {Arg::pointer(In.data()), Arg::pointer(Out.data()), Arg::value(W), Arg::value(H)}));
  for (int Y = 0; Y < H; ++Y)
    for (int X = 0; X < W; ++X)
      EXPECT_EQ(Out[X * H + Y], In[Y * W + X]) << X << "," << Y;
}

// Values of every width cross barriers (kept in the frame or recomputed)
// in three-dimensional groups whose edge groups are smaller, so the frame
// columns are laid out for a group size below the enqueued one.
TEST(BarrierTest, FrameValuesOfEveryTypeInUnevenThreeDimensionalGroups) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void k(global const int *in, global long *out, int rounds) {
      local int ring[64];
      size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
      size_t l = (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
                 get_local_id(0);
      size_t g = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) +
                 get_global_id(0);
      int v = in[g];
      char c = (char)(v * 7);
      short s = (short)(v * 300);
      long w = (long)v << 33;
      float f = v * 0.5f;
      double d = v * 0.25;
      float4 q = (float4)(v, v + 1, v + 2, v + 3);
      int arr[5];
      for (int i = 0; i < 5; ++i)
        arr[i] = v + i;
      long acc = 0;
      for (int r = 0; r < rounds; ++r) {
        ring[l] = v + r;
        barrier(CLK_LOCAL_MEM_FENCE);
        int nb = ring[(l + 1) % n];
        barrier(CLK_LOCAL_MEM_FENCE);
        acc += nb + c + s + arr[(r + v) % 5];
      }
      out[g] = acc + w + (long)(f * 2) + (long)(d * 4) + (long)(q.x + q.y + q.z + q.w);
    })"));
  const size_t GX = 5, GY = 3, GZ = 2, LX = 4, LY = 2, LZ = 2;
  const int Rounds = 3;
  std::vector<int> In(GX * GY * GZ);
  std::vector<long long> Out(In.size(), -1);
  for (size_t G = 0; G < In.size(); ++G)
    In[G] = int(G % 17 + 1);
  NDRange R;
  R.Dims = 3;
  R.Global = {GX, GY, GZ};
  R.Local = {LX, LY, LZ};
  ASSERT_TRUE(
      P.run("k", R, {Arg::pointer(In.data()), Arg::pointer(Out.data()), Arg::value(Rounds)}));
  for (size_t Z = 0; Z < GZ; ++Z)
    for (size_t Y = 0; Y < GY; ++Y)
      for (size_t X = 0; X < GX; ++X) {
        // The group of (X, Y, Z), its size and the neighbour in linear order.
        size_t X0 = X / LX * LX, Y0 = Y / LY * LY, Z0 = Z / LZ * LZ;
        size_t NX = std::min(LX, GX - X0), NY = std::min(LY, GY - Y0), NZ = std::min(LZ, GZ - Z0);
        size_t N = NX * NY * NZ;
        size_t L = ((Z - Z0) * NY + (Y - Y0)) * NX + (X - X0);
        size_t Next = (L + 1) % N;
        size_t NbX = X0 + Next % NX, NbY = Y0 + Next / NX % NY, NbZ = Z0 + Next / (NX * NY);
        size_t G = (Z * GY + Y) * GX + X;
        int V = In[G], Nb = In[(NbZ * GY + NbY) * GX + NbX];
        long long Acc = 0;
        for (int Round = 0; Round < Rounds; ++Round)
          Acc += Nb + Round + V * 7 + V * 300 + V + (Round + V) % 5;
        long long Expect = Acc + ((long long)V << 33) + V + V + (4LL * V + 6);
        EXPECT_EQ(Out[G], Expect) << X << "," << Y << "," << Z;
      }
}

// More barriers than WorkGroupLoopPass makes region nests for: the kernel
// keeps one nest that dispatches on the state, with the same results.
TEST(BarrierTest, ManyBarriersShareOneNest) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    #define STEP(i) t[l] = acc + i; barrier(CLK_LOCAL_MEM_FENCE); \
                    acc += t[(l + 1) % n]; barrier(CLK_LOCAL_MEM_FENCE);
    #define FOUR(i) STEP(i) STEP(i + 1) STEP(i + 2) STEP(i + 3)
    kernel void k(global const int *in, global int *out) {
      local int t[16];
      size_t l = get_local_id(0), n = get_local_size(0);
      int acc = in[get_global_id(0)];
      FOUR(0) FOUR(4) FOUR(8) FOUR(12) FOUR(16) // 40 barriers
      out[get_global_id(0)] = acc;
    })"));
  const size_t N = 12, Local = 8;
  std::vector<int> In(N), Out(N, -1);
  for (size_t I = 0; I < N; ++I)
    In[I] = int(I * 3 % 7);
  ASSERT_TRUE(P.run("k", range1(N, Local), {Arg::pointer(In.data()), Arg::pointer(Out.data())}));
  std::vector<int> Acc(In);
  for (int Step = 0; Step < 20; ++Step) {
    std::vector<int> T(N);
    for (size_t I = 0; I < N; ++I)
      T[I] = Acc[I] + Step;
    for (size_t I = 0; I < N; ++I) {
      size_t G0 = I / Local * Local, Size = std::min(Local, N - G0);
      Acc[I] += T[G0 + (I - G0 + 1) % Size];
    }
  }
  for (size_t I = 0; I < N; ++I)
    EXPECT_EQ(Out[I], Acc[I]) << I;
}

// The work-group functions compiled for one local size (a hot kernel's
// launches, JitExecutable::specialize) give what the generic ones give: a
// tree reduction whose steps and strides are then constants, a tiled
// product whose x loop is whole vectors (or one), and every query of the
// group's shape, at a constant dimension and at one known only at run
// time, in 1-, 2- and 3-D groups.
TEST(BarrierTest, KernelsCompiledForTheirLocalSize) {
  Program P;
  ASSERT_TRUE(P.build(std::string(weft::test::FoldedSumsSource) + R"(
    kernel void tiled(global const float *a, global const float *b, global float *c, int n,
                      local float *at, local float *bt) {
      int lx = get_local_id(0), ly = get_local_id(1), w = get_local_size(0);
      int col = get_global_id(0), row = get_global_id(1);
      float acc = 0.0f;
      for (int t = 0; t < n; t += w) {
        at[ly * w + lx] = a[row * n + t + lx];
        bt[ly * w + lx] = b[(t + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < w; ++k)
          acc += at[ly * w + k] * bt[k * w + lx];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      c[row * n + col] = acc;
    }
    kernel void shape(global ulong *out, uint d) {
      local ulong total;
      if (get_local_linear_id() == 0) total = 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      atom_add(&total, get_local_id(0) + 1);
      barrier(CLK_LOCAL_MEM_FENCE);
      size_t g = get_global_linear_id();
      out[8 * g + 0] = get_local_size(0) + 100 * get_local_size(1) + 10000 * get_local_size(2);
      out[8 * g + 1] = get_enqueued_local_size(0) + 100 * get_enqueued_local_size(1) +
                       10000 * get_enqueued_local_size(2);
      out[8 * g + 2] = get_local_size(d);
      out[8 * g + 3] = get_local_linear_id();
      out[8 * g + 4] = get_global_id(0) + 1000 * get_global_id(1) + 1000000 * get_global_id(2);
      out[8 * g + 5] = total;
      out[8 * g + 6] = get_num_groups(0) * get_num_groups(1) * get_num_groups(2);
      out[8 * g + 7] = get_sub_group_size();
    })",
                      "-cl-std=CL3.0"));
  for (size_t Local : {1, 2, 3, 16, 17, 64, 100}) {
    const size_t Groups = 3, N = Local * Groups;
    std::vector<int> In(N), Out(Groups, -1);
    for (size_t I = 0; I < N; ++I)
      In[I] = int(I * 7 % 13) - 5;
    ASSERT_TRUE(P.runSpecialized(
        "folded_sums", range1(N, Local),
        {Arg::pointer(In.data()), Arg::pointer(Out.data()), Arg::local(Local * sizeof(int))}));
    for (size_t G = 0; G < Groups; ++G) {
      int Want = 0;
      for (size_t I = G * Local; I < (G + 1) * Local; ++I)
        Want += In[I];
      EXPECT_EQ(Out[G], Want) << "local " << Local << " group " << G;
    }
  }
  for (int W : {4, 8, 16, 32}) {
    const int N = 2 * W;
    Buffer<float> A(N * N), B(N * N), C(N * N, -1.0f);
    for (int I = 0; I < N * N; ++I) {
      A[I] = float(I % 7) - 3.0f;
      B[I] = float(I % 5) * 0.5f - 1.0f;
    }
    NDRange R;
    R.Dims = 2;
    R.Global = {size_t(N), size_t(N), 1};
    R.Local = {size_t(W), size_t(W), 1};
    ASSERT_TRUE(P.runSpecialized(
        "tiled", R,
        {Arg::pointer(A.data()), Arg::pointer(B.data()), Arg::pointer(C.data()), Arg::value(N),
         Arg::local(W * W * sizeof(float)), Arg::local(W * W * sizeof(float))}));
    for (int Row = 0; Row < N; ++Row)
      for (int Col = 0; Col < N; ++Col) {
        float Want = 0.0f;
        for (int K = 0; K < N; ++K)
          Want += A[Row * N + K] * B[K * N + Col];
        ASSERT_EQ(C[Row * N + Col], Want) << "tile " << W << " at " << Row << ", " << Col;
      }
  }
  for (std::array<size_t, 3> Local : {std::array<size_t, 3>{5, 1, 1}, {4, 3, 1}, {2, 3, 4}}) {
    NDRange R;
    R.Dims = 3;
    R.Local = Local;
    R.Global = {Local[0] * 2, Local[1] * 2, Local[2]};
    const size_t Items = R.Global[0] * R.Global[1] * R.Global[2];
    const size_t GroupItems = Local[0] * Local[1] * Local[2];
    const size_t Width = P.kernel("shape")->SubGroupSize;
    ASSERT_GE(Width, 4u);
    for (uint32_t D : {0u, 1u, 2u}) {
      std::vector<uint64_t> Out(8 * Items, ~0ull);
      ASSERT_TRUE(P.runSpecialized("shape", R, {Arg::pointer(Out.data()), Arg::value(D)}));
      for (size_t Z = 0; Z < R.Global[2]; ++Z)
        for (size_t Y = 0; Y < R.Global[1]; ++Y)
          for (size_t X = 0; X < R.Global[0]; ++X) {
            const size_t G = X + R.Global[0] * (Y + R.Global[1] * Z);
            const uint64_t *O = &Out[8 * G];
            const size_t Lx = X % Local[0], Ly = Y % Local[1], Lz = Z % Local[2];
            EXPECT_EQ(O[0], Local[0] + 100 * Local[1] + 10000 * Local[2]) << G;
            EXPECT_EQ(O[1], O[0]) << G;
            EXPECT_EQ(O[2], Local[D]) << G << " d " << D;
            EXPECT_EQ(O[3], Lx + Local[0] * (Ly + Local[1] * Lz)) << G;
            EXPECT_EQ(O[4], X + 1000 * Y + 1000000 * Z) << G;
            EXPECT_EQ(O[5], GroupItems / Local[0] * Local[0] * (Local[0] + 1) / 2) << G;
            EXPECT_EQ(O[6], 4u) << G;
            // Sub-groups of Width work-items in linear-id order, the last
            // one of the group the rest.
            const size_t Linear = O[3], First = Linear / Width * Width;
            EXPECT_EQ(O[7], std::min(Width, GroupItems - First)) << G;
          }
    }
  }
}

// Kernels without barriers whose loops read a column (BarrierStatePass gives
// the loop a barrier, and its iterations run across the work-items): a
// naive matrix product of a rectangular A (rows x n) and B (n x cols), the
// same with n a constant too long for the unroller, and column sums with a
// uniform break, over groups of every shape, edge
// groups included, with the generic function and one compiled for the
// launch's group size. Integers, so every order of the sums is exact.
TEST(BarrierTest, BarrierFreeLoopsOverColumnsComputeTheSame) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void product(global const int *A, global const int *B, global int *C, int n,
                        int cols) {
      int col = get_global_id(0), row = get_global_id(1);
      int acc = 0;
      for (int k = 0; k < n; ++k)
        acc += A[row * n + k] * B[k * cols + col];
      C[row * cols + col] = acc;
    }
    kernel void columns(global const int *In, global int *Out, int rows, int stop) {
      size_t col = get_global_id(0), cols = get_global_size(0);
      int sum = get_local_id(0);
      for (int r = 0; r < rows; ++r) {
        if (r == stop)
          break;
        sum += In[r * cols + col] * (r + 1);
      }
      Out[col] = sum;
    }
    // The same product with its depth a constant too long to unroll.
    kernel void product75(global const int *A, global const int *B, global int *C, int unused,
                          int cols) {
      int col = get_global_id(0), row = get_global_id(1);
      int acc = 0;
      for (int k = 0; k < 75; ++k)
        acc += A[row * 75 + k] * B[k * cols + col];
      C[row * cols + col] = acc;
    })"));
  EXPECT_GT(P.kernel("product")->PrivateFrameSize, 0u); // it got a barrier
  EXPECT_GT(P.kernel("columns")->PrivateFrameSize, 0u);
  EXPECT_GT(P.kernel("product75")->PrivateFrameSize, 0u);
  const int Rows = 21, N = 19, Cols = 40;
  Buffer<int> A(Rows * N), B(N * Cols);
  for (int I = 0; I < Rows * N; ++I)
    A[I] = I * 7 % 13 - 6;
  for (int I = 0; I < N * Cols; ++I)
    B[I] = I * 5 % 11 - 5;
  for (auto [Lx, Ly] : {std::pair<size_t, size_t>{1, 1}, {16, 1}, {8, 3}, {40, 1}, {5, 7}}) {
    for (bool Specialized : {false, true}) {
      if (Specialized && (Cols % Lx != 0 || Rows % Ly != 0))
        continue;
      for (int Depth : {0, 1, N}) {
        Buffer<int> C(Rows * Cols, -1);
        NDRange R;
        R.Dims = 2;
        R.Global = {size_t(Cols), size_t(Rows), 1};
        R.Local = {Lx, Ly, 1};
        const std::vector<Arg> Args = {Arg::pointer(A.data()), Arg::pointer(B.data()),
                                       Arg::pointer(C.data()), Arg::value(Depth), Arg::value(Cols)};
        ASSERT_TRUE(Specialized ? P.runSpecialized("product", R, Args) : P.run("product", R, Args));
        for (int Row = 0; Row < Rows; ++Row)
          for (int Col = 0; Col < Cols; ++Col) {
            int Want = 0;
            for (int K = 0; K < Depth; ++K)
              Want += A[Row * Depth + K] * B[K * Cols + Col];
            ASSERT_EQ(C[Row * Cols + Col], Want)
                << Lx << " x " << Ly << " n " << Depth << " at " << Row << ", " << Col;
          }
      }
    }
  }
  {
    const int Depth = 75;
    Buffer<int> A75(Rows * Depth), B75(Depth * Cols), C(Rows * Cols, -1);
    for (int I = 0; I < Rows * Depth; ++I)
      A75[I] = I * 7 % 13 - 6;
    for (int I = 0; I < Depth * Cols; ++I)
      B75[I] = I * 5 % 11 - 5;
    for (bool Specialized : {false, true}) {
      NDRange R;
      R.Dims = 2;
      R.Global = {size_t(Cols), size_t(Rows), 1};
      R.Local = {8, 3, 1};
      const std::vector<Arg> Args = {Arg::pointer(A75.data()), Arg::pointer(B75.data()),
                                     Arg::pointer(C.data()), Arg::value(0), Arg::value(Cols)};
      ASSERT_TRUE(Specialized ? P.runSpecialized("product75", R, Args)
                              : P.run("product75", R, Args));
      for (int Row = 0; Row < Rows; ++Row)
        for (int Col = 0; Col < Cols; ++Col) {
          int Want = 0;
          for (int K = 0; K < Depth; ++K)
            Want += A75[Row * Depth + K] * B75[K * Cols + Col];
          ASSERT_EQ(C[Row * Cols + Col], Want) << Specialized << " at " << Row << ", " << Col;
        }
    }
  }
  for (size_t Local : {1, 3, 16, 33})
    for (int Stop : {-1, 0, 5}) {
      const size_t Global = 66;
      Buffer<int> Out(Global, -1);
      ASSERT_TRUE(P.run(
          "columns", range1(Global, Local),
          {Arg::pointer(A.data()), Arg::pointer(Out.data()), Arg::value(6), Arg::value(Stop)}));
      for (size_t Col = 0; Col < Global; ++Col) {
        int Want = int(Col % Local);
        for (int Row = 0; Row < 6 && Row != Stop; ++Row)
          Want += A[Row * Global + Col] * (Row + 1);
        ASSERT_EQ(Out[Col], Want) << "local " << Local << " stop " << Stop << " column " << Col;
      }
    }
}

// Loops over columns behind bounds checks, as GPU code writes them: the
// groups whose checks pass in every work-item run a copy whose loop runs
// across the work-items (a barrier of BarrierStatePass's), the others the
// kernel as written. Ranges rounded up past the data, global offsets, edge
// groups and groups of one; the generic function and one compiled for the
// local size. A bound read from memory is no check the copy can compute
// for the group: that kernel keeps its loop.
TEST(BarrierTest, GuardedLoopsOverColumnsComputeTheSame) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void guarded(global const int *A, global const int *B, global int *C, int rows, int n,
                        int cols) {
      int col = get_global_id(0), row = get_global_id(1);
      if (row < rows && col < cols) {
        int acc = 0;
        for (int k = 0; k < n; ++k)
          acc += A[row * n + k] * B[k * cols + col];
        C[row * cols + col] = acc;
      }
    }
    kernel void early(global const int *In, global int *Out, uint cols, int rows) {
      size_t col = get_global_id(0) - get_global_offset(0);
      if (get_work_dim() != 1 || get_global_id(0) >= cols + get_global_offset(0))
        return;
      int sum = 0;
      for (int r = 0; r < rows; ++r)
        sum += In[r * cols + col];
      Out[col] = sum;
    }
    kernel void shifted(global const int *In, global int *Out, int cols, int rows) {
      int col = (int)get_local_id(0) + (int)(get_group_id(0) * get_local_size(0));
      if (!(col * 2 + 1 >= cols * 2 - 1)) {
        int sum = 0;
        for (int r = 0; r < rows; ++r)
          sum += In[r * cols + col];
        Out[col] = sum;
      }
    }
    kernel void fromMemory(global const int *In, global int *Out, global const int *Limit,
                           int rows) {
      size_t col = get_global_id(0);
      if (col < Limit[0]) {
        int sum = 0;
        for (int r = 0; r < rows; ++r)
          sum += In[r * Limit[1] + col];
        Out[col] = sum;
      }
    })"));
  for (const char *Name : {"guarded", "early", "shifted"})
    EXPECT_GT(P.kernel(Name)->PrivateFrameSize, 0u) << Name; // the copy's barrier
  EXPECT_EQ(P.kernel("fromMemory")->PrivateFrameSize, 0u);

  // Room past the data on every side a wrong copy would touch, where a
  // work-item that fails its check would read and write.
  const int Rows = 21, N = 19, Cols = 40, Room = 64 * 64;
  Buffer<int> A(Room), B(Room);
  for (int I = 0; I < Room; ++I) {
    A[I] = I * 7 % 13 - 6;
    B[I] = I * 5 % 11 - 5;
  }
  struct Shape {
    size_t Lx, Ly, Gx, Gy, Ox, Oy;
  };
  for (const Shape &S : std::initializer_list<Shape>{{16, 4, 48, 24, 0, 0},
                                                     {8, 3, 40, 21, 0, 0},
                                                     {8, 8, 48, 24, 0, 0},
                                                     {5, 7, 43, 22, 0, 0},
                                                     {1, 1, 40, 21, 0, 0},
                                                     {16, 2, 64, 22, 0, 0}}) {
    for (bool Specialized : {false, true}) {
      if (Specialized && (S.Gx % S.Lx != 0 || S.Gy % S.Ly != 0))
        continue;
      Buffer<int> C(Room, -1);
      NDRange R;
      R.Dims = 2;
      R.Global = {S.Gx, S.Gy, 1};
      R.Local = {S.Lx, S.Ly, 1};
      const std::vector<Arg> Args = {Arg::pointer(A.data()), Arg::pointer(B.data()),
                                     Arg::pointer(C.data()), Arg::value(Rows),
                                     Arg::value(N),          Arg::value(Cols)};
      ASSERT_TRUE(Specialized ? P.runSpecialized("guarded", R, Args) : P.run("guarded", R, Args));
      for (int Row = 0; Row < Rows; ++Row)
        for (int Col = 0; Col < Cols; ++Col) {
          int Want = 0;
          for (int K = 0; K < N; ++K)
            Want += A[Row * N + K] * B[K * Cols + Col];
          ASSERT_EQ(C[Row * Cols + Col], Want)
              << S.Lx << " x " << S.Ly << " over " << S.Gx << " x " << S.Gy << " specialized "
              << Specialized << " at " << Row << ", " << Col;
        }
      for (int I = Rows * Cols; I < Room; ++I)
        ASSERT_EQ(C[I], -1) << S.Lx << " x " << S.Ly << " wrote past the product at " << I;
    }
  }

  // Column sums of the first Cols columns (of Cols), with the ids offset
  // and the range past the columns.
  auto columnSums = [&](int Cols1, int RowsIn) {
    std::vector<int> Want(Cols1, 0);
    for (int C1 = 0; C1 < Cols1; ++C1)
      for (int R1 = 0; R1 < RowsIn; ++R1)
        Want[C1] += A[R1 * Cols1 + C1];
    return Want;
  };
  for (size_t Local : {1, 3, 16, 33})
    for (size_t Offset : {size_t(0), size_t(5), size_t(1) << 33}) {
      const int Cols1 = 20, RowsIn = 6;
      const size_t Global = (Cols1 + Local - 1) / Local * Local + Local;
      Buffer<int> Out(Global, -1);
      NDRange R = range1(Global, Local);
      R.Offset[0] = Offset;
      ASSERT_TRUE(P.run("early", R,
                        {Arg::pointer(A.data()), Arg::pointer(Out.data()),
                         Arg::value(uint32_t(Cols1)), Arg::value(RowsIn)}));
      const std::vector<int> Want = columnSums(Cols1, RowsIn);
      for (int C1 = 0; C1 < int(Global); ++C1)
        ASSERT_EQ(Out[C1], C1 < Cols1 ? Want[C1] : -1)
            << "early, local " << Local << " offset " << Offset << " column " << C1;
    }
  for (size_t Local : {1, 4, 16})
    for (int Cols1 : {1, 17, 32}) {
      const int RowsIn = 5;
      const size_t Global = 48;
      Buffer<int> Out(Global, -1);
      ASSERT_TRUE(P.run("shifted", range1(Global, Local),
                        {Arg::pointer(A.data()), Arg::pointer(Out.data()), Arg::value(Cols1),
                         Arg::value(RowsIn)}));
      const std::vector<int> Want = columnSums(Cols1, RowsIn);
      for (int C1 = 0; C1 < int(Global); ++C1)
        ASSERT_EQ(Out[C1], C1 < Cols1 - 1 ? Want[C1] : -1)
            << "shifted, local " << Local << " cols " << Cols1 << " column " << C1;
    }
}

} // namespace weft::compiler::test
