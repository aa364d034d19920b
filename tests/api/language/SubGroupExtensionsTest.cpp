// The cl_khr_subgroup_* extensions through the ICD loader, from OpenCL C
// source and from SPIR-V (OpGroupNonUniform*, spirv/subgroup_extensions.cl),
// each result checked against the host's model of Weft's sub-groups
// (SubGroupModel.h): non-uniform arithmetic, votes and ballots in both
// sides of a branch (each side's work-items are that side's active set),
// the ballot bit functions and masks, shuffles, rotates, clustered
// reductions and broadcasts of vectors, in 1-, 2- and 3-D work-groups
// with partial sub-groups.
#include "ApiTest.h"
#include "language/SubGroupModel.h"

#include <bitset>
#include <cstring>
#include <limits>
#include <set>
#include <string_view>

using namespace weft::test;
using namespace weft::test::subgroups;

namespace {

/// Whether work-item I takes the branch of the non-uniform functions: per
/// sub-group all of them, about two in three, every other one, or none.
int takes(const Item &I) {
  switch ((I.Group + I.SubGroup) % 4) {
  case 0:
    return 1;
  case 1:
    return (I.Local * 5 + 1) % 3 != 0;
  case 2:
    return I.Local % 2;
  default:
    return 0;
  }
}

template <typename T> using Unsigned = std::make_unsigned_t<T>;

/// OpenCL C's +, * and bitwise operations on T (integers wrap).
template <typename T> T add(T A, T B) {
  if constexpr (std::is_integral_v<T>)
    return T(uint64_t(Unsigned<T>(A)) + uint64_t(Unsigned<T>(B)));
  else
    return A + B;
}
template <typename T> T mul(T A, T B) {
  if constexpr (std::is_integral_v<T>)
    return T(uint64_t(Unsigned<T>(A)) * uint64_t(Unsigned<T>(B)));
  else
    return A * B;
}
template <typename T> T lowest() {
  if constexpr (std::is_floating_point_v<T>)
    return -std::numeric_limits<T>::infinity();
  else
    return std::numeric_limits<T>::lowest();
}
template <typename T> T highest() {
  if constexpr (std::is_floating_point_v<T>)
    return std::numeric_limits<T>::infinity();
  else
    return std::numeric_limits<T>::max();
}

/// Bits of the work-items below id L of a sub-group (L <= 64).
uint64_t below(uint32_t L) { return L >= 64 ? ~uint64_t(0) : (uint64_t(1) << L) - 1; }

/// What one sub-group's work-items see: their global ids by local id, and
/// those of each side of the branch on takes().
struct SubGroup {
  std::vector<size_t> Ids;
  std::vector<uint32_t> Taken, Left; ///< local ids, ascending
};

std::vector<SubGroup> subGroups(const std::vector<Item> &Items) {
  std::vector<SubGroup> Out;
  for (const auto &[Where, Ids] : subGroupsOf(Items)) {
    SubGroup S;
    S.Ids = Ids;
    for (uint32_t L = 0; L < Ids.size(); ++L)
      (takes(Items[Ids[L]]) ? S.Taken : S.Left).push_back(L);
    Out.push_back(std::move(S));
  }
  return Out;
}

/// Where a test's kernels come from.
enum class From { Source, Spirv };

const char *name(From F) { return F == From::Source ? "OpenCL C" : "SPIR-V"; }

class SubGroupExtensions : public WithQueue {
protected:
  void SetUp() override {
    WithQueue::SetUp();
    std::ifstream In(std::string(WEFT_TEST_SPIRV_SOURCE_DIR) + "/subgroup_extensions.cl");
    ASSERT_TRUE(In.good());
    std::string Source(std::istreambuf_iterator<char>(In), {});
    SourceProgram = build(Source, "-cl-std=CL3.0");
    OwnedPrograms.push_back(SourceProgram);
    auto IL = readSpirv("subgroup_extensions.spv");
    cl_int Err;
    SpirvProgram = clCreateProgramWithIL(Context, IL.data(), IL.size(), &Err);
    ASSERT_EQ(Err, CL_SUCCESS);
    OwnedPrograms.push_back(SpirvProgram);
    ASSERT_EQ(clBuildProgram(SpirvProgram, 1, &Device, "", nullptr, nullptr), CL_SUCCESS)
        << buildLog(SpirvProgram);
  }

  cl_kernel make(From F, const std::string &Name) {
    cl_int Err;
    cl_kernel K =
        clCreateKernel(F == From::Source ? SourceProgram : SpirvProgram, Name.c_str(), &Err);
    EXPECT_EQ(Err, CL_SUCCESS) << Name;
    if (K)
      OwnedKernels.push_back(K);
    return K;
  }

  size_t widthOf(cl_kernel K) {
    size_t Wide = 4096, Width = 0;
    EXPECT_EQ(clGetKernelSubGroupInfo(K, Device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                      sizeof(Wide), &Wide, sizeof(Width), &Width, nullptr),
              CL_SUCCESS);
    return Width;
  }

  template <typename T> cl_mem input(const std::vector<T> &V) {
    return buffer(V.size() * sizeof(T), CL_MEM_COPY_HOST_PTR, const_cast<T *>(V.data()));
  }

  /// Runs K over R with the given buffers as its arguments.
  void run(cl_kernel K, const Range &R, std::initializer_list<cl_mem> Args) {
    cl_uint I = 0;
    for (cl_mem M : Args)
      ASSERT_EQ(clSetKernelArg(K, I++, sizeof(cl_mem), &M), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, R.Dims, nullptr, R.Global.data(), R.Local.data(),
                                     0, nullptr, nullptr),
              CL_SUCCESS);
  }

  std::vector<int> takeFlags(const std::vector<Item> &Items) {
    std::vector<int> Take(Items.size());
    for (const Item &I : Items)
      Take[I.Global] = takes(I);
    return Take;
  }

  template <typename T> void checkNonUniform(From F, const char *Type);
  void checkVotes(From F);
  void checkBallotBits(From F);
  template <typename T> void checkShuffles(From F, const char *Type);
  void checkClustered(From F);
  template <typename E, size_t Count, size_t Stored>
  void checkBroadcastVector(From F, const char *Type);
  template <typename T> void checkRotates(From F, const char *Type);

  cl_program SourceProgram = nullptr, SpirvProgram = nullptr;
};

template <typename T> void SubGroupExtensions::checkNonUniform(From F, const char *Type) {
  cl_kernel K = make(F, std::string("non_uniform_") + Type);
  const size_t Width = widthOf(K);
  for (const Range &R : Ranges) {
    SCOPED_TRACE(std::string(name(F)) + ", " + Type + ", " + describe(R));
    auto Items = enumerate(R, Width);
    // Every other work-group's sub-groups hold one value each (all_equal).
    std::vector<T> In(Items.size());
    for (const Item &I : Items)
      In[I.Global] = inputValue<T>(I.Group % 2 ? I.SubGroup : I.Global);
    cl_mem Out = buffer(In.size() * 15 * sizeof(T));
    run(K, R, {input(In), input(takeFlags(Items)), Out});
    auto Got = read<T>(Out, In.size() * 15);
    for (const SubGroup &S : subGroups(Items)) {
      auto value = [&](uint32_t L) { return In[S.Ids[L]]; };
      const std::vector<uint32_t> &A = S.Taken;
      if (!A.empty()) {
        T Sum = 0, Prod = 1, Min = highest<T>(), Max = lowest<T>(), And = 0, Or = 0;
        if constexpr (std::is_integral_v<T>)
          And = T(~T(0));
        bool Equal = true;
        for (uint32_t L : A) {
          Sum = add(Sum, value(L));
          Prod = mul(Prod, value(L));
          Min = std::min(Min, value(L));
          Max = std::max(Max, value(L));
          Equal &= value(L) == value(A[0]);
          if constexpr (std::is_integral_v<T>) {
            And = T(And & value(L));
            Or = T(Or | value(L));
          }
        }
        T ScanSum = 0, ScanMax = lowest<T>(), ScanProd = 1, ScanMin = highest<T>(), ScanOr = 0,
          ScanXor = 0;
        for (uint32_t L : A) {
          const T *O = &Got[S.Ids[L] * 15];
          const std::string At = "work-item " + std::to_string(S.Ids[L]);
          EXPECT_EQ(O[0], Sum) << "reduce_add, " << At;
          EXPECT_EQ(O[1], Prod) << "reduce_mul, " << At;
          EXPECT_EQ(O[2], Min) << "reduce_min, " << At;
          EXPECT_EQ(O[3], Max) << "reduce_max, " << At;
          EXPECT_EQ(O[6], ScanProd) << "scan_exclusive_mul, " << At;
          EXPECT_EQ(O[7], ScanMin) << "scan_exclusive_min, " << At;
          ScanSum = add(ScanSum, value(L));
          ScanMax = std::max(ScanMax, value(L));
          ScanProd = mul(ScanProd, value(L));
          ScanMin = std::min(ScanMin, value(L));
          EXPECT_EQ(O[4], ScanSum) << "scan_inclusive_add, " << At;
          EXPECT_EQ(O[5], ScanMax) << "scan_inclusive_max, " << At;
          EXPECT_EQ(O[8], value(A.front())) << "broadcast_first, " << At;
          EXPECT_EQ(O[9], T(Equal)) << "all_equal, " << At;
          EXPECT_EQ(O[10], value(A.back())) << "non_uniform_broadcast, " << At;
          T Cluster = 0;
          for (uint32_t C : A)
            if (C / 4 == L / 4)
              Cluster = add(Cluster, value(C));
          EXPECT_EQ(O[11], Cluster) << "clustered_reduce_add(4), " << At;
          if constexpr (std::is_integral_v<T>) {
            EXPECT_EQ(O[12], And) << "reduce_and, " << At;
            EXPECT_EQ(O[14], ScanXor) << "scan_exclusive_xor, " << At;
            ScanOr = T(ScanOr | value(L));
            ScanXor = T(ScanXor ^ value(L));
            EXPECT_EQ(O[13], ScanOr) << "scan_inclusive_or, " << At;
          }
        }
      }
      // The other side of the branch: its own reduce.
      T LeftMax = lowest<T>();
      for (uint32_t L : S.Left)
        LeftMax = std::max(LeftMax, value(L));
      for (uint32_t L : S.Left)
        EXPECT_EQ(Got[S.Ids[L] * 15], LeftMax) << "reduce_max, else branch, " << S.Ids[L];
    }
  }
}

void SubGroupExtensions::checkVotes(From F) {
  cl_kernel K = make(F, "votes");
  const size_t Width = widthOf(K);
  for (const Range &R : Ranges) {
    SCOPED_TRACE(std::string(name(F)) + ", " + describe(R));
    auto Items = enumerate(R, Width);
    std::vector<int> Pred(Items.size());
    for (const Item &I : Items)
      Pred[I.Global] = I.Group % 3 == 0   ? int(I.Local) + 1
                       : I.Group % 3 == 1 ? int(I.Local % 3 == 1) * 5
                                          : 0;
    cl_mem Out = buffer(Items.size() * 12 * sizeof(cl_uint));
    run(K, R, {input(Pred), input(takeFlags(Items)), Out});
    auto Got = read<cl_uint>(Out, Items.size() * 12);
    for (const SubGroup &S : subGroups(Items)) {
      auto on = [&](uint32_t L) { return Pred[S.Ids[L]] != 0; };
      uint64_t Ballot = 0;
      bool All = true, Any = false;
      for (uint32_t L : S.Taken) {
        Ballot |= uint64_t(on(L)) << L;
        All &= on(L);
        Any |= on(L);
      }
      bool ScanOr = false, ScanXor = false;
      for (uint32_t L : S.Taken) {
        const cl_uint *O = &Got[S.Ids[L] * 12];
        const std::string At = "work-item " + std::to_string(S.Ids[L]);
        EXPECT_EQ(O[0], cl_uint(L == S.Taken.front())) << "elect, " << At;
        EXPECT_EQ(O[1], cl_uint(All)) << "non_uniform_all, " << At;
        EXPECT_EQ(O[2], cl_uint(Any)) << "non_uniform_any, " << At;
        EXPECT_EQ(O[3], cl_uint(Ballot)) << "ballot.x, " << At;
        EXPECT_EQ(O[4], cl_uint(Ballot >> 32)) << "ballot.y, " << At;
        EXPECT_EQ(O[5], 0u) << "ballot.zw, " << At;
        EXPECT_EQ(O[6], cl_uint(All)) << "reduce_logical_and, " << At;
        EXPECT_EQ(O[8], cl_uint(ScanXor)) << "scan_exclusive_logical_xor, " << At;
        ScanOr |= on(L);
        ScanXor ^= on(L);
        EXPECT_EQ(O[7], cl_uint(ScanOr)) << "scan_inclusive_logical_or, " << At;
        EXPECT_EQ(O[9], cl_uint(std::bitset<64>(Ballot).count())) << "ballot_bit_count, " << At;
        EXPECT_EQ(O[10], cl_uint(std::bitset<64>(Ballot & below(L + 1)).count()))
            << "ballot_inclusive_scan, " << At;
        EXPECT_EQ(O[11], cl_uint(std::bitset<64>(Ballot & below(L)).count()))
            << "ballot_exclusive_scan, " << At;
      }
      for (uint32_t L : S.Left)
        EXPECT_EQ(Got[S.Ids[L] * 12], cl_uint(L == S.Left.front()))
            << "elect, else branch, " << S.Ids[L];
    }
  }
}

void SubGroupExtensions::checkBallotBits(From F) {
  cl_kernel K = make(F, "ballot_bits");
  const size_t Width = widthOf(K);
  for (const Range &R : Ranges) {
    SCOPED_TRACE(std::string(name(F)) + ", " + describe(R));
    auto Items = enumerate(R, Width);
    // Pseudo-random bits, with at least one of the sub-group's (find_lsb
    // and find_msb are undefined without).
    std::vector<cl_uint4> In(Items.size());
    for (const Item &I : Items) {
      uint64_t X = (I.Global + 1) * 0x9E3779B97F4A7C15ull;
      X ^= X >> 29;
      X |= uint64_t(1) << (I.Global % I.MaxSize);
      In[I.Global] = {{cl_uint(X), cl_uint(X >> 32), cl_uint(X * 3), cl_uint(X >> 7)}};
    }
    cl_mem Out = buffer(Items.size() * 14 * sizeof(cl_uint));
    run(K, R, {input(In), Out});
    auto Got = read<cl_uint>(Out, Items.size() * 14);
    for (const Item &I : Items) {
      const cl_uint *O = &Got[I.Global * 14];
      const cl_uint4 &V = In[I.Global];
      const uint64_t Bits = V.s[0] | uint64_t(V.s[1]) << 32, Members = below(I.MaxSize);
      const std::string At = "work-item " + std::to_string(I.Global);
      const uint32_t L = I.Local, Index = uint32_t(I.Global * 37 % 128);
      EXPECT_EQ(O[0], cl_uint((Bits >> L) & 1)) << "inverse_ballot, " << At;
      EXPECT_EQ(O[1], cl_uint((V.s[Index / 32] >> (Index % 32)) & 1)) << "bit_extract, " << At;
      EXPECT_EQ(O[2], cl_uint(__builtin_ctzll(Bits & Members))) << "find_lsb, " << At;
      EXPECT_EQ(O[3], cl_uint(63 - __builtin_clzll(Bits & Members))) << "find_msb, " << At;
      const uint64_t Masks[5] = {uint64_t(1) << L, Members & ~below(L), Members & ~below(L + 1),
                                 below(L + 1), below(L)};
      const char *Names[5] = {"eq", "ge", "gt", "le", "lt"};
      for (int M = 0; M < 5; ++M) {
        EXPECT_EQ(O[4 + 2 * M], cl_uint(Masks[M])) << Names[M] << "_mask.x, " << At;
        EXPECT_EQ(O[5 + 2 * M], cl_uint(Masks[M] >> 32)) << Names[M] << "_mask.yzw, " << At;
      }
    }
  }
}

template <typename T> void SubGroupExtensions::checkShuffles(From F, const char *Type) {
  cl_kernel K = make(F, std::string("shuffles_") + Type);
  const size_t Width = widthOf(K);
  for (const Range &R : Ranges) {
    SCOPED_TRACE(std::string(name(F)) + ", " + Type + ", " + describe(R));
    auto Items = enumerate(R, Width);
    std::vector<T> In(Items.size());
    std::vector<cl_uint> Arg(Items.size());
    for (const Item &I : Items) {
      In[I.Global] = inputValue<T>(I.Global);
      Arg[I.Global] = cl_uint((I.Global * 5 + 1) % I.Size);
    }
    cl_mem Out = buffer(In.size() * 4 * sizeof(T));
    run(K, R, {input(In), input(Arg), Out});
    auto Got = read<T>(Out, In.size() * 4);
    for (const SubGroup &S : subGroups(Items)) {
      const size_t N = S.Ids.size();
      for (size_t L = 0; L < N; ++L) {
        const T *O = &Got[S.Ids[L] * 4];
        const size_t A = Arg[S.Ids[L]];
        const std::string At = "work-item " + std::to_string(S.Ids[L]) + ", " + std::to_string(A);
        EXPECT_EQ(O[0], In[S.Ids[A]]) << "shuffle, " << At;
        if ((L ^ A) < N)
          EXPECT_EQ(O[1], In[S.Ids[L ^ A]]) << "shuffle_xor, " << At;
        if (A <= L)
          EXPECT_EQ(O[2], In[S.Ids[L - A]]) << "shuffle_up, " << At;
        if (L + A < N)
          EXPECT_EQ(O[3], In[S.Ids[L + A]]) << "shuffle_down, " << At;
      }
    }
  }
}

void SubGroupExtensions::checkClustered(From F) {
  cl_kernel K = make(F, "clustered");
  const size_t Width = widthOf(K);
  for (const Range &R : Ranges) {
    SCOPED_TRACE(std::string(name(F)) + ", " + describe(R));
    auto Items = enumerate(R, Width);
    std::vector<int> In(Items.size());
    for (size_t G = 0; G < In.size(); ++G)
      In[G] = G % 5 == 0 ? 0 : inputValue<int>(G);
    cl_mem Out = buffer(In.size() * 6 * sizeof(int));
    run(K, R, {input(In), input(takeFlags(Items)), Out});
    auto Got = read<int>(Out, In.size() * 6);
    for (const SubGroup &S : subGroups(Items))
      for (uint32_t L : S.Taken) {
        // The active work-items of L's cluster of Size.
        auto cluster = [&](uint32_t Size) {
          std::vector<int> V;
          for (uint32_t C : S.Taken)
            if (C / Size == L / Size)
              V.push_back(In[S.Ids[C]]);
          return V;
        };
        const int *O = &Got[S.Ids[L] * 6];
        const std::string At = "work-item " + std::to_string(S.Ids[L]);
        EXPECT_EQ(O[0], In[S.Ids[L]]) << "clustered_reduce_add(1), " << At;
        auto Two = cluster(2), Four = cluster(4);
        EXPECT_EQ(O[1], *std::min_element(Two.begin(), Two.end())) << "min(2), " << At;
        int Xor = 0, Prod = 1, Or = 0;
        for (int V : Four) {
          Xor ^= V;
          Prod = mul(Prod, V);
        }
        for (int V : Two)
          Or |= V != 0;
        EXPECT_EQ(O[2], Xor) << "xor(4), " << At;
        EXPECT_EQ(O[3], Prod) << "mul(4), " << At;
        EXPECT_EQ(O[4], Or) << "logical_or(2), " << At;
        EXPECT_EQ(O[5], *std::max_element(Four.begin(), Four.end())) << "max(4), " << At;
      }
  }
}

/// A vector of Count elements of E, Stored of them in memory (4 for 3).
template <typename E, size_t Count, size_t Stored>
void SubGroupExtensions::checkBroadcastVector(From F, const char *Type) {
  cl_kernel K = make(F, std::string("broadcast_") + Type);
  const size_t Width = widthOf(K);
  for (const Range &R : Ranges) {
    SCOPED_TRACE(std::string(name(F)) + ", " + Type + ", " + describe(R));
    auto Items = enumerate(R, Width);
    std::vector<E> In(Items.size() * Stored);
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = inputValue<E>(I);
    cl_mem Out = buffer(Items.size() * 2 * Stored * sizeof(E));
    run(K, R, {input(In), input(takeFlags(Items)), Out});
    auto Got = read<E>(Out, Items.size() * 2 * Stored);
    auto expectVector = [&](size_t At, size_t From, const char *What, size_t Id) {
      for (size_t C = 0; C < Count; ++C)
        EXPECT_EQ(Got[At * Stored + C], In[From * Stored + C])
            << What << ", work-item " << Id << " element " << C;
    };
    for (const SubGroup &S : subGroups(Items))
      for (size_t L = 0; L < S.Ids.size(); ++L) {
        expectVector(2 * S.Ids[L], S.Ids.back(), "broadcast", S.Ids[L]);
        if (takes(Items[S.Ids[L]]))
          expectVector(2 * S.Ids[L] + 1, S.Ids[S.Taken.back()], "non_uniform_broadcast",
                       S.Ids[L]);
      }
  }
}

template <typename T> void SubGroupExtensions::checkRotates(From F, const char *Type) {
  cl_kernel K = make(F, std::string("rotates_") + Type);
  const size_t Width = widthOf(K);
  for (const Range &R : Ranges) {
    SCOPED_TRACE(std::string(name(F)) + ", " + Type + ", " + describe(R));
    auto Items = enumerate(R, Width);
    std::vector<T> In(Items.size());
    for (size_t I = 0; I < In.size(); ++I)
      In[I] = inputValue<T>(I);
    cl_mem Out = buffer(In.size() * 2 * sizeof(T));
    run(K, R, {input(In), Out});
    auto Got = read<T>(Out, In.size() * 2);
    for (const auto &[Where, Ids] : subGroupsOf(Items)) {
      const Item &First = Items[Ids[0]];
      const int32_t D = int32_t(First.SubGroup % 5) - 1;
      for (uint32_t L = 0; L < Ids.size(); ++L) {
        const uint64_t Rotated = (uint64_t(L) + uint32_t(D)) % First.MaxSize;
        const uint32_t Clustered = (L & ~3u) + ((L + uint32_t(D)) & 3u);
        const std::string At = "work-item " + std::to_string(Ids[L]) + ", delta " +
                               std::to_string(D);
        if (Rotated < Ids.size())
          EXPECT_EQ(Got[2 * Ids[L]], In[Ids[Rotated]]) << "rotate, " << At;
        if (Clustered < Ids.size())
          EXPECT_EQ(Got[2 * Ids[L] + 1], In[Ids[Clustered]]) << "clustered_rotate(4), " << At;
      }
    }
  }
}

const From Both[] = {From::Source, From::Spirv};

} // namespace

TEST_F(SubGroupExtensions, DeviceReportsEveryExtension) {
  std::string Ext = infoString(clGetDeviceInfo, Device, CL_DEVICE_EXTENSIONS);
  for (const char *E : {"cl_khr_subgroup_extended_types", "cl_khr_subgroup_non_uniform_vote",
                        "cl_khr_subgroup_ballot", "cl_khr_subgroup_non_uniform_arithmetic",
                        "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
                        "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate"})
    EXPECT_NE((" " + Ext + " ").find(std::string(" ") + E + " "), std::string::npos) << E;
}

TEST_F(SubGroupExtensions, NonUniformArithmeticInBothSidesOfABranch) {
  for (From F : Both) {
    checkNonUniform<cl_char>(F, "char");
    checkNonUniform<cl_uchar>(F, "uchar");
    checkNonUniform<cl_short>(F, "short");
    checkNonUniform<cl_ushort>(F, "ushort");
    checkNonUniform<cl_int>(F, "int");
    checkNonUniform<cl_uint>(F, "uint");
    checkNonUniform<cl_long>(F, "long");
    checkNonUniform<cl_ulong>(F, "ulong");
    checkNonUniform<cl_float>(F, "float");
    checkNonUniform<cl_double>(F, "double");
  }
}

TEST_F(SubGroupExtensions, VotesAndBallotsOfTheActiveWorkItems) {
  for (From F : Both)
    checkVotes(F);
}

TEST_F(SubGroupExtensions, BallotBitFunctionsAndMasks) {
  for (From F : Both)
    checkBallotBits(F);
}

TEST_F(SubGroupExtensions, Shuffles) {
  for (From F : Both) {
    checkShuffles<cl_char>(F, "char");
    checkShuffles<cl_ushort>(F, "ushort");
    checkShuffles<cl_int>(F, "int");
    checkShuffles<cl_ulong>(F, "ulong");
    checkShuffles<cl_float>(F, "float");
    checkShuffles<cl_double>(F, "double");
  }
}

TEST_F(SubGroupExtensions, Rotates) {
  for (From F : Both) {
    checkRotates<cl_uchar>(F, "uchar");
    checkRotates<cl_long>(F, "long");
    checkRotates<cl_float>(F, "float");
  }
}

TEST_F(SubGroupExtensions, ClusteredReduceOfTheActiveWorkItems) {
  for (From F : Both)
    checkClustered(F);
}

TEST_F(SubGroupExtensions, BroadcastsOfVectors) {
  for (From F : Both) {
    checkBroadcastVector<cl_char, 16, 16>(F, "char16");
    checkBroadcastVector<cl_ushort, 3, 4>(F, "ushort3");
    checkBroadcastVector<cl_int, 4, 4>(F, "int4");
    checkBroadcastVector<cl_ulong, 8, 8>(F, "ulong8");
    checkBroadcastVector<cl_float, 2, 2>(F, "float2");
    checkBroadcastVector<cl_double, 16, 16>(F, "double16");
  }
}

// cl_intel_required_subgroup_size: every size the device lists runs as
// required (get_max_sub_group_size, the sub-groups' extent, a reduce and a
// shuffle), the queries say the same, and a size it does not list fails
// the build with a log that names it.
TEST_F(SubGroupExtensions, RequiredSubGroupSizes) {
  std::string Ext = infoString(clGetDeviceInfo, Device, CL_DEVICE_EXTENSIONS);
  EXPECT_NE((" " + Ext + " ").find(" cl_intel_required_subgroup_size "), std::string::npos);
  size_t Bytes = 0;
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr, &Bytes),
            CL_SUCCESS);
  std::vector<size_t> Sizes(Bytes / sizeof(size_t));
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, Bytes, Sizes.data(), nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Sizes, (std::vector<size_t>{4, 8, 16, 32, 64}));
  // The default size is one of them, and the most sub-groups a group has
  // is that of the smallest.
  EXPECT_NE(std::find(Sizes.begin(), Sizes.end(), widthOf(make(From::Source, "votes"))),
            Sizes.end());
  const size_t MaxGroup = info<size_t>(clGetDeviceInfo, Device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  EXPECT_EQ(info<cl_uint>(clGetDeviceInfo, Device, CL_DEVICE_MAX_NUM_SUB_GROUPS),
            cl_uint(MaxGroup / 4));
  EXPECT_EQ(clGetKernelSubGroupInfo(make(From::Source, "votes"), Device,
                                    CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, nullptr,
                                    sizeof(size_t), &Bytes, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(Bytes, 0u);

  const Range Shapes[] = {{1, {200, 1, 1}, {100, 1, 1}}, {2, {16, 12, 1}, {16, 6, 1}}};
  for (From F : Both)
    for (size_t N : Sizes) {
      cl_kernel K = make(F, "required_" + std::to_string(N));
      size_t Compiled = 0;
      ASSERT_EQ(clGetKernelSubGroupInfo(K, Device, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0,
                                        nullptr, sizeof(Compiled), &Compiled, nullptr),
                CL_SUCCESS);
      EXPECT_EQ(Compiled, N);
      EXPECT_EQ(widthOf(K), N);
      if (F == From::Source)
        EXPECT_NE(infoString(clGetKernelInfo, K, CL_KERNEL_ATTRIBUTES)
                      .find("intel_reqd_sub_group_size(" + std::to_string(N) + ")"),
                  std::string::npos);
      for (const Range &R : Shapes) {
        SCOPED_TRACE(std::string(name(F)) + ", size " + std::to_string(N) + ", " + describe(R));
        auto Items = enumerate(R, N);
        std::vector<int> In(Items.size());
        for (size_t G = 0; G < In.size(); ++G)
          In[G] = inputValue<int>(G);
        cl_mem Out = buffer(In.size() * 4 * sizeof(int));
        run(K, R, {input(In), Out});
        auto Got = read<int>(Out, In.size() * 4);
        for (const SubGroup &S : subGroups(Items)) {
          int Sum = 0;
          for (size_t Id : S.Ids)
            Sum += In[Id];
          for (size_t L = 0; L < S.Ids.size(); ++L) {
            const int *O = &Got[S.Ids[L] * 4];
            EXPECT_EQ(O[0], int(std::min<size_t>(N, R.Local[0] * R.Local[1])));
            EXPECT_EQ(O[1], int(L));
            EXPECT_EQ(O[2], Sum);
            if ((L ^ 1) < S.Ids.size())
              EXPECT_EQ(O[3], In[S.Ids[L ^ 1]]);
          }
        }
      }
    }

  const char *Odd = "__attribute__((intel_reqd_sub_group_size(12))) kernel void k(global int *o) "
                    "{ o[0] = get_sub_group_size(); }";
  cl_int Err;
  cl_program P = clCreateProgramWithSource(Context, 1, &Odd, nullptr, &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedPrograms.push_back(P);
  EXPECT_EQ(clBuildProgram(P, 1, &Device, "-cl-std=CL3.0", nullptr, nullptr),
            CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(buildLog(P).find("requires sub-groups of 12 work-items"), std::string::npos)
      << buildLog(P);
  // The macro of the extension.
  cl_kernel Probe = kernel(R"CLC(
    kernel void k(global int *out) {
    #ifdef cl_intel_required_subgroup_size
      out[0] = 1;
    #else
      out[0] = 0;
    #endif
    })CLC",
                           "k", "-cl-std=CL3.0");
  cl_mem Flag = buffer(sizeof(int));
  const size_t One = 1;
  ASSERT_EQ(clSetKernelArg(Probe, 0, sizeof(cl_mem), &Flag), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Probe, 1, nullptr, &One, &One, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read<int>(Flag, 1)[0], 1);
}
