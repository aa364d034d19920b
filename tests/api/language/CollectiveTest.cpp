// Work-group collective functions through the ICD loader: every operation
// on int, ulong, float and double in 1-D groups (with a smaller last group)
// and 2-D groups, several collectives in a row in one kernel, checked
// against sequential host results.
#include "ApiTest.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace weft::test;

namespace {

const char *CollectiveSource = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define ALL(T, NAME)                                                          \
kernel void NAME(global const T *in, global T *out, global int *flags) {      \
  size_t g = get_global_linear_id();                                          \
  T x = in[g];                                                                \
  global T *o = out + g * 10;                                                 \
  o[0] = work_group_reduce_add(x);                                            \
  o[1] = work_group_reduce_min(x);                                            \
  o[2] = work_group_reduce_max(x);                                            \
  o[3] = work_group_scan_inclusive_add(x);                                    \
  o[4] = work_group_scan_inclusive_min(x);                                    \
  o[5] = work_group_scan_inclusive_max(x);                                    \
  o[6] = work_group_scan_exclusive_add(x);                                    \
  o[7] = work_group_scan_exclusive_min(x);                                    \
  o[8] = work_group_scan_exclusive_max(x);                                    \
  o[9] = get_work_dim() == 1 ? work_group_broadcast(x, 1)                     \
                             : work_group_broadcast(x, 1, 1);                 \
  flags[g * 2] = work_group_all(x > (T)0);                                    \
  flags[g * 2 + 1] = work_group_any(x > (T)40);                               \
}
ALL(int, ints)
ALL(ulong, ulongs)
ALL(float, floats)
ALL(double, doubles)
)CLC";

class Collectives : public WithQueue {
protected:
  /// Runs Kernel over Global items in groups of Local and checks each
  /// work-item's ten results and two flags against the host.
  template <typename T>
  void check(const char *Kernel, cl_uint Dims, const size_t *Global, const size_t *Local) {
    cl_kernel K = kernel(CollectiveSource, Kernel, "-cl-std=CL3.0");
    size_t N = Global[0] * (Dims > 1 ? Global[1] : 1);
    std::vector<T> In(N);
    for (size_t I = 0; I < N; ++I)
      In[I] = T((I * 37 + 11) % 50); // 0..49: some zero, some above 40
    cl_mem InBuf = buffer(N * sizeof(T), CL_MEM_COPY_HOST_PTR, In.data());
    cl_mem Out = buffer(N * 10 * sizeof(T)), Flags = buffer(N * 2 * sizeof(int));
    ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &Out), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(K, 2, sizeof(cl_mem), &Flags), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, Dims, nullptr, Global, Local, 0, nullptr, nullptr),
              CL_SUCCESS);
    auto Got = read<T>(Out, N * 10);
    auto GotFlags = read<int>(Flags, N * 2);
    // The members of each group in linear local id order.
    size_t GX = Global[0], GY = Dims > 1 ? Global[1] : 1, LX = Local[0],
           LY = Dims > 1 ? Local[1] : 1;
    for (size_t Y0 = 0; Y0 < GY; Y0 += LY)
      for (size_t X0 = 0; X0 < GX; X0 += LX) {
        size_t W = std::min(LX, GX - X0), H = std::min(LY, GY - Y0);
        std::vector<size_t> Members;
        for (size_t Y = Y0; Y < Y0 + H; ++Y)
          for (size_t X = X0; X < X0 + W; ++X)
            Members.push_back(Y * GX + X);
        T Sum = 0, Lo = std::numeric_limits<T>::max(), Hi = std::numeric_limits<T>::lowest();
        bool All = true, Any = false;
        for (size_t M : Members) {
          Sum += In[M];
          Lo = std::min(Lo, In[M]);
          Hi = std::max(Hi, In[M]);
          All &= In[M] > T(0);
          Any |= In[M] > T(40);
        }
        T ISum = 0, IMin = std::numeric_limits<T>::max(), IMax = std::numeric_limits<T>::lowest();
        if (std::numeric_limits<T>::has_infinity) {
          IMin = std::numeric_limits<T>::infinity();
          IMax = -std::numeric_limits<T>::infinity();
        }
        T Broadcast = In[Dims == 1 ? Members[1] : Members[W + 1]];
        for (size_t M : Members) {
          SCOPED_TRACE(::testing::Message() << Kernel << " work-item " << M);
          const T *O = &Got[M * 10];
          T ESum = ISum + In[M], EMin = std::min(IMin, In[M]), EMax = std::max(IMax, In[M]);
          EXPECT_EQ(O[0], Sum);
          EXPECT_EQ(O[1], Lo);
          EXPECT_EQ(O[2], Hi);
          EXPECT_EQ(O[3], ESum);
          EXPECT_EQ(O[4], EMin);
          EXPECT_EQ(O[5], EMax);
          EXPECT_EQ(O[6], ISum);
          EXPECT_EQ(O[7], IMin);
          EXPECT_EQ(O[8], IMax);
          EXPECT_EQ(O[9], Broadcast);
          EXPECT_EQ(GotFlags[M * 2], int(All));
          EXPECT_EQ(GotFlags[M * 2 + 1], int(Any));
          ISum = ESum;
          IMin = EMin;
          IMax = EMax;
        }
      }
  }
};

} // namespace

TEST_F(Collectives, DeviceReportsThem) {
  EXPECT_EQ(info<cl_bool>(clGetDeviceInfo, Device, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT),
            CL_TRUE);
}

TEST_F(Collectives, OneDimensionWithASmallerLastGroup) {
  const size_t G = 300, L = 64;
  check<int>("ints", 1, &G, &L);
  check<cl_ulong>("ulongs", 1, &G, &L);
  check<float>("floats", 1, &G, &L);
  check<double>("doubles", 1, &G, &L);
}

TEST_F(Collectives, TwoDimensions) {
  const size_t G[2] = {24, 10}, L[2] = {8, 4};
  check<int>("ints", 2, G, L);
  check<double>("doubles", 2, G, L);
}
