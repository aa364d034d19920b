// The host probe reports plausible, internally consistent facts.
#include "device/cpu/CpuInfo.h"

#include <gtest/gtest.h>
#include <sched.h>

TEST(CpuInfo, MatchesAffinityAndSystem) {
  weft::rt::DeviceProperties P = weft::cpu::probeHostCpu();
  cpu_set_t Set;
  CPU_ZERO(&Set);
  ASSERT_EQ(sched_getaffinity(0, sizeof(Set), &Set), 0);
  EXPECT_EQ(P.ComputeUnits, unsigned(CPU_COUNT(&Set)));
  EXPECT_FALSE(P.Name.empty());
  EXPECT_GT(P.GlobalMemSize, 0u);
  EXPECT_GE(P.MaxMemAllocSize, P.GlobalMemSize / 4);
  EXPECT_GE(P.LocalMemSize, 32u * 1024);
  // Vector widths follow the SIMD register: floats are 4 bytes.
  EXPECT_EQ(P.VectorWidths[4] * 4, P.SimdBytes);
  EXPECT_EQ(P.VectorWidths[0], P.SimdBytes);
  EXPECT_TRUE(P.SimdBytes == 16 || P.SimdBytes == 32 || P.SimdBytes == 64);
}
