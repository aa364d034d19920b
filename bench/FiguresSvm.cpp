// Figure 14: shared virtual memory the way applications use it. A pointer
// chase (the host builds linked lists in coarse-grained SVM, shuffled across
// the allocation; each work-item walks one: dependent loads through host
// pointers, what SVM exists for), and a ping-pong (a value passed back and
// forth between the host and a running kernel through fine-grained SVM
// atomics: the latency of the host-device memory model). A device without
// the SVM capability a metric needs reports it as skipped ("-").
#include "Figures.h"
#include "Kernels.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace weft::bench {

namespace {

/// The host's view of the kernels' Node (a uint and a pointer).
struct Node {
  uint32_t Value;
  Node *Next;
};

cl_device_svm_capabilities svmCapabilities(const Device &D) {
  cl_device_svm_capabilities Caps = 0;
  if (clGetDeviceInfo(D.Id, CL_DEVICE_SVM_CAPABILITIES, sizeof(Caps), &Caps, nullptr) !=
      CL_SUCCESS)
    return 0; // an OpenCL 1.x device
  return Caps;
}

/// The -cl-std that gives the device's C11 atomics with the scope that
/// reaches the host (memory_scope_all_svm_devices), or "" if it has none:
/// OpenCL C 2.0, or 3.0 with __opencl_c_atomic_scope_all_devices.
std::string atomicsStd(const Device &D) {
  char Version[128] = {};
  clGetDeviceInfo(D.Id, CL_DEVICE_VERSION, sizeof(Version), Version, nullptr);
  if (std::string(Version).rfind("OpenCL 2.", 0) == 0)
    return "-cl-std=CL2.0";
  size_t Size = 0;
  if (clGetDeviceInfo(D.Id, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &Size) != CL_SUCCESS)
    return "";
  std::vector<cl_name_version> Features(Size / sizeof(cl_name_version));
  clGetDeviceInfo(D.Id, CL_DEVICE_OPENCL_C_FEATURES, Size, Features.data(), nullptr);
  for (const cl_name_version &F : Features)
    if (std::string(F.name) == "__opencl_c_atomic_scope_all_devices")
      return "-cl-std=CL3.0";
  return "";
}

/// SVM allocations of one context, freed with it.
class SvmPool {
public:
  explicit SvmPool(cl_context C) : Context(C) {}
  SvmPool(const SvmPool &) = delete;
  SvmPool &operator=(const SvmPool &) = delete;
  ~SvmPool() {
    for (void *P : Owned)
      clSVMFree(Context, P);
  }
  template <typename T> T *alloc(size_t Count, cl_svm_mem_flags Flags) {
    void *P = clSVMAlloc(Context, Flags, Count * sizeof(T), 0);
    if (!P)
      throw Failure("clSVMAlloc of " + std::to_string(Count * sizeof(T)) + " bytes failed");
    Owned.push_back(P);
    return static_cast<T *>(P);
  }

private:
  cl_context Context;
  std::vector<void *> Owned;
};

/// Makes [P, P + Bytes) of a coarse-grained allocation the host's until the
/// returned guard goes (clEnqueueSVMMap / clEnqueueSVMUnmap).
class HostAccess {
public:
  HostAccess(const Device &D, void *P, size_t Bytes, cl_map_flags Flags) : D(D), P(P) {
    check(clEnqueueSVMMap(D.Queue, CL_TRUE, Flags, P, Bytes, 0, nullptr, nullptr),
          "clEnqueueSVMMap");
  }
  ~HostAccess() {
    clEnqueueSVMUnmap(D.Queue, P, 0, nullptr, nullptr);
    clFinish(D.Queue);
  }

private:
  const Device &D;
  void *P;
};

struct SvmState {
  explicit SvmState(const Device &D) : Pool(D.Context) {}
  SvmPool Pool;
  Program ChaseP, PingP;
  Kernel Chase, Ping;
  // The chase: Lists heads, each followed by PerList - 1 nodes elsewhere.
  size_t Lists = 0, PerList = 0;
  Node *Heads = nullptr, *Nodes = nullptr;
  uint32_t *Sums = nullptr;
  std::vector<uint32_t> WantSums;
  // The ping-pong.
  int *Ball = nullptr, *Missed = nullptr;
  int Rounds = 0;
};

/// Builds Lists lists of PerList nodes: the heads in their own allocation,
/// the other nodes in a random order across another, so that every step of
/// a walk is a dependent load to an unpredictable address.
void buildLists(const Device &D, SvmState &S) {
  const size_t Rest = S.Lists * (S.PerList - 1);
  S.Heads = S.Pool.alloc<Node>(S.Lists, CL_MEM_READ_ONLY);
  S.Nodes = S.Pool.alloc<Node>(Rest, CL_MEM_READ_ONLY);
  S.Sums = S.Pool.alloc<uint32_t>(S.Lists, CL_MEM_WRITE_ONLY);
  std::vector<uint32_t> Order(Rest);
  std::iota(Order.begin(), Order.end(), 0u);
  uint32_t State = 2024;
  for (size_t I = Rest; I > 1; --I) { // Fisher-Yates, deterministic
    State = State * 1664525u + 1013904223u;
    std::swap(Order[I - 1], Order[(State >> 8) % I]);
  }
  HostAccess H(D, S.Heads, S.Lists * sizeof(Node), CL_MAP_WRITE_INVALIDATE_REGION);
  HostAccess N(D, S.Nodes, Rest * sizeof(Node), CL_MAP_WRITE_INVALIDATE_REGION);
  S.WantSums.assign(S.Lists, 0);
  size_t Next = 0;
  for (size_t L = 0; L < S.Lists; ++L) {
    Node *Cur = &S.Heads[L];
    for (size_t K = 0; K < S.PerList; ++K) {
      Cur->Value = static_cast<uint32_t>(L * 2654435761u + K * 40503u);
      S.WantSums[L] += Cur->Value;
      Cur->Next = K + 1 == S.PerList ? nullptr : &S.Nodes[Order[Next++]];
      Cur = Cur->Next;
    }
  }
}

class SvmFigure : public Figure {
public:
  const char *name() const override { return "svm"; }
  std::vector<Metric> metrics() const override {
    return {{"svm.pointer_chase", "Mnodes/s", true}, {"svm.ping_pong", "round trips/s", true}};
  }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    const cl_device_svm_capabilities Caps = svmCapabilities(D);
    const std::string Std = atomicsStd(D);
    auto S = std::make_shared<SvmState>(D);
    auto Run = std::make_unique<KernelRun>(D);
    Run->Parts.push_back(chasePart(D, C, S, Caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER));
    const cl_device_svm_capabilities PingCaps =
        CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_ATOMICS;
    Run->Parts.push_back(pingPart(D, C, S, (Caps & PingCaps) == PingCaps && !Std.empty(), Std));
    Run->prepare(C);
    return Run;
  }

private:
  TimedPart chasePart(const Device &D, const Config &C, const std::shared_ptr<SvmState> &S,
                      bool Supported) {
    TimedPart P;
    P.Unsupported = !Supported;
    if (!Supported)
      return P;
    S->Lists = C.Quick ? 1024 : 8192;
    S->PerList = C.Quick ? 64 : 256;
    buildLists(D, *S);
    S->ChaseP = D.build(kernels::Svm);
    S->Chase = D.kernel(S->ChaseP, "chase");
    check(clSetKernelArgSVMPointer(S->Chase.get(), 0, S->Heads), "clSetKernelArgSVMPointer");
    check(clSetKernelArgSVMPointer(S->Chase.get(), 1, S->Sums), "clSetKernelArgSVMPointer");
    // The nodes past the heads are reached only through the lists.
    void *Reached[] = {S->Nodes};
    check(clSetKernelExecInfo(S->Chase.get(), CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(Reached),
                              Reached),
          "clSetKernelExecInfo");
    const Device *Dev = &D;
    P.Reset = [S, Dev](unsigned) {
      HostAccess A(*Dev, S->Sums, S->Lists * sizeof(uint32_t), CL_MAP_WRITE_INVALIDATE_REGION);
      std::fill(S->Sums, S->Sums + S->Lists, 0xdeadbeefu);
    };
    P.Launch = [S, Dev] { Dev->launch(S->Chase, {S->Lists}, {64}); };
    P.Verify = [S, Dev](unsigned, unsigned) {
      HostAccess A(*Dev, S->Sums, S->Lists * sizeof(uint32_t), CL_MAP_READ);
      expectEqual(S->Sums, S->WantSums.data(), S->Lists, "list sums");
    };
    P.WorkPerLaunch = static_cast<double>(S->Lists * S->PerList);
    P.Scale = 1e-6;
    P.MaxLaunches = 1000;
    return P;
  }

  TimedPart pingPart(const Device &D, const Config &C, const std::shared_ptr<SvmState> &S,
                     bool Supported, const std::string &Std) {
    TimedPart P;
    P.Unsupported = !Supported;
    if (!Supported)
      return P;
    const cl_svm_mem_flags Fine =
        CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
    S->Ball = S->Pool.alloc<int>(1, Fine);
    S->Missed = S->Pool.alloc<int>(1, Fine);
    S->Rounds = C.Quick ? 100 : 2000;
    S->PingP = D.build(kernels::Svm, Std);
    S->Ping = D.kernel(S->PingP, "ping");
    check(clSetKernelArgSVMPointer(S->Ping.get(), 0, S->Ball), "clSetKernelArgSVMPointer");
    check(clSetKernelArgSVMPointer(S->Ping.get(), 1, S->Missed), "clSetKernelArgSVMPointer");
    check(clSetKernelArg(S->Ping.get(), 2, sizeof(int), &S->Rounds), "clSetKernelArg");
    const Device *Dev = &D;
    P.Reset = [S](unsigned) { *S->Missed = 0; };
    // One launch is one kernel and the host's half of its round trips; the
    // kernel has ended (or is ending) when the host's last answer is sent.
    P.Launch = [S, Dev] {
      __atomic_store_n(S->Ball, 0, __ATOMIC_RELAXED);
      Dev->launch(S->Ping, {1}, {1});
      check(clFlush(Dev->Queue), "clFlush");
      const double Deadline = now() + 20;
      for (int R = 0; R < S->Rounds; ++R) {
        while (__atomic_load_n(S->Ball, __ATOMIC_ACQUIRE) != 2 * R + 1)
          if (now() > Deadline || __atomic_load_n(S->Missed, __ATOMIC_RELAXED))
            throw Failure("the kernel's half of round " + std::to_string(R) + " never came");
        __atomic_store_n(S->Ball, 2 * R + 2, __ATOMIC_RELEASE);
      }
      Dev->finish();
    };
    P.Verify = [S](unsigned, unsigned) {
      if (*S->Missed || *S->Ball != 2 * S->Rounds)
        throw Failure("ping-pong ended at " + std::to_string(*S->Ball) + " of " +
                      std::to_string(2 * S->Rounds));
    };
    P.WorkPerLaunch = S->Rounds;
    // A fixed batch: both sides spin, so on a machine busy with other
    // processes a round trip can take a scheduler quantum, and a batch
    // calibrated on a quiet moment could then take minutes.
    P.FixedLaunches = C.Quick ? 2 : 10;
    return P;
  }
};

} // namespace

std::unique_ptr<Figure> makeSvm() { return std::make_unique<SvmFigure>(); }

} // namespace weft::bench
