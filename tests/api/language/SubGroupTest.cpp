// Sub-groups (cl_khr_subgroups, __opencl_c_subgroups) through the ICD
// loader: the device queries, every clGetKernelSubGroupInfo query and each
// of its error codes (also through clGetKernelSubGroupInfoKHR), the
// work-group size limit of kernels that use sub-groups, and every sub-group
// builtin on every type in 1-, 2- and 3-D work-groups with smaller edge
// groups, from OpenCL C source and from SPIR-V. Weft's sub-group is the
// whole work-group in linear-id order (src/builtins/SubGroups.cl), so the
// expected values are computed over each work-group.
#include "ApiTest.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <type_traits>

using namespace weft::test;

namespace {

constexpr size_t MaxSubGroupSize = 128; // runtime/platform/Capabilities.h

/// An NDRange: work_dim, global and local sizes.
struct Range {
  cl_uint Dims;
  std::array<size_t, 3> Global;
  std::array<size_t, 3> Local;
};

/// One work-item of a Range as the sub-group functions see it.
struct Item {
  size_t Global;    ///< global linear id
  size_t Group;     ///< linear work-group index
  uint32_t Local;   ///< sub-group local id = local linear id
  uint32_t Size;    ///< its work-group's size
  uint32_t MaxSize; ///< the enqueued work-group size
};

/// Every work-item of R, in global linear id order.
std::vector<Item> enumerate(const Range &R) {
  std::array<size_t, 3> G{1, 1, 1}, L{1, 1, 1};
  for (cl_uint D = 0; D < R.Dims; ++D) {
    G[D] = R.Global[D];
    L[D] = R.Local[D];
  }
  std::array<size_t, 3> Groups;
  for (int D = 0; D < 3; ++D)
    Groups[D] = (G[D] + L[D] - 1) / L[D];
  std::vector<Item> Items;
  for (size_t Z = 0; Z < G[2]; ++Z)
    for (size_t Y = 0; Y < G[1]; ++Y)
      for (size_t X = 0; X < G[0]; ++X) {
        std::array<size_t, 3> Id{X, Y, Z}, Gr, Lid, Size;
        for (int D = 0; D < 3; ++D) {
          Gr[D] = Id[D] / L[D];
          Lid[D] = Id[D] % L[D];
          Size[D] = std::min(L[D], G[D] - Gr[D] * L[D]);
        }
        Item I;
        I.Global = (Z * G[1] + Y) * G[0] + X;
        I.Group = (Gr[2] * Groups[1] + Gr[1]) * Groups[0] + Gr[0];
        I.Local = uint32_t((Lid[2] * Size[1] + Lid[1]) * Size[0] + Lid[0]);
        I.Size = uint32_t(Size[0] * Size[1] * Size[2]);
        I.MaxSize = uint32_t(L[0] * L[1] * L[2]);
        Items.push_back(I);
      }
  return Items;
}

/// The global linear ids of each work-group's work-items, in sub-group
/// local id order.
std::map<size_t, std::vector<size_t>> groupsOf(const std::vector<Item> &Items) {
  std::map<size_t, std::vector<size_t>> Groups;
  for (const Item &I : Items) {
    auto &V = Groups[I.Group];
    if (V.size() <= I.Local)
      V.resize(I.Local + 1);
    V[I.Local] = I.Global;
  }
  return Groups;
}

const Range Ranges[] = {
    {1, {100, 1, 1}, {32, 1, 1}},  // last group of 4
    {1, {256, 1, 1}, {128, 1, 1}}, // the largest sub-group
    {2, {10, 6, 1}, {4, 4, 1}},    // smaller edge groups in x and y
    {3, {7, 4, 3}, {3, 2, 2}},     // and in x in 3-D
};

std::string describe(const Range &R) {
  std::string S = std::to_string(R.Dims) + "-D global";
  for (cl_uint D = 0; D < R.Dims; ++D)
    S += " " + std::to_string(R.Global[D]);
  S += " local";
  for (cl_uint D = 0; D < R.Dims; ++D)
    S += " " + std::to_string(R.Local[D]);
  return S;
}

// Kernels of the OpenCL C source only, built with spirv/subgroups.cl.
const char *SourceOnlyKernels = R"CLC(
kernel void plain(global int *out) { out[get_global_id(0)] = 1; }

// Uses sub-groups through a helper function only.
int helper(int x) { return sub_group_reduce_add(x); }
kernel void indirect(global int *out) { out[get_global_id(0)] = helper(1); }

kernel __attribute__((reqd_work_group_size(256, 1, 1))) void too_wide(global int *out) {
  out[get_global_id(0)] = sub_group_reduce_max(1);
}
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void required(global int *out) {
  out[get_global_id(0)] = get_sub_group_size();
}
kernel __attribute__((reqd_work_group_size(8, 8, 1))) void required_2d(global int *out) {
  out[get_global_id(0)] = get_sub_group_size();
}
)CLC";

/// The test's OpenCL C program: the kernels its SPIR-V is compiled from
/// (read from the source tree) and those of the source path alone.
const char *source() {
  static const std::string Source = [] {
    std::ifstream In(std::string(WEFT_TEST_SPIRV_SOURCE_DIR) + "/subgroups.cl");
    EXPECT_TRUE(In.good()) << "subgroups.cl";
    return std::string(std::istreambuf_iterator<char>(In), {}) + SourceOnlyKernels;
  }();
  return Source.c_str();
}

std::vector<unsigned char> readSpirv(const char *Name) {
  std::ifstream In(std::string(WEFT_TEST_SPIRV_DIR) + "/" + Name, std::ios::binary);
  EXPECT_TRUE(In.good()) << Name;
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(In), {});
}

/// Input value I of type T: small integers of both signs (large ones for
/// the 64-bit types), exact in float and double whatever the order.
template <typename T> T inputValue(size_t I) {
  long long V = (long long)((I * 7919 + 13) % 23) - 11;
  if constexpr (sizeof(T) == 8 && std::is_integral_v<T>)
    V = V * (1ll << 40) + 5;
  if constexpr (std::is_unsigned_v<T>)
    return T(V < 0 ? -V : V) + 3;
  return T(V);
}

class SubGroups : public WithQueue {
protected:
  cl_kernel make(const char *Source, const char *Name) {
    return kernel(Source, Name, "-cl-std=CL3.0");
  }

  template <typename T>
  T subGroupInfo(cl_kernel K, cl_kernel_sub_group_info Param, size_t InSize, const void *In) {
    T Value{};
    size_t Size = 0;
    EXPECT_EQ(clGetKernelSubGroupInfo(K, Device, Param, InSize, In, sizeof(T), &Value, &Size),
              CL_SUCCESS);
    EXPECT_EQ(Size, sizeof(T));
    return Value;
  }

  cl_int enqueue(cl_kernel K, const Range &R) {
    return clEnqueueNDRangeKernel(Queue, K, R.Dims, nullptr, R.Global.data(), R.Local.data(), 0,
                                  nullptr, nullptr);
  }

  /// Runs collectives_<Type> over every range and checks all ten results.
  template <typename T> void checkCollectives(cl_kernel K, const char *Type) {
    for (const Range &R : Ranges) {
      SCOPED_TRACE(std::string(Type) + ", " + describe(R));
      auto Items = enumerate(R);
      std::vector<T> In(Items.size());
      for (size_t I = 0; I < In.size(); ++I)
        In[I] = inputValue<T>(I);
      cl_mem InBuf = buffer(In.size() * sizeof(T), CL_MEM_COPY_HOST_PTR, In.data());
      cl_mem Out = buffer(In.size() * 10 * sizeof(T));
      ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf), CL_SUCCESS);
      ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &Out), CL_SUCCESS);
      ASSERT_EQ(enqueue(K, R), CL_SUCCESS);
      auto Got = read<T>(Out, In.size() * 10);
      for (const auto &[Group, Ids] : groupsOf(Items)) {
        T Sum = 0, Min = In[Ids[0]], Max = In[Ids[0]];
        for (size_t Id : Ids) {
          Sum += In[Id];
          Min = std::min(Min, In[Id]);
          Max = std::max(Max, In[Id]);
        }
        T ScanSum = 0, ScanMin = std::numeric_limits<T>::max();
        T ScanMax = std::numeric_limits<T>::lowest();
        if constexpr (std::is_floating_point_v<T>) {
          ScanMin = std::numeric_limits<T>::infinity();
          ScanMax = -std::numeric_limits<T>::infinity();
        }
        for (size_t L = 0; L < Ids.size(); ++L) {
          const T *O = &Got[Ids[L] * 10];
          EXPECT_EQ(O[0], In[Ids.back()]) << "broadcast, group " << Group << " item " << L;
          EXPECT_EQ(O[1], Sum) << "reduce_add, group " << Group;
          EXPECT_EQ(O[2], Min) << "reduce_min, group " << Group;
          EXPECT_EQ(O[3], Max) << "reduce_max, group " << Group;
          EXPECT_EQ(O[7], ScanSum) << "scan_exclusive_add, group " << Group << " item " << L;
          EXPECT_EQ(O[8], ScanMin) << "scan_exclusive_min, group " << Group << " item " << L;
          EXPECT_EQ(O[9], ScanMax) << "scan_exclusive_max, group " << Group << " item " << L;
          ScanSum += In[Ids[L]];
          ScanMin = std::min(ScanMin, In[Ids[L]]);
          ScanMax = std::max(ScanMax, In[Ids[L]]);
          EXPECT_EQ(O[4], ScanSum) << "scan_inclusive_add, group " << Group << " item " << L;
          EXPECT_EQ(O[5], ScanMin) << "scan_inclusive_min, group " << Group << " item " << L;
          EXPECT_EQ(O[6], ScanMax) << "scan_inclusive_max, group " << Group << " item " << L;
        }
      }
    }
  }

  /// Runs `items` over every range: the work-item functions and the votes.
  void checkWorkItems(cl_kernel K) {
    for (const Range &R : Ranges) {
      SCOPED_TRACE(describe(R));
      auto Items = enumerate(R);
      // Per work-group: all true, one true, all false, in turn.
      std::vector<int> Pred(Items.size());
      for (const Item &I : Items)
        Pred[I.Global] = I.Group % 3 == 0 ? int(I.Local) + 1 : I.Group % 3 == 1 ? I.Local == 1 : 0;
      cl_mem PredBuf = buffer(Pred.size() * sizeof(int), CL_MEM_COPY_HOST_PTR, Pred.data());
      cl_mem Out = buffer(Items.size() * 8 * sizeof(cl_uint));
      ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
      ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &PredBuf), CL_SUCCESS);
      ASSERT_EQ(enqueue(K, R), CL_SUCCESS);
      auto Got = read<cl_uint>(Out, Items.size() * 8);
      for (const Item &I : Items) {
        const cl_uint *O = &Got[I.Global * 8];
        EXPECT_EQ(O[0], I.Size) << "get_sub_group_size, item " << I.Global;
        EXPECT_EQ(O[1], I.MaxSize) << "get_max_sub_group_size, item " << I.Global;
        EXPECT_EQ(O[2], 1u) << "get_num_sub_groups, item " << I.Global;
        EXPECT_EQ(O[3], 1u) << "get_enqueued_num_sub_groups, item " << I.Global;
        EXPECT_EQ(O[4], 0u) << "get_sub_group_id, item " << I.Global;
        EXPECT_EQ(O[5], I.Local) << "get_sub_group_local_id, item " << I.Global;
        // The "one true" groups have none if they have one work-item.
        bool All = I.Group % 3 == 0;
        bool Any = All || (I.Group % 3 == 1 && I.Size > 1);
        EXPECT_EQ(O[6], cl_uint(All)) << "sub_group_all, item " << I.Global;
        EXPECT_EQ(O[7], cl_uint(Any)) << "sub_group_any, item " << I.Global;
      }
    }
  }

  /// Runs `exchange` over every range: the three forms of sub_group_barrier.
  void checkExchange(cl_kernel K) {
    for (const Range &R : Ranges) {
      SCOPED_TRACE(describe(R));
      auto Items = enumerate(R);
      std::vector<int> In(Items.size());
      for (size_t I = 0; I < In.size(); ++I)
        In[I] = int(I * 3 + 1);
      cl_mem InBuf = buffer(In.size() * sizeof(int), CL_MEM_COPY_HOST_PTR, In.data());
      cl_mem Out = buffer(In.size() * sizeof(int));
      ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf), CL_SUCCESS);
      ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &Out), CL_SUCCESS);
      ASSERT_EQ(enqueue(K, R), CL_SUCCESS);
      auto Got = read<int>(Out, In.size());
      for (const auto &[Group, Ids] : groupsOf(Items)) {
        size_t N = Ids.size();
        for (size_t L = 0; L < N; ++L)
          EXPECT_EQ(Got[Ids[L]], 2 * In[Ids[N - 1 - (L + 1) % N]])
              << "group " << Group << " item " << L;
      }
    }
  }
};

} // namespace

TEST_F(SubGroups, DeviceReportsOneSubGroupPerWorkGroup) {
  std::string Ext = infoString(clGetDeviceInfo, Device, CL_DEVICE_EXTENSIONS);
  EXPECT_NE((" " + Ext + " ").find(" cl_khr_subgroups "), std::string::npos) << Ext;
  size_t Size = 0;
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &Size), CL_SUCCESS);
  std::vector<cl_name_version> Features(Size / sizeof(cl_name_version));
  ASSERT_EQ(clGetDeviceInfo(Device, CL_DEVICE_OPENCL_C_FEATURES, Size, Features.data(), nullptr),
            CL_SUCCESS);
  bool HasFeature = false;
  for (const cl_name_version &F : Features)
    HasFeature |= std::string(F.name) == "__opencl_c_subgroups";
  EXPECT_TRUE(HasFeature);
  EXPECT_EQ(info<cl_uint>(clGetDeviceInfo, Device, CL_DEVICE_MAX_NUM_SUB_GROUPS), 1u);
  // cl_khr_subgroups requires it; with one sub-group per work-group no
  // other sub-group of the work-group can hold one back.
  EXPECT_EQ(
      info<cl_bool>(clGetDeviceInfo, Device, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS),
      cl_bool(CL_TRUE));
  EXPECT_NE(clGetExtensionFunctionAddressForPlatform(Platform, "clGetKernelSubGroupInfoKHR"),
            nullptr);
  // The kernel sees the feature and the extension.
  cl_kernel K = make(R"CLC(
    kernel void k(global int *out) {
    #if defined(__opencl_c_subgroups) && defined(cl_khr_subgroups)
      out[0] = 1;
    #else
      out[0] = 2;
    #endif
    })CLC",
                     "k");
  cl_mem Out = buffer(sizeof(int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  size_t One = 1;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &One, &One, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(read<int>(Out, 1)[0], 1);
}

TEST_F(SubGroups, KernelSubGroupInfo) {
  cl_kernel K = make(source(), "items");
  // One sub-group of the whole work-group, for any local size.
  size_t Local3[] = {4, 3, 2}, Local1 = 100;
  EXPECT_EQ(
      subGroupInfo<size_t>(K, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(Local3), Local3),
      24u);
  EXPECT_EQ(
      subGroupInfo<size_t>(K, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(Local1), &Local1),
      100u);
  EXPECT_EQ(
      subGroupInfo<size_t>(K, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 2 * sizeof(size_t), Local3),
      12u);
  EXPECT_EQ(subGroupInfo<size_t>(K, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(Local3), Local3),
            1u);
  EXPECT_EQ(subGroupInfo<size_t>(K, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr), 1u);
  EXPECT_EQ(subGroupInfo<size_t>(K, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, nullptr), 0u);
  // The input is ignored where the query has none.
  EXPECT_EQ(subGroupInfo<size_t>(K, CL_KERNEL_MAX_NUM_SUB_GROUPS, sizeof(Local1), &Local1), 1u);

  // A local size for one sub-group: one dimension, the largest group the
  // kernel runs, the other dimensions 1; none for any other count.
  size_t Count = 1;
  for (size_t Dims = 1; Dims <= 3; ++Dims) {
    std::array<size_t, 3> L{7, 7, 7};
    size_t Ret = 0;
    ASSERT_EQ(clGetKernelSubGroupInfo(K, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                      sizeof(Count), &Count, Dims * sizeof(size_t), L.data(), &Ret),
              CL_SUCCESS);
    EXPECT_EQ(Ret, Dims * sizeof(size_t));
    EXPECT_EQ(L[0], MaxSubGroupSize);
    for (size_t D = 1; D < Dims; ++D)
      EXPECT_EQ(L[D], 1u);
    for (size_t D = Dims; D < 3; ++D)
      EXPECT_EQ(L[D], 7u) << "written past param_value_size";
  }
  size_t Ret = 0;
  ASSERT_EQ(clGetKernelSubGroupInfo(K, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                    sizeof(Count), &Count, 0, nullptr, &Ret),
            CL_SUCCESS);
  EXPECT_EQ(Ret, 3 * sizeof(size_t));
  for (size_t Bad : {size_t(0), size_t(2), size_t(1000)}) {
    std::array<size_t, 2> L{7, 7};
    ASSERT_EQ(clGetKernelSubGroupInfo(K, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                      sizeof(Bad), &Bad, sizeof(L), L.data(), nullptr),
              CL_SUCCESS);
    EXPECT_EQ(L[0], 0u) << Bad << " sub-groups";
    EXPECT_EQ(L[1], 0u) << Bad << " sub-groups";
  }

  // The returned local size runs, with one sub-group of that size.
  size_t L1 = 0;
  ASSERT_EQ(clGetKernelSubGroupInfo(K, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                    sizeof(Count), &Count, sizeof(L1), &L1, nullptr),
            CL_SUCCESS);
  checkWorkItems(K);

  // A NULL device names the context's only device; the KHR entry point is
  // the same function.
  size_t V = 0;
  EXPECT_EQ(clGetKernelSubGroupInfo(K, nullptr, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof(V),
                                    &V, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(V, 1u);
  auto Khr = reinterpret_cast<clGetKernelSubGroupInfoKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(Platform, "clGetKernelSubGroupInfoKHR"));
  ASSERT_NE(Khr, nullptr);
  V = 0;
  EXPECT_EQ(Khr(K, Device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR, sizeof(Local3), Local3,
                sizeof(V), &V, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(V, 24u);
  EXPECT_EQ(Khr(K, Device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR, sizeof(Local3), Local3,
                sizeof(V), &V, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(V, 1u);
}

TEST_F(SubGroups, KernelSubGroupInfoErrors) {
  cl_kernel K = make(source(), "items");
  size_t Local[] = {8, 2, 2, 2}, V = 0;
  const auto Max = CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE;
  // CL_INVALID_KERNEL.
  EXPECT_EQ(clGetKernelSubGroupInfo(wrongHandle<cl_kernel>(Queue), Device, Max, sizeof(size_t),
                                    Local, sizeof(V), &V, nullptr),
            CL_INVALID_KERNEL);
  EXPECT_EQ(
      clGetKernelSubGroupInfo(nullptr, Device, Max, sizeof(size_t), Local, sizeof(V), &V, nullptr),
      CL_INVALID_KERNEL);
  // CL_INVALID_DEVICE: not a device of the kernel.
  EXPECT_EQ(clGetKernelSubGroupInfo(K, wrongHandle<cl_device_id>(Context), Max, sizeof(size_t),
                                    Local, sizeof(V), &V, nullptr),
            CL_INVALID_DEVICE);
  // CL_INVALID_VALUE: an unknown param_name.
  EXPECT_EQ(clGetKernelSubGroupInfo(K, Device, 0x7777, 0, nullptr, sizeof(V), &V, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clGetKernelSubGroupInfo(K, Device, CL_KERNEL_WORK_GROUP_SIZE, 0, nullptr, sizeof(V), &V,
                                    nullptr),
            CL_INVALID_VALUE);
  // CL_INVALID_VALUE: param_value_size too small, and nothing written.
  for (cl_kernel_sub_group_info P :
       {CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
        CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, CL_KERNEL_MAX_NUM_SUB_GROUPS,
        CL_KERNEL_COMPILE_NUM_SUB_GROUPS}) {
    size_t Count = 1;
    const void *In = P == CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT ? &Count : (const void *)Local;
    unsigned char Small[4] = {9, 9, 9, 9};
    EXPECT_EQ(
        clGetKernelSubGroupInfo(K, Device, P, sizeof(size_t), In, sizeof(Small), Small, nullptr),
        CL_INVALID_VALUE)
        << P;
    EXPECT_EQ(Small[0], 9) << P;
  }
  // CL_INVALID_VALUE: input_value NULL, or input_value_size not 1 to 3
  // size_t values (the NDRange queries) or one size_t (the count).
  for (cl_kernel_sub_group_info P :
       {CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE}) {
    EXPECT_EQ(
        clGetKernelSubGroupInfo(K, Device, P, sizeof(size_t), nullptr, sizeof(V), &V, nullptr),
        CL_INVALID_VALUE)
        << P;
    for (size_t Bad : {size_t(0), sizeof(size_t) - 1, sizeof(size_t) + 1, 4 * sizeof(size_t)})
      EXPECT_EQ(clGetKernelSubGroupInfo(K, Device, P, Bad, Local, sizeof(V), &V, nullptr),
                CL_INVALID_VALUE)
          << P << " input_value_size " << Bad;
  }
  size_t Count = 1, L[3];
  const auto ForCount = CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT;
  EXPECT_EQ(
      clGetKernelSubGroupInfo(K, Device, ForCount, sizeof(size_t), nullptr, sizeof(L), L, nullptr),
      CL_INVALID_VALUE);
  for (size_t Bad : {size_t(0), sizeof(cl_uint), 2 * sizeof(size_t)})
    EXPECT_EQ(clGetKernelSubGroupInfo(K, Device, ForCount, Bad, &Count, sizeof(L), L, nullptr),
              CL_INVALID_VALUE)
        << "input_value_size " << Bad;
}

TEST_F(SubGroups, KernelsUsingSubGroupsRunAtMostMaxSubGroupSize) {
  cl_kernel Items = make(source(), "items");
  cl_kernel Indirect = make(source(), "indirect");
  cl_kernel Plain = make(source(), "plain");
  const size_t DeviceMax = info<size_t>(clGetDeviceInfo, Device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  ASSERT_GT(DeviceMax, MaxSubGroupSize);
  auto WgSize = [&](cl_kernel K) {
    size_t S = 0;
    EXPECT_EQ(
        clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(S), &S, nullptr),
        CL_SUCCESS);
    return S;
  };
  EXPECT_EQ(WgSize(Items), MaxSubGroupSize);
  EXPECT_EQ(WgSize(Indirect), MaxSubGroupSize) << "a helper function uses sub-groups";
  EXPECT_EQ(WgSize(Plain), DeviceMax);

  cl_mem Out = buffer(1024 * 8 * sizeof(cl_uint));
  cl_mem Pred = buffer(1024 * sizeof(int));
  ASSERT_EQ(clSetKernelArg(Items, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Items, 1, sizeof(cl_mem), &Pred), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Indirect, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(Plain, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  size_t G = 1024, Wide = 256, Wide2[] = {16, 16};
  EXPECT_EQ(clEnqueueNDRangeKernel(Queue, Items, 1, nullptr, &G, &Wide, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE);
  size_t G2[] = {32, 32};
  EXPECT_EQ(clEnqueueNDRangeKernel(Queue, Indirect, 2, nullptr, G2, Wide2, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(clEnqueueNDRangeKernel(Queue, Plain, 1, nullptr, &G, &Wide, 0, nullptr, nullptr),
            CL_SUCCESS);
  // A NULL local size stays within the limit.
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Items, 1, nullptr, &G, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto Got = read<cl_uint>(Out, G * 8);
  for (size_t I = 0; I < G; ++I)
    ASSERT_LE(Got[I * 8 + 1], MaxSubGroupSize) << I;

  // reqd_work_group_size: runnable within the limit, reported and refused
  // beyond it; CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT gives the required
  // size, or zeros if it is not one-dimensional or not runnable.
  cl_kernel Required = make(source(), "required");
  cl_kernel Required2D = make(source(), "required_2d");
  cl_kernel TooWide = make(source(), "too_wide");
  EXPECT_EQ(WgSize(Required), 64u);
  EXPECT_EQ(WgSize(TooWide), MaxSubGroupSize);
  ASSERT_EQ(clSetKernelArg(TooWide, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(Queue, TooWide, 1, nullptr, &G, &Wide, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(clEnqueueNDRangeKernel(Queue, TooWide, 1, nullptr, &G, nullptr, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE);
  size_t Count = 1;
  auto LocalFor = [&](cl_kernel K) {
    std::array<size_t, 2> L{7, 7};
    EXPECT_EQ(clGetKernelSubGroupInfo(K, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                      sizeof(Count), &Count, sizeof(L), L.data(), nullptr),
              CL_SUCCESS);
    return L;
  };
  EXPECT_EQ(LocalFor(Required), (std::array<size_t, 2>{64, 1}));
  EXPECT_EQ(LocalFor(Required2D), (std::array<size_t, 2>{0, 0}));
  EXPECT_EQ(LocalFor(TooWide), (std::array<size_t, 2>{0, 0}));
  EXPECT_EQ(LocalFor(Plain), (std::array<size_t, 2>{DeviceMax, 1}));
}

TEST_F(SubGroups, WorkItemFunctionsAndVotes) { checkWorkItems(make(source(), "items")); }

TEST_F(SubGroups, Barriers) { checkExchange(make(source(), "exchange")); }

TEST_F(SubGroups, CollectivesOnEveryType) {
  checkCollectives<cl_int>(make(source(), "collectives_int"), "int");
  checkCollectives<cl_uint>(make(source(), "collectives_uint"), "uint");
  checkCollectives<cl_long>(make(source(), "collectives_long"), "long");
  checkCollectives<cl_ulong>(make(source(), "collectives_ulong"), "ulong");
  checkCollectives<cl_float>(make(source(), "collectives_float"), "float");
  checkCollectives<cl_double>(make(source(), "collectives_double"), "double");
}

// The same kernels from SPIR-V (OpGroup* instructions with Subgroup scope,
// the Subgroup* built-in variables and OpControlBarrier with Subgroup
// execution scope), which the translator turns into the builtin calls.
TEST_F(SubGroups, FromSpirv) {
  auto IL = readSpirv("subgroups.spv");
  cl_int Err;
  cl_program P = clCreateProgramWithIL(Context, IL.data(), IL.size(), &Err);
  ASSERT_EQ(Err, CL_SUCCESS);
  OwnedPrograms.push_back(P);
  ASSERT_EQ(clBuildProgram(P, 1, &Device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(P);
  auto Make = [&](const char *Name) {
    cl_kernel K = clCreateKernel(P, Name, &Err);
    EXPECT_EQ(Err, CL_SUCCESS) << Name;
    OwnedKernels.push_back(K);
    return K;
  };
  cl_kernel Items = Make("items");
  size_t S = 0;
  EXPECT_EQ(
      clGetKernelWorkGroupInfo(Items, Device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(S), &S, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(S, MaxSubGroupSize);
  checkWorkItems(Items);
  checkExchange(Make("exchange"));
  checkCollectives<cl_int>(Make("collectives_int"), "int");
  checkCollectives<cl_uint>(Make("collectives_uint"), "uint");
  checkCollectives<cl_long>(Make("collectives_long"), "long");
  checkCollectives<cl_ulong>(Make("collectives_ulong"), "ulong");
  checkCollectives<cl_float>(Make("collectives_float"), "float");
  checkCollectives<cl_double>(Make("collectives_double"), "double");
}
