// Figure 18: sub-groups. `subgroup.reduce` sums 64 MiB of uint with
// sub_group_reduce_add and one atomic_add per sub-group into its
// work-group's sum, read against the machine's stream.read;
// `subgroup.scan` and `workgroup.scan` write each 256-item work-group's
// inclusive prefix sums, the first from sub_group_scan_inclusive_add (and
// the sub-groups' totals in __local memory), the second from
// work_group_scan_inclusive_add, their bytes read and written against
// stream.copy. Integer sums wrap, so every result is exact. A device
// without sub-groups or work-group collectives (PoCL 3.1 has neither)
// shows "-".
#include "Figures.h"
#include "Kernels.h"

#include <string>
#include <vector>

namespace weft::bench {

namespace {

constexpr size_t SubGroupItems = 256;

/// Whether the device offers sub-groups and work-group collectives to
/// OpenCL C 3.0 (its features) or 2.x (its version).
bool hasCollectives(const Device &D) {
  char Version[128] = {};
  clGetDeviceInfo(D.Id, CL_DEVICE_VERSION, sizeof(Version), Version, nullptr);
  if (std::string(Version).rfind("OpenCL 3.", 0) != 0)
    return false;
  size_t Size = 0;
  if (clGetDeviceInfo(D.Id, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &Size) != CL_SUCCESS)
    return false;
  std::vector<cl_name_version> Features(Size / sizeof(cl_name_version));
  clGetDeviceInfo(D.Id, CL_DEVICE_OPENCL_C_FEATURES, Size, Features.data(), nullptr);
  bool SubGroups = false, Collectives = false;
  for (const cl_name_version &F : Features) {
    SubGroups |= std::string(F.name) == "__opencl_c_subgroups";
    Collectives |= std::string(F.name) == "__opencl_c_work_group_collective_functions";
  }
  return SubGroups && Collectives;
}

struct SubGroupState {
  Program P;
  Kernel Reduce, SubScan, GroupScan;
  Mem In, Partial, Out;
  HostArray<uint32_t> GotPartial, GotScan;
};

class SubGroupFigure : public Figure {
public:
  const char *name() const override { return "subgroup"; }
  std::vector<Metric> metrics() const override {
    return {{"subgroup.reduce", "GB/s", true, "stream.read"},
            {"subgroup.scan", "GB/s", true, "stream.copy"},
            {"workgroup.scan", "GB/s", true, "stream.copy"}};
  }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    auto Run = std::make_unique<KernelRun>(D);
    if (!hasCollectives(D)) {
      for (int I = 0; I < 3; ++I) {
        TimedPart Part;
        Part.Unsupported = true;
        Run->Parts.push_back(std::move(Part));
      }
      Run->prepare(C);
      return Run;
    }
    const size_t N = C.Quick ? (size_t(4) << 20) : (size_t(16) << 20);
    makeReference(N);
    auto S = std::make_shared<SubGroupState>();
    S->P = D.build(kernels::SubGroups, "-cl-std=CL3.0");
    S->Reduce = D.kernel(S->P, "subGroupReduce");
    S->SubScan = D.kernel(S->P, "subGroupScan");
    S->GroupScan = D.kernel(S->P, "workGroupScan");
    S->In = D.buffer(N * sizeof(uint32_t), CL_MEM_READ_ONLY);
    D.write(S->In, HostIn.data(), HostIn.bytes());
    S->Partial = D.buffer(N / SubGroupItems * sizeof(uint32_t));
    S->Out = D.buffer(N * sizeof(uint32_t));
    S->GotPartial.resize(N / SubGroupItems);
    S->GotScan.resize(N);
    setArgs(S->Reduce, S->In, S->Partial);
    setArgs(S->SubScan, S->In, S->Out);
    setLocalArg(S->SubScan, 2, SubGroupItems * sizeof(uint32_t));
    setArgs(S->GroupScan, S->In, S->Out);
    const Device *Dev = &D;

    // The sums accumulate over a batch's launches: Launches times each.
    TimedPart Reduce;
    Reduce.Reset = [S, Dev](unsigned) {
      uint32_t Zero = 0;
      check(clEnqueueFillBuffer(Dev->Queue, S->Partial.get(), &Zero, sizeof(Zero), 0,
                                S->GotPartial.bytes(), 0, nullptr, nullptr),
            "clEnqueueFillBuffer");
    };
    Reduce.Launch = [S, Dev, N] { Dev->launch(S->Reduce, {N}, {SubGroupItems}); };
    Reduce.Verify = [this, S, Dev](unsigned, unsigned Launches) {
      Dev->read(S->Partial, S->GotPartial.data(), S->GotPartial.bytes());
      std::vector<uint32_t> Want(WantSums.size());
      for (size_t G = 0; G < Want.size(); ++G)
        Want[G] = WantSums[G] * Launches;
      expectEqual(S->GotPartial.data(), Want.data(), Want.size(), "sub-group sums");
    };
    Reduce.WorkPerLaunch = static_cast<double>(N * sizeof(uint32_t));
    Reduce.Scale = 1e-9;
    Reduce.MaxLaunches = 200;
    Run->Parts.push_back(std::move(Reduce));

    for (const Kernel *K : {&S->SubScan, &S->GroupScan}) {
      TimedPart Scan;
      Scan.Launch = [S, Dev, K, N] { Dev->launch(*K, {N}, {SubGroupItems}); };
      Scan.Verify = [this, S, Dev](unsigned, unsigned) {
        Dev->read(S->Out, S->GotScan.data(), S->GotScan.bytes());
        expectEqual(S->GotScan.data(), WantScan.data(), WantScan.size(), "prefix sums");
      };
      Scan.WorkPerLaunch = static_cast<double>(2 * N * sizeof(uint32_t));
      Scan.Scale = 1e-9;
      Scan.MaxLaunches = 200;
      Run->Parts.push_back(std::move(Scan));
    }
    Run->prepare(C);
    return Run;
  }

private:
  void makeReference(size_t N) {
    if (HostIn.size() == N)
      return;
    HostIn.resize(N);
    for (size_t I = 0; I < N; ++I)
      HostIn[I] = kernels::hashUint(static_cast<uint32_t>(I));
    WantSums.assign(N / SubGroupItems, 0);
    WantScan.resize(N);
    for (size_t G = 0; G < N / SubGroupItems; ++G) {
      uint32_t Sum = 0;
      for (size_t L = 0; L < SubGroupItems; ++L) {
        Sum += HostIn[G * SubGroupItems + L];
        WantScan[G * SubGroupItems + L] = Sum;
      }
      WantSums[G] = Sum;
    }
  }
  HostArray<uint32_t> HostIn;
  std::vector<uint32_t> WantSums, WantScan;
};

} // namespace

std::unique_ptr<Figure> makeSubGroups() { return std::make_unique<SubGroupFigure>(); }

} // namespace weft::bench
