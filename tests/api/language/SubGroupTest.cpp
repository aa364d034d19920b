// Sub-groups (cl_khr_subgroups, __opencl_c_subgroups) through the ICD
// loader: the device queries, every clGetKernelSubGroupInfo query and each
// of its error codes (also through clGetKernelSubGroupInfoKHR), the
// work-group size limit of kernels that use sub-groups, and every sub-group
// builtin on every type in 1-, 2- and 3-D work-groups with smaller edge
// groups, from OpenCL C source and from SPIR-V; work-items that branch
// apart and meet again, and sub-groups that wait for each other
// (independent forward progress). Weft's sub-groups are a work-group's
// work-items in linear-id order, Width at a time, the last one perhaps
// smaller (src/builtins/SubGroups.cl); Width, the same for every kernel,
// is read from clGetKernelSubGroupInfo.
#include "ApiTest.h"
#include "language/SubGroupModel.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <type_traits>

using namespace weft::test;
using namespace weft::test::subgroups;

namespace {

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

  /// The kernel's sub-group size: its largest sub-group.
  size_t widthOf(cl_kernel K) {
    size_t Wide = 4096;
    return subGroupInfo<size_t>(K, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(Wide), &Wide);
  }

  cl_int enqueue(cl_kernel K, const Range &R) {
    return clEnqueueNDRangeKernel(Queue, K, R.Dims, nullptr, R.Global.data(), R.Local.data(), 0,
                                  nullptr, nullptr);
  }

  /// Runs collectives_<Type> over every range and checks all ten results.
  template <typename T> void checkCollectives(cl_kernel K, const char *Type) {
    const size_t Width = widthOf(K);
    for (const Range &R : Ranges) {
      SCOPED_TRACE(std::string(Type) + ", " + describe(R));
      auto Items = enumerate(R, Width);
      std::vector<T> In(Items.size());
      for (size_t I = 0; I < In.size(); ++I)
        In[I] = inputValue<T>(I);
      cl_mem InBuf = buffer(In.size() * sizeof(T), CL_MEM_COPY_HOST_PTR, In.data());
      cl_mem Out = buffer(In.size() * 10 * sizeof(T));
      ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf), CL_SUCCESS);
      ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &Out), CL_SUCCESS);
      ASSERT_EQ(enqueue(K, R), CL_SUCCESS);
      auto Got = read<T>(Out, In.size() * 10);
      for (const auto &[Where, Ids] : subGroupsOf(Items)) {
        const std::string Group =
            std::to_string(Where.first) + " sub-group " + std::to_string(Where.second);
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
    const size_t Width = widthOf(K);
    for (const Range &R : Ranges) {
      SCOPED_TRACE(describe(R));
      auto Items = enumerate(R, Width);
      // Per work-group: all true, one true in each sub-group, all false,
      // in turn.
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
        EXPECT_EQ(O[2], I.Count) << "get_num_sub_groups, item " << I.Global;
        EXPECT_EQ(O[3], I.EnqCount) << "get_enqueued_num_sub_groups, item " << I.Global;
        EXPECT_EQ(O[4], I.SubGroup) << "get_sub_group_id, item " << I.Global;
        EXPECT_EQ(O[5], I.Local) << "get_sub_group_local_id, item " << I.Global;
        // The "one true" sub-groups have none if they have one work-item.
        bool All = I.Group % 3 == 0;
        bool Any = All || (I.Group % 3 == 1 && I.Size > 1);
        EXPECT_EQ(O[6], cl_uint(All)) << "sub_group_all, item " << I.Global;
        EXPECT_EQ(O[7], cl_uint(Any)) << "sub_group_any, item " << I.Global;
      }
    }
  }

  /// Runs `exchange` over every range: the three forms of sub_group_barrier.
  void checkExchange(cl_kernel K) {
    const size_t Width = widthOf(K);
    for (const Range &R : Ranges) {
      SCOPED_TRACE(describe(R));
      auto Items = enumerate(R, Width);
      std::vector<int> In(Items.size());
      for (size_t I = 0; I < In.size(); ++I)
        In[I] = int(I * 3 + 1);
      cl_mem InBuf = buffer(In.size() * sizeof(int), CL_MEM_COPY_HOST_PTR, In.data());
      cl_mem Out = buffer(In.size() * sizeof(int));
      ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &InBuf), CL_SUCCESS);
      ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &Out), CL_SUCCESS);
      ASSERT_EQ(enqueue(K, R), CL_SUCCESS);
      auto Got = read<int>(Out, In.size());
      for (const auto &[Where, Ids] : subGroupsOf(Items)) {
        size_t N = Ids.size();
        for (size_t L = 0; L < N; ++L)
          EXPECT_EQ(Got[Ids[L]], 2 * In[Ids[N - 1 - (L + 1) % N]])
              << "group " << Where.first << " sub-group " << Where.second << " item " << L;
      }
    }
  }
};

} // namespace

TEST_F(SubGroups, DeviceReportsSubGroupsOfTheVectorWidth) {
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
  // Every kernel's sub-groups are as wide as the CPU's widest vectors hold
  // 32-bit lanes: 4, 8 or 16.
  const size_t Width = widthOf(make(source(), "items"));
  EXPECT_TRUE(Width == 4 || Width == 8 || Width == 16) << Width;
  EXPECT_EQ(widthOf(make(source(), "plain")), Width);
  const size_t MaxGroup = info<size_t>(clGetDeviceInfo, Device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  // The most sub-groups of any kernel: those of the smallest size a kernel
  // may require (cl_intel_required_subgroup_size, SubGroupExtensionsTest).
  EXPECT_GE(info<cl_uint>(clGetDeviceInfo, Device, CL_DEVICE_MAX_NUM_SUB_GROUPS),
            (MaxGroup + Width - 1) / Width);
  // cl_khr_subgroups requires it; WaitForEachOther shows it.
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
  const size_t W = widthOf(K);
  auto Ceil = [](size_t A, size_t B) { return (A + B - 1) / B; };
  size_t Local3[] = {4, 3, 2}, Local1 = 100;
  EXPECT_EQ(
      subGroupInfo<size_t>(K, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(Local3), Local3),
      std::min<size_t>(24, W));
  EXPECT_EQ(
      subGroupInfo<size_t>(K, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(Local1), &Local1),
      std::min<size_t>(100, W));
  size_t Two = 2;
  EXPECT_EQ(subGroupInfo<size_t>(K, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(Two), &Two),
            2u);
  EXPECT_EQ(
      subGroupInfo<size_t>(K, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, 2 * sizeof(size_t), Local3),
      std::min<size_t>(12, W));
  EXPECT_EQ(subGroupInfo<size_t>(K, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(Local3), Local3),
            Ceil(24, W));
  EXPECT_EQ(subGroupInfo<size_t>(K, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(Local1), &Local1),
            Ceil(100, W));
  const size_t MaxGroup = info<size_t>(clGetDeviceInfo, Device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  EXPECT_EQ(subGroupInfo<size_t>(K, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr), Ceil(MaxGroup, W));
  EXPECT_EQ(subGroupInfo<size_t>(K, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, 0, nullptr), 0u);
  // The input is ignored where the query has none.
  EXPECT_EQ(subGroupInfo<size_t>(K, CL_KERNEL_MAX_NUM_SUB_GROUPS, sizeof(Local1), &Local1),
            Ceil(MaxGroup, W));

  // A local size for a count of sub-groups: one dimension of that many
  // whole sub-groups, the other dimensions 1; none for no sub-group or
  // more than a group holds.
  for (size_t Count : {size_t(1), size_t(3), MaxGroup / W}) {
    for (size_t Dims = 1; Dims <= 3; ++Dims) {
      std::array<size_t, 3> L{7, 7, 7};
      size_t Ret = 0;
      ASSERT_EQ(clGetKernelSubGroupInfo(K, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                        sizeof(Count), &Count, Dims * sizeof(size_t), L.data(),
                                        &Ret),
                CL_SUCCESS);
      EXPECT_EQ(Ret, Dims * sizeof(size_t));
      EXPECT_EQ(L[0], Count * W) << Count << " sub-groups";
      for (size_t D = 1; D < Dims; ++D)
        EXPECT_EQ(L[D], 1u);
      for (size_t D = Dims; D < 3; ++D)
        EXPECT_EQ(L[D], 7u) << "written past param_value_size";
    }
  }
  size_t Count = 1, Ret = 0;
  ASSERT_EQ(clGetKernelSubGroupInfo(K, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                    sizeof(Count), &Count, 0, nullptr, &Ret),
            CL_SUCCESS);
  EXPECT_EQ(Ret, 3 * sizeof(size_t));
  for (size_t Bad : {size_t(0), MaxGroup / W + 1, size_t(1) << 40}) {
    std::array<size_t, 2> L{7, 7};
    ASSERT_EQ(clGetKernelSubGroupInfo(K, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                      sizeof(Bad), &Bad, sizeof(L), L.data(), nullptr),
              CL_SUCCESS);
    EXPECT_EQ(L[0], 0u) << Bad << " sub-groups";
    EXPECT_EQ(L[1], 0u) << Bad << " sub-groups";
  }

  // The returned local size runs, with that many sub-groups.
  Count = 3;
  size_t L1 = 0;
  ASSERT_EQ(clGetKernelSubGroupInfo(K, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                    sizeof(Count), &Count, sizeof(L1), &L1, nullptr),
            CL_SUCCESS);
  cl_mem Out = buffer(2 * L1 * 8 * sizeof(cl_uint));
  cl_mem Pred = buffer(2 * L1 * sizeof(int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &Pred), CL_SUCCESS);
  size_t G = 2 * L1;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &G, &L1, 0, nullptr, nullptr), CL_SUCCESS);
  auto Got = read<cl_uint>(Out, G * 8);
  for (size_t I = 0; I < G; ++I)
    ASSERT_EQ(Got[I * 8 + 2], 3u) << "get_num_sub_groups, item " << I;

  // A NULL device names the context's only device; the KHR entry point is
  // the same function.
  size_t V = 0;
  EXPECT_EQ(clGetKernelSubGroupInfo(K, nullptr, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof(V),
                                    &V, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(V, Ceil(MaxGroup, W));
  auto Khr = reinterpret_cast<clGetKernelSubGroupInfoKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(Platform, "clGetKernelSubGroupInfoKHR"));
  ASSERT_NE(Khr, nullptr);
  V = 0;
  EXPECT_EQ(Khr(K, Device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR, sizeof(Local3), Local3,
                sizeof(V), &V, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(V, std::min<size_t>(24, W));
  EXPECT_EQ(Khr(K, Device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE_KHR, sizeof(Local3), Local3,
                sizeof(V), &V, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(V, Ceil(24, W));
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

TEST_F(SubGroups, KernelsUsingSubGroupsRunTheDevicesLargestGroups) {
  cl_kernel Items = make(source(), "items");
  cl_kernel Indirect = make(source(), "indirect");
  cl_kernel Plain = make(source(), "plain");
  const size_t DeviceMax = info<size_t>(clGetDeviceInfo, Device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  const size_t W = widthOf(Items);
  auto WgSize = [&](cl_kernel K) {
    size_t S = 0;
    EXPECT_EQ(
        clGetKernelWorkGroupInfo(K, Device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(S), &S, nullptr),
        CL_SUCCESS);
    return S;
  };
  EXPECT_EQ(WgSize(Items), DeviceMax);
  EXPECT_EQ(WgSize(Indirect), DeviceMax) << "a helper function uses sub-groups";
  EXPECT_EQ(WgSize(Plain), DeviceMax);

  // The largest group: every sub-group whole, each reducing its own.
  cl_mem Out = buffer(DeviceMax * 8 * sizeof(cl_uint));
  ASSERT_EQ(clSetKernelArg(Indirect, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Indirect, 1, nullptr, &DeviceMax, &DeviceMax, 0, nullptr,
                                   nullptr),
            CL_SUCCESS);
  auto Got = read<int>(Out, DeviceMax);
  for (size_t I = 0; I < DeviceMax; ++I)
    ASSERT_EQ(size_t(Got[I]), W) << I;

  // reqd_work_group_size: CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT gives the
  // required size for its count of sub-groups, zeros for another count or
  // a required size of more than one dimension.
  cl_kernel Required = make(source(), "required");
  cl_kernel Required2D = make(source(), "required_2d");
  cl_kernel Required256 = make(source(), "too_wide");
  EXPECT_EQ(WgSize(Required), 64u);
  EXPECT_EQ(WgSize(Required256), 256u);
  auto LocalFor = [&](cl_kernel K, size_t Count) {
    std::array<size_t, 2> L{7, 7};
    EXPECT_EQ(clGetKernelSubGroupInfo(K, Device, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                      sizeof(Count), &Count, sizeof(L), L.data(), nullptr),
              CL_SUCCESS);
    return L;
  };
  EXPECT_EQ(LocalFor(Required, 64 / W), (std::array<size_t, 2>{64, 1}));
  EXPECT_EQ(LocalFor(Required, 1), (std::array<size_t, 2>{0, 0}));
  EXPECT_EQ(LocalFor(Required2D, 64 / W), (std::array<size_t, 2>{0, 0}));
  EXPECT_EQ(LocalFor(Required256, 256 / W), (std::array<size_t, 2>{256, 1}));
  EXPECT_EQ(LocalFor(Plain, 1), (std::array<size_t, 2>{W, 1}));
  ASSERT_EQ(clSetKernelArg(Required256, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
  size_t G = 512, L = 256;
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, Required256, 1, nullptr, &G, &L, 0, nullptr, nullptr),
            CL_SUCCESS);
  Got = read<int>(Out, G);
  for (size_t I = 0; I < G; ++I)
    ASSERT_EQ(Got[I], 1) << I;
}

// Work-items of a sub-group that take different paths (a loop that runs as
// often as the work-item's id, one path that waits on an atomic and one
// that does not) meet again for the collective after them.
TEST_F(SubGroups, DivergentWorkItemsMeetAgain) {
  cl_kernel K = make(R"CLC(
    kernel void k(global int *out, global atomic_int *flag) {
      size_t g = get_global_id(0);
      uint l = get_sub_group_local_id();
      int v = (int)l;
      if (l & 1) {
        for (uint i = 0; i < l; ++i)
          v += 1;
      } else if (l == 2) {
        while (atomic_load(flag) != 0)
          ;
        v += 100;
      }
      out[g] = sub_group_reduce_add(v) * 1000 + sub_group_scan_inclusive_add(1);
    })CLC",
                     "k");
  const size_t W = widthOf(K);
  for (size_t Local : {size_t(3), W, 3 * W + 5}) {
    SCOPED_TRACE("local " + std::to_string(Local));
    const size_t G = 2 * Local;
    cl_mem Out = buffer(G * sizeof(int));
    int Zero = 0;
    cl_mem Flag = buffer(sizeof(int), CL_MEM_COPY_HOST_PTR, &Zero);
    ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Out), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &Flag), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &G, &Local, 0, nullptr, nullptr),
              CL_SUCCESS);
    auto Got = read<int>(Out, G);
    for (size_t I = 0; I < G; ++I) {
      const size_t Lin = I % Local, First = Lin / W * W, N = std::min(W, Local - First);
      int Sum = 0;
      for (size_t L = 0; L < N; ++L)
        Sum += int(L) + (L & 1 ? int(L) : L == 2 ? 100 : 0);
      EXPECT_EQ(Got[I], Sum * 1000 + int(Lin - First + 1)) << "item " << I;
    }
  }
}

// Independent forward progress: in each group, the first sub-group waits
// for a flag that only the last one sets, and the middle ones pass a token
// from the last to the first; every group finishes.
TEST_F(SubGroups, SubGroupsWaitForEachOther) {
  cl_kernel K = make(R"CLC(
    kernel void k(global atomic_int *flags, global int *out) {
      size_t grp = get_group_id(0);
      uint sg = get_sub_group_id(), n = get_num_sub_groups();
      global atomic_int *f = flags + grp * 64;
      if (get_sub_group_local_id() == 0) {
        if (sg + 1 < n)
          while (atomic_load(f + sg + 1) == 0)
            ;
        atomic_store(f + sg, (int)sg + 1);
      }
      sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
      out[get_global_id(0)] = atomic_load(f + sg);
    })CLC",
                     "k");
  const size_t W = widthOf(K), Local = 8 * W, Groups = 3, G = Groups * Local;
  std::vector<int> Zeros(Groups * 64, 0);
  cl_mem Flags = buffer(Zeros.size() * sizeof(int), CL_MEM_COPY_HOST_PTR, Zeros.data());
  cl_mem Out = buffer(G * sizeof(int));
  ASSERT_EQ(clSetKernelArg(K, 0, sizeof(cl_mem), &Flags), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(K, 1, sizeof(cl_mem), &Out), CL_SUCCESS);
  ASSERT_EQ(clEnqueueNDRangeKernel(Queue, K, 1, nullptr, &G, &Local, 0, nullptr, nullptr),
            CL_SUCCESS);
  auto Got = read<int>(Out, G);
  for (size_t I = 0; I < G; ++I)
    ASSERT_EQ(size_t(Got[I]), I % Local / W + 1) << "item " << I;
}

TEST_F(SubGroups, WorkItemFunctionsAndVotes) { checkWorkItems(make(source(), "items")); }

TEST_F(SubGroups, Barriers) { checkExchange(make(source(), "exchange")); }

TEST_F(SubGroups, CollectivesOnEveryType) {
  checkCollectives<cl_char>(make(source(), "collectives_char"), "char");
  checkCollectives<cl_uchar>(make(source(), "collectives_uchar"), "uchar");
  checkCollectives<cl_short>(make(source(), "collectives_short"), "short");
  checkCollectives<cl_ushort>(make(source(), "collectives_ushort"), "ushort");
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
  EXPECT_EQ(S, info<size_t>(clGetDeviceInfo, Device, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  checkWorkItems(Items);
  checkExchange(Make("exchange"));
  checkCollectives<cl_char>(Make("collectives_char"), "char");
  checkCollectives<cl_uchar>(Make("collectives_uchar"), "uchar");
  checkCollectives<cl_short>(Make("collectives_short"), "short");
  checkCollectives<cl_ushort>(Make("collectives_ushort"), "ushort");
  checkCollectives<cl_int>(Make("collectives_int"), "int");
  checkCollectives<cl_uint>(Make("collectives_uint"), "uint");
  checkCollectives<cl_long>(Make("collectives_long"), "long");
  checkCollectives<cl_ulong>(Make("collectives_ulong"), "ulong");
  checkCollectives<cl_float>(Make("collectives_float"), "float");
  checkCollectives<cl_double>(Make("collectives_double"), "double");
}
