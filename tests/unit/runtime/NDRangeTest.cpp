// NDRange resolution below the API layer: each rule of
// clEnqueueNDRangeKernel's sizes, and the local size Weft chooses.
#include "runtime/execution/NDRange.h"

#include <gtest/gtest.h>

using namespace weft::rt;

namespace {

const NDRangeLimits Limits{/*MaxWorkItemSize=*/4096, /*KernelMax=*/4096, /*ComputeUnits=*/2};

NDRangeRequest request(cl_uint Dim, Size3 Global, std::optional<Size3> Local = std::nullopt,
                       std::optional<Size3> Offset = std::nullopt) {
  NDRangeRequest R;
  R.WorkDim = Dim;
  R.Global = Global;
  R.Local = Local;
  R.Offset = Offset;
  return R;
}

cl_int errorOf(const Result<NDRange> &R) { return R ? CL_SUCCESS : R.error().Code; }

TEST(NDRange, GivenSizesArePassedThroughAndUnusedDimensionsAreOne) {
  KernelDesc K;
  auto R = resolveNDRange(request(2, {64, 32, 99}, Size3{8, 4, 99}, Size3{5, 6, 99}), K, Limits);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Global, (Size3{64, 32, 1}));
  EXPECT_EQ(R->Local, (Size3{8, 4, 1}));
  EXPECT_EQ(R->Offset, (Size3{5, 6, 0}));
  EXPECT_FALSE(R->empty());
}

TEST(NDRange, NoGlobalSizeOrAZeroIsTheEmptyRange) {
  KernelDesc K;
  NDRangeRequest NoGlobal;
  auto R = resolveNDRange(NoGlobal, K, Limits);
  ASSERT_TRUE(R);
  EXPECT_TRUE(R->empty());
  auto Zero = resolveNDRange(request(3, {16, 0, 4}), K, Limits);
  ASSERT_TRUE(Zero);
  EXPECT_TRUE(Zero->empty());
}

TEST(NDRange, OffsetThatOverflowsIsInvalidGlobalOffset) {
  KernelDesc K;
  EXPECT_EQ(errorOf(resolveNDRange(request(1, {16, 1, 1}, std::nullopt, Size3{~0ull - 4, 0, 0}),
                                   K, Limits)),
            CL_INVALID_GLOBAL_OFFSET);
}

TEST(NDRange, LocalSizeErrors) {
  KernelDesc K;
  EXPECT_EQ(errorOf(resolveNDRange(request(1, {16, 1, 1}, Size3{0, 1, 1}), K, Limits)),
            CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(errorOf(resolveNDRange(request(1, {8192, 1, 1}, Size3{8192, 1, 1}), K, Limits)),
            CL_INVALID_WORK_ITEM_SIZE);
  EXPECT_EQ(errorOf(resolveNDRange(request(2, {128, 128, 1}, Size3{128, 64, 1}), K, Limits)),
            CL_INVALID_WORK_GROUP_SIZE)
      << "8192 work-items exceed CL_KERNEL_WORK_GROUP_SIZE";
}

TEST(NDRange, NonUniformGroupsOnlyWhereTheKernelAllowsThem) {
  KernelDesc K;
  EXPECT_TRUE(resolveNDRange(request(1, {100, 1, 1}, Size3{16, 1, 1}), K, Limits));
  K.UniformWorkGroupSize = true;
  EXPECT_EQ(errorOf(resolveNDRange(request(1, {100, 1, 1}, Size3{16, 1, 1}), K, Limits)),
            CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_TRUE(resolveNDRange(request(1, {96, 1, 1}, Size3{16, 1, 1}), K, Limits));
}

TEST(NDRange, ReqdWorkGroupSizeIsTheDefaultAndTheOnlyLocalSize) {
  KernelDesc K;
  K.ReqdWorkGroupSize = {8, 2, 1};
  auto R = resolveNDRange(request(2, {64, 64, 1}), K, Limits);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Local, (Size3{8, 2, 1}));
  EXPECT_EQ(errorOf(resolveNDRange(request(2, {64, 64, 1}, Size3{8, 4, 1}), K, Limits)),
            CL_INVALID_WORK_GROUP_SIZE);
  NDRangeLimits Small = Limits;
  Small.KernelMax = 8; // a kernel using sub-groups
  EXPECT_EQ(errorOf(resolveNDRange(request(2, {64, 64, 1}), K, Small)),
            CL_INVALID_WORK_GROUP_SIZE);
  K.UniformWorkGroupSize = true;
  EXPECT_EQ(errorOf(resolveNDRange(request(2, {60, 64, 1}), K, Limits)),
            CL_INVALID_WORK_GROUP_SIZE);
}

TEST(NDRange, ChosenLocalSizeDividesTheGlobalSizeForUniformKernels) {
  for (uint64_t G : {1u, 7u, 96u, 1000u, 4096u, 65537u}) {
    SCOPED_TRACE(G);
    Size3 L = chooseLocalSize(Limits, 1, {G, 1, 1}, /*AllowNonUniform=*/false);
    EXPECT_EQ(G % L[0], 0u);
    EXPECT_LE(L[0], 128u);
    EXPECT_EQ(L[1] * L[2], 1u);
  }
}

TEST(NDRange, ChosenLocalSizeTakesASmallerLastGroupOverTinyDivisors) {
  // 65537 is prime: a uniform kernel runs one work-item per group, a
  // non-uniform one full groups and a smaller last one.
  EXPECT_EQ(chooseLocalSize(Limits, 1, {65537, 1, 1}, false)[0], 1u);
  EXPECT_EQ(chooseLocalSize(Limits, 1, {65537, 1, 1}, true)[0], 128u);
}

TEST(NDRange, ChosenLocalSizeLeavesEveryComputeUnitSomeGroups) {
  // 256 work-items on 2 compute units: at least 8 groups.
  Size3 L = chooseLocalSize(Limits, 1, {256, 1, 1}, false);
  EXPECT_GE(256 / L[0], 8u);
  // Within the kernel's limit and the 128 budget in every dimension.
  NDRangeLimits Small = Limits;
  Small.KernelMax = 16;
  Size3 L2 = chooseLocalSize(Small, 2, {1024, 1024, 1}, false);
  EXPECT_LE(L2[0] * L2[1], 16u);
}

} // namespace
