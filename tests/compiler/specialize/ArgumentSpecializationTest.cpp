// Argument specialization (ArgumentSpecialization.h): which arguments the
// build marks, and kernels compiled through the whole pipeline for their
// argument values, whose loops and divisions fold and whose results are
// exact for the values they were compiled for.
#include "KernelRunner.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <string>
#include <vector>

namespace weft::compiler::test {

namespace {

// The bench's tree reduction, a counted loop and a remainder, and
// arguments that only feed data or addresses.
const char *const Source = R"(
kernel void reduceSum(global const uint *In, global uint *Partial, local uint *Scratch,
                      uint PerItem) {
  size_t Gid = get_global_id(0), GlobalSize = get_global_size(0);
  uint Sum = 0;
  for (uint I = 0; I < PerItem; ++I)
    Sum += In[Gid + I * GlobalSize];
  size_t L = get_local_id(0);
  Scratch[L] = Sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t Stride = get_local_size(0) / 2; Stride > 0; Stride >>= 1) {
    if (L < Stride)
      Scratch[L] += Scratch[L + Stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (L == 0)
    Partial[get_group_id(0)] = Scratch[0];
}
kernel void buckets(global uint *Out, ulong Modulus, short Base, float Scale, int Stride,
                    uint Limit, uint Rounds) {
  size_t G = get_global_id(0);
  if (G < Limit) {
    uint V = (uint)(G % Modulus) + Base + (uint)Scale;
    for (uint R = 0; R < min(Rounds, 3u); ++R)
      V = V * 3u + 1u;
    Out[G * Stride] = V;
  }
}
)";

rt::Specialization withArguments(std::vector<std::pair<uint32_t, uint64_t>> Values,
                                 uint64_t LocalSize = 0) {
  rt::Specialization S;
  S.Arguments = std::move(Values);
  if (LocalSize)
    S.LocalSize = {LocalSize, 1, 1};
  return S;
}

/// What the JIT gets for a specialized launch: the function's text.
std::string specializedText(const std::function<void()> &Run) {
  const std::string Printed = compilesPrinted(Run, "1");
  const size_t At = Printed.find(".specialized");
  return At == std::string::npos ? std::string() : Printed.substr(At);
}

} // namespace

TEST(ArgumentSpecializationTest, ArgumentsThatDecideOrDivideAreMarked) {
  Program P;
  ASSERT_TRUE(P.build(Source)) << P.log();
  // Modulus divides; Rounds bounds a loop through a min. Base and Scale
  // are data, Stride only scales an address, and Limit only guards a
  // branch. In a kernel with barriers PerItem bounds a loop too: the mark
  // is taken before the loop's iterations become regions.
  EXPECT_EQ(P.kernel("reduceSum")->ConditionArgs, 0b1000u);
  EXPECT_EQ(P.kernel("buckets")->ConditionArgs, 0b1000010u);
}

TEST(ArgumentSpecializationTest, KernelsCompiledForTheirArgumentsComputeTheSame) {
  Program P;
  ASSERT_TRUE(P.build(Source)) << P.log();
  // The trip count of a loop run across the work-items (pass 3), compiled
  // in: one of its two versions is left.
  constexpr size_t Group = 64, Groups = 6;
  for (uint32_t PerItem : {1u, 3u, 16u}) {
    const size_t Global = Group * Groups;
    std::vector<uint32_t> In(Global * PerItem), Want(Groups, 0);
    for (size_t I = 0; I < In.size(); ++I) {
      In[I] = uint32_t(I * 2654435761u >> 7);
      Want[I % Global / Group] += In[I];
    }
    std::vector<uint32_t> Got(Groups, 0);
    const std::vector<Arg> Args{Arg::pointer(In.data()), Arg::pointer(Got.data()),
                                Arg::local(Group * sizeof(uint32_t)), Arg::value(PerItem)};
    const std::string Text = specializedText([&] {
      P.runSpecializedFor("reduceSum", range1(Global, Group), Args,
                          withArguments({{3, PerItem}}, Group));
    });
    ASSERT_FALSE(Text.empty()) << PerItem;
    EXPECT_EQ(Got, Want) << PerItem;
  }

  // The remainder is by a constant (a mask for a power of two, a multiply
  // for the others, in code generation); the result is exact for values
  // either side of each multiple.
  for (uint64_t Modulus : {uint64_t(4), uint64_t(7), uint64_t(1) << 33}) {
    constexpr size_t N = 300;
    std::vector<uint32_t> Got(N, 0);
    const int16_t Base = -3;
    const std::string Text = specializedText([&] {
      P.runSpecializedFor("buckets", range1(N, 60),
                          {Arg::pointer(Got.data()), Arg::value(Modulus), Arg::value(Base),
                           Arg::value(2.5f), Arg::value(int32_t(1)), Arg::value(uint32_t(N - 7)),
                           Arg::value(uint32_t(2))},
                          withArguments({{1, Modulus}, {6, 2}}));
    });
    ASSERT_FALSE(Text.empty()) << Modulus;
    EXPECT_FALSE(std::regex_search(Text, std::regex("urem [^,]+, %"))) << Text;
    for (size_t G = 0; G < N; ++G) {
      uint32_t Want = 0;
      if (G < N - 7)
        Want = (uint32_t(G % Modulus) + uint32_t(Base) + 2u) * 9u + 4u;
      ASSERT_EQ(Got[G], Want) << Modulus << " " << G;
    }
  }
}

// A naive matrix product with its size an argument: its loop runs across
// the work-items (a barrier of BarrierStatePass's), and compiled for its
// size and its 16 x 16 groups its x loops still vectorize across the
// work-items. O3's full unroller had laid a row's 16 work-items one after
// another (the x loop's body is cheap once n is a constant), and the
// vectorizer took the row loop instead: B's row, consecutive across the
// work-items, was gathered, and the product ran 20 times slower.
TEST(ArgumentSpecializationTest, ColumnsCompiledForTheirArgumentsVectorizeAcrossWorkItems) {
  Program P;
  ASSERT_TRUE(P.build(R"(
    kernel void product(global const float *A, global const float *B, global float *C, int n) {
      int col = get_global_id(0), row = get_global_id(1);
      float acc = 0.0f;
      for (int k = 0; k < n; ++k)
        acc += A[row * n + k] * B[k * n + col];
      C[row * n + col] = acc;
    })"));
  EXPECT_GT(P.kernel("product")->PrivateFrameSize, 0u); // a column
  EXPECT_EQ(P.kernel("product")->ConditionArgs, 0b1000u);
  constexpr int N = 64;
  Buffer<float> A(N * N), B(N * N), C(N * N, -1.0f);
  for (int I = 0; I < N * N; ++I) {
    A[I] = float(I * 7 % 13 - 6);
    B[I] = float(I * 5 % 11 - 5);
  }
  NDRange R;
  R.Dims = 2;
  R.Global = {size_t(N), size_t(N), 1};
  R.Local = {16, 16, 1};
  rt::Specialization Square = withArguments({{3, N}});
  Square.LocalSize = {16, 16, 1};
  const std::string Text = specializedText([&] {
    P.runSpecializedFor("product", R,
                        {Arg::pointer(A.data()), Arg::pointer(B.data()), Arg::pointer(C.data()),
                         Arg::value(int32_t(N))},
                        Square);
  });
  ASSERT_FALSE(Text.empty());
  // B's row is loaded whole across the work-items, not element by element.
  EXPECT_TRUE(std::regex_search(Text, std::regex("load <(4|8|16) x float>"))) << Text;
  EXPECT_FALSE(std::regex_search(Text, std::regex("gather"))) << Text;
  for (int Row = 0; Row < N; ++Row)
    for (int Col = 0; Col < N; ++Col) {
      float Want = 0.0f;
      for (int K = 0; K < N; ++K)
        Want += A[Row * N + K] * B[K * N + Col];
      ASSERT_EQ(C[Row * N + Col], Want) << Row << ", " << Col;
    }
}

} // namespace weft::compiler::test
