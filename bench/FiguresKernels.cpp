// Figures 4-12: kernels, each a pattern a CPU OpenCL compiler must handle
// well. STREAM copy/triad (memory bandwidth through kernels), naive and
// __local-tiled SGEMM (arithmetic, and barriers in a loop), a work-group
// reduction (__local argument, a barrier per halving step), atomic_add on
// a few counters (contention), a stencil with four barriers per iteration
// (the cost of a barrier itself), one multiply-add chain written with
// float and with float4 (does the compiler vectorise across work-items?),
// transcendental builtins in float and double (can it vectorise calls to
// them too?), fmod and remainder (and call a fast scalar form per lane?),
// and a FIR filter with __constant taps (and work-items that
// read one address space and write another?).
//
// Each figure computes its expected output on the host once, clears the
// device's output before every timed batch, and compares afterwards.
#include "Figures.h"
#include "Kernels.h"

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <tuple>

namespace weft::bench {

namespace {

/// A small deterministic generator for inputs; the same on every device.
struct Lcg {
  uint32_t State;
  uint32_t next() { return State = State * 1664525u + 1013904223u; }
  float unit() { return static_cast<float>(next() >> 8) * (1.0f / 16777216.0f); }
};

void zeroBuffer(const Device &D, const Mem &M, size_t Bytes) {
  uint32_t Zero = 0;
  check(clEnqueueFillBuffer(D.Queue, M.get(), &Zero, sizeof(Zero), 0, Bytes, 0, nullptr, nullptr),
        "clEnqueueFillBuffer");
}

/// A timed part whose kernel writes Out: Out is zeroed before each batch,
/// then read into Got and compared by Check. S, the figure's state, owns
/// Out and Got for as long as the part lives.
template <typename T>
TimedPart outputPart(const Device &D, std::shared_ptr<const void> S, const Mem &Out,
                     HostArray<T> &Got, std::function<void()> Launch, std::function<void()> Check,
                     double WorkPerLaunch, double Scale, unsigned MaxLaunches) {
  const Device *Dev = &D;
  TimedPart P;
  P.Reset = [S, Dev, &Out, &Got](unsigned) { zeroBuffer(*Dev, Out, Got.bytes()); };
  P.Launch = std::move(Launch);
  P.Verify = [S, Dev, &Out, &Got, Check = std::move(Check)](unsigned, unsigned) {
    Dev->read(Out, Got.data(), Got.bytes());
    Check();
  };
  P.WorkPerLaunch = WorkPerLaunch;
  P.Scale = Scale;
  P.MaxLaunches = MaxLaunches;
  return P;
}

// 4. STREAM copy (C = A) and triad (C = A + s * B). Inputs are multiples of
// 1/4 below 256, so every result is exact in float, fused or not.
struct StreamState {
  Program P;
  Kernel Copy, Triad;
  Mem A, B, C;
  HostArray<float> HostA, HostB, Got, Want;
};

class Stream : public Figure {
public:
  const char *name() const override { return "stream"; }
  std::vector<Metric> metrics() const override {
    return {{"stream.copy", "GB/s", true, "stream.copy"},
            {"stream.triad", "GB/s", true, "stream.triad"}};
  }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    const size_t N = C.Quick ? (4u << 20) : (16u << 20);
    const size_t Bytes = N * sizeof(float);
    auto S = std::make_shared<StreamState>();
    S->P = D.build(kernels::Stream);
    S->Copy = D.kernel(S->P, "streamCopy");
    S->Triad = D.kernel(S->P, "streamTriad");
    S->HostA.resize(N);
    S->HostB.resize(N);
    S->Got.resize(N);
    S->Want.resize(N);
    for (size_t I = 0; I < N; ++I) {
      S->HostA[I] = static_cast<float>(I % 1000) * 0.25f;
      S->HostB[I] = static_cast<float>(I % 777) * 0.25f;
    }
    S->A = D.buffer(Bytes, CL_MEM_READ_ONLY);
    S->B = D.buffer(Bytes, CL_MEM_READ_ONLY);
    S->C = D.buffer(Bytes);
    D.write(S->A, S->HostA.data(), Bytes);
    D.write(S->B, S->HostB.data(), Bytes);
    setArgs(S->Copy, S->A, S->C);

    auto Run = std::make_unique<KernelRun>(D);
    const Device *Dev = &D;
    TimedPart Copy;
    Copy.Reset = [S, Dev, Bytes](unsigned) { zeroBuffer(*Dev, S->C, Bytes); };
    Copy.Launch = [S, Dev, N] { Dev->launch(S->Copy, {N}, {256}); };
    Copy.Verify = [S, Dev, Bytes, N](unsigned, unsigned) {
      Dev->read(S->C, S->Got.data(), Bytes);
      expectNear(S->Got.data(), S->HostA.data(), N, 0, "streamCopy output");
    };
    Copy.WorkPerLaunch = 2.0 * static_cast<double>(Bytes);

    TimedPart Triad;
    Triad.Reset = [S, Dev, Bytes](unsigned Rep) {
      zeroBuffer(*Dev, S->C, Bytes);
      float Scalar = 2.0f + static_cast<float>(Rep % 4);
      setArgs(S->Triad, S->A, S->B, S->C, Scalar);
    };
    Triad.Launch = [S, Dev, N] { Dev->launch(S->Triad, {N}, {256}); };
    Triad.Verify = [S, Dev, Bytes, N](unsigned Rep, unsigned) {
      float Scalar = 2.0f + static_cast<float>(Rep % 4);
      for (size_t I = 0; I < N; ++I)
        S->Want[I] = S->HostA[I] + Scalar * S->HostB[I];
      Dev->read(S->C, S->Got.data(), Bytes);
      expectNear(S->Got.data(), S->Want.data(), N, 0, "streamTriad output");
    };
    Triad.WorkPerLaunch = 3.0 * static_cast<double>(Bytes);

    for (TimedPart *P : {&Copy, &Triad}) {
      P->Scale = 1e-9;
      P->MaxLaunches = 200;
      Run->Parts.push_back(std::move(*P));
    }
    Run->prepare(C);
    return Run;
  }
};

// 5. SGEMM, N x N, 16 x 16 work-groups for both kernels.
constexpr size_t SgemmTile = 16;

struct SgemmState {
  Program P;
  Kernel Naive, Guarded, Tiled;
  Mem A, B, C;
  HostArray<float> Got;
};

class Sgemm : public Figure {
public:
  const char *name() const override { return "sgemm"; }
  std::vector<Metric> metrics() const override {
    return {{"sgemm.naive", "GFLOP/s", true, "fma.float"},
            {"sgemm.guarded", "GFLOP/s", true, "fma.float"},
            {"sgemm.tiled", "GFLOP/s", true, "fma.float"}};
  }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    const size_t N = C.Quick ? 256 : 512;
    makeReference(N);
    const size_t Bytes = N * N * sizeof(float);
    auto S = std::make_shared<SgemmState>();
    S->P = D.build(kernels::Sgemm, "-DTILE=" + std::to_string(SgemmTile));
    S->Naive = D.kernel(S->P, "sgemmNaive");
    S->Guarded = D.kernel(S->P, "sgemmGuarded");
    S->Tiled = D.kernel(S->P, "sgemmTiled");
    S->A = D.buffer(Bytes, CL_MEM_READ_ONLY);
    S->B = D.buffer(Bytes, CL_MEM_READ_ONLY);
    S->C = D.buffer(Bytes);
    S->Got.resize(N * N);
    D.write(S->A, HostA.data(), Bytes);
    D.write(S->B, HostB.data(), Bytes);
    int NArg = static_cast<int>(N);
    setArgs(S->Naive, S->A, S->B, S->C, NArg);
    setArgs(S->Guarded, S->A, S->B, S->C, NArg);
    setArgs(S->Tiled, S->A, S->B, S->C, NArg);

    auto Run = std::make_unique<KernelRun>(D);
    const Device *Dev = &D;
    for (Kernel *K : {&S->Naive, &S->Guarded, &S->Tiled}) {
      const char *What = K == &S->Naive     ? "sgemmNaive output"
                         : K == &S->Guarded ? "sgemmGuarded output"
                                            : "sgemmTiled output";
      Run->Parts.push_back(outputPart(
          D, S, S->C, S->Got,
          [Dev, K, N] {
            Dev->launch(*K, {N, N}, {SgemmTile, SgemmTile});
          },
          [this, S, N, What] { expectNear(S->Got.data(), Want.data(), N * N, 1e-4f, What); },
          2.0 * static_cast<double>(N) * static_cast<double>(N * N), 1e-9, 100));
    }
    Run->prepare(C);
    return Run;
  }

private:
  /// Inputs and the product (accumulated in double), computed once for all
  /// devices.
  void makeReference(size_t N) {
    if (Want.size() == N * N)
      return;
    HostA.resize(N * N);
    HostB.resize(N * N);
    Want.resize(N * N);
    Lcg R{12345};
    for (size_t I = 0; I < N * N; ++I) {
      HostA[I] = R.unit() * 2.0f - 1.0f;
      HostB[I] = R.unit() * 2.0f - 1.0f;
    }
    std::vector<double> Row(N);
    for (size_t I = 0; I < N; ++I) {
      std::fill(Row.begin(), Row.end(), 0.0);
      for (size_t K = 0; K < N; ++K) {
        double A = HostA[I * N + K];
        for (size_t J = 0; J < N; ++J)
          Row[J] += A * HostB[K * N + J];
      }
      for (size_t J = 0; J < N; ++J)
        Want[I * N + J] = static_cast<float>(Row[J]);
    }
  }
  HostArray<float> HostA, HostB, Want;
};

// 6. Work-group reduction of uints (exact, wrapping) in 256-item groups:
// `reduce.sum` with each work-item summing 16 elements first, and
// `reduce.tree`, the textbook GPU kernel as GPU code writes it (one element
// per work-item, `s[lid] = in[gid]; barrier;`, then the tree: `if (lid <
// k) s[lid] += s[lid + k]; barrier`).
constexpr uint32_t ReduceGroup = 256;
constexpr uint32_t ReducePerItem[] = {16, 1};
constexpr const char *ReduceKernel[] = {"reduceSum", "reduceTree"};

struct ReduceState {
  Program P;
  Kernel K[2];
  Mem In, Partial[2];
  HostArray<uint32_t> Got[2];
};

class Reduction : public Figure {
public:
  const char *name() const override { return "reduce"; }
  std::vector<Metric> metrics() const override {
    return {{"reduce.sum", "GB/s", true, "stream.read"},
            {"reduce.tree", "GB/s", true, "stream.read"}};
  }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    const size_t N = C.Quick ? (4u << 20) : (16u << 20);
    makeReference(N);
    auto S = std::make_shared<ReduceState>();
    S->P = D.build(kernels::Reduce);
    S->In = D.buffer(N * sizeof(uint32_t), CL_MEM_READ_ONLY);
    D.write(S->In, HostIn.data(), HostIn.bytes());
    auto Run = std::make_unique<KernelRun>(D);
    const Device *Dev = &D;
    for (int V = 0; V < 2; ++V) {
      const size_t Global = N / ReducePerItem[V], Groups = Global / ReduceGroup;
      S->K[V] = D.kernel(S->P, ReduceKernel[V]);
      S->Partial[V] = D.buffer(Groups * sizeof(uint32_t));
      S->Got[V].resize(Groups);
      setArgs(S->K[V], S->In, S->Partial[V]);
      setLocalArg(S->K[V], 2, ReduceGroup * sizeof(uint32_t));
      if (V == 0) // reduceSum's count of elements per work-item
        check(clSetKernelArg(S->K[V].get(), 3, sizeof(uint32_t), &ReducePerItem[V]),
              "clSetKernelArg");
      Run->Parts.push_back(outputPart(
          D, S, S->Partial[V], S->Got[V],
          [S, Dev, Global, V] { Dev->launch(S->K[V], {Global}, {ReduceGroup}); },
          [this, S, V] {
            expectEqual(S->Got[V].data(), Want[V].data(), Want[V].size(), "partial sums");
          },
          static_cast<double>(N * sizeof(uint32_t)), 1e-9, 200));
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
    for (int V = 0; V < 2; ++V) {
      const size_t Global = N / ReducePerItem[V];
      Want[V].resize(Global / ReduceGroup);
      for (size_t G = 0; G < Want[V].size(); ++G) {
        uint32_t Sum = 0;
        for (size_t L = 0; L < ReduceGroup; ++L)
          for (size_t I = 0; I < ReducePerItem[V]; ++I)
            Sum += HostIn[G * ReduceGroup + L + I * Global];
        Want[V][G] = Sum;
      }
    }
  }
  HostArray<uint32_t> HostIn, Want[2];
};

// 7. atomic_add: every work-item adds 16 times, to 4 counters in turn.
constexpr uint32_t AtomicCounters = 4, AtomicPerItem = 16;

struct AtomicState {
  Program P;
  Kernel K;
  Mem Counters;
  uint32_t PerLaunch[AtomicCounters] = {};
  uint32_t Got[AtomicCounters] = {};
};

class Atomics : public Figure {
public:
  const char *name() const override { return "atomics"; }
  std::vector<Metric> metrics() const override { return {{"atomics.add", "Mops/s", true}}; }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    const size_t Global = C.Quick ? (64u << 10) : (256u << 10);
    auto S = std::make_shared<AtomicState>();
    for (size_t Gid = 0; Gid < Global; ++Gid)
      for (uint32_t I = 0; I < AtomicPerItem; ++I)
        S->PerLaunch[(Gid + I) % AtomicCounters] += (Gid & 7u) + 1u;
    S->P = D.build(kernels::Atomics);
    S->K = D.kernel(S->P, "atomicContention");
    S->Counters = D.buffer(sizeof(S->Got));
    setArgs(S->K, S->Counters, AtomicCounters, AtomicPerItem);

    auto Run = std::make_unique<KernelRun>(D);
    const Device *Dev = &D;
    TimedPart P;
    P.Reset = [S, Dev](unsigned) { zeroBuffer(*Dev, S->Counters, sizeof(S->Got)); };
    P.Launch = [S, Dev, Global] { Dev->launch(S->K, {Global}, {256}); };
    P.Verify = [S, Dev](unsigned, unsigned Launches) {
      Dev->read(S->Counters, S->Got, sizeof(S->Got));
      uint32_t Want[AtomicCounters];
      for (uint32_t I = 0; I < AtomicCounters; ++I)
        Want[I] = S->PerLaunch[I] * Launches;
      expectEqual(S->Got, Want, AtomicCounters, "atomic_add counters");
    };
    P.WorkPerLaunch = static_cast<double>(Global) * AtomicPerItem;
    P.Scale = 1e-6;
    P.MaxLaunches = 1000;
    Run->Parts.push_back(std::move(P));
    Run->prepare(C);
    return Run;
  }
};

// 8. The barrier stencil: 256-item groups, every work-item crossing
// 1 + 4 * Steps barriers.
constexpr uint32_t BarrierGroup = 256;

struct BarrierState {
  Program P;
  Kernel K;
  Mem In, Out;
  HostArray<uint32_t> Got;
};

class Barriers : public Figure {
public:
  const char *name() const override { return "barriers"; }
  std::vector<Metric> metrics() const override {
    return {{"barriers.stencil", "Mbarrier/s", true}};
  }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    const size_t Global = size_t{BarrierGroup} * (C.Quick ? 128 : 512);
    const uint32_t Steps = C.Quick ? 16 : 32;
    makeReference(Global, Steps);
    auto S = std::make_shared<BarrierState>();
    S->P = D.build(kernels::Barriers, "-DWG=" + std::to_string(BarrierGroup) + "u");
    S->K = D.kernel(S->P, "barrierStencil");
    S->In = D.buffer(Global * sizeof(uint32_t), CL_MEM_READ_ONLY);
    S->Out = D.buffer(Global * sizeof(uint32_t));
    S->Got.resize(Global);
    D.write(S->In, HostIn.data(), HostIn.bytes());
    setArgs(S->K, S->In, S->Out, Steps);

    auto Run = std::make_unique<KernelRun>(D);
    const Device *Dev = &D;
    Run->Parts.push_back(outputPart(
        D, S, S->Out, S->Got, [S, Dev, Global] { Dev->launch(S->K, {Global}, {BarrierGroup}); },
        [this, S] {
          expectEqual(S->Got.data(), Want.data(), Want.size(), "barrierStencil output");
        },
        static_cast<double>(Global) * (1 + 4 * Steps), 1e-6, 1000));
    Run->prepare(C);
    return Run;
  }

private:
  /// The kernel's work-groups, one after the other, each phase of a step
  /// over the whole ring before the next (what the barriers guarantee).
  void makeReference(size_t Global, uint32_t Steps) {
    if (HostIn.size() == Global && ReferenceSteps == Steps)
      return;
    ReferenceSteps = Steps;
    HostIn.resize(Global);
    Want.resize(Global);
    Lcg R{777};
    for (size_t I = 0; I < Global; ++I)
      HostIn[I] = R.next();
    const uint32_t N = BarrierGroup;
    std::vector<uint32_t> Ring(N), Next(N);
    for (size_t G = 0; G < Global / N; ++G) {
      std::copy(&HostIn[G * N], &HostIn[G * N] + N, Ring.begin());
      for (uint32_t S = 0; S < Steps; ++S) {
        for (uint32_t L = 0; L < N; ++L) {
          uint32_t V = Ring[(L + N - 1) % N] + 2u * Ring[L] + Ring[(L + 1) % N] + S;
          Next[L] = V ^ (V >> 7);
        }
        for (uint32_t L = 0; L < N; ++L)
          Ring[L] = Next[(L * 17u) % N] * 3u + L;
      }
      std::copy(Ring.begin(), Ring.end(), &Want[G * N]);
    }
  }
  HostArray<uint32_t> HostIn, Want;
  uint32_t ReferenceSteps = 0;
};

// 9. float vs float4: the same Iters multiply-adds per float element. The
// chain converges towards B / (1 - A) = 500, so the values stay tame.
constexpr int VectorIters = 128;
constexpr float VectorA = 0.999f, VectorB = 0.5f;
constexpr unsigned VectorWidths[] = {1, 2, 4, 8, 16};

struct VectorState {
  Program FloatP, DoubleP;
  std::vector<Kernel> Float, Double; // one per width
  Mem FloatIn, FloatOut, DoubleIn, DoubleOut;
  HostArray<float> FloatGot;
  HostArray<double> DoubleGot;
};

class Vectors : public Figure {
public:
  const char *name() const override { return "vectors"; }
  std::vector<Metric> metrics() const override {
    std::vector<Metric> M;
    for (const char *Real : {"float", "double"})
      for (unsigned W : VectorWidths)
        M.push_back({std::string("vectors.") + Real + (W > 1 ? std::to_string(W) : ""), "GFLOP/s",
                     true, std::string("fma.") + Real});
    return M;
  }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    const size_t N = C.Quick ? (1u << 20) : (4u << 20);
    makeReference(N);
    cl_device_fp_config DoubleConfig = 0;
    const bool HasDoubles = clGetDeviceInfo(D.Id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(DoubleConfig),
                                            &DoubleConfig, nullptr) == CL_SUCCESS &&
                            DoubleConfig != 0;
    auto S = std::make_shared<VectorState>();
    const std::string Iters = "-DITERS=" + std::to_string(VectorIters);
    S->FloatP = D.build(kernels::Vectors, Iters + " -DREAL=float");
    S->FloatIn = D.buffer(N * sizeof(float), CL_MEM_READ_ONLY);
    S->FloatOut = D.buffer(N * sizeof(float));
    S->FloatGot.resize(N);
    D.write(S->FloatIn, FloatIn.data(), FloatIn.bytes());
    if (HasDoubles) {
      S->DoubleP = D.build(kernels::Vectors, Iters + " -DREAL=double -DREAL_IS_DOUBLE=1");
      S->DoubleIn = D.buffer(N * sizeof(double), CL_MEM_READ_ONLY);
      S->DoubleOut = D.buffer(N * sizeof(double));
      S->DoubleGot.resize(N);
      D.write(S->DoubleIn, DoubleIn.data(), DoubleIn.bytes());
    }
    for (unsigned W : VectorWidths) {
      const std::string Name = "mad" + std::to_string(W);
      S->Float.push_back(D.kernel(S->FloatP, Name.c_str()));
      setArgs(S->Float.back(), S->FloatIn, S->FloatOut, VectorA, VectorB);
      if (HasDoubles) {
        S->Double.push_back(D.kernel(S->DoubleP, Name.c_str()));
        setArgs(S->Double.back(), S->DoubleIn, S->DoubleOut, double(VectorA), double(VectorB));
      }
    }

    auto Run = std::make_unique<KernelRun>(D);
    const Device *Dev = &D;
    const double Flops = 2.0 * VectorIters * static_cast<double>(N);
    for (size_t I = 0; I < std::size(VectorWidths); ++I) {
      const size_t Global = N / VectorWidths[I];
      const Kernel *K = &S->Float[I];
      Run->Parts.push_back(outputPart(
          D, S, S->FloatOut, S->FloatGot, [Dev, K, Global] { Dev->launch(*K, {Global}, {256}); },
          [this, S] {
            expectNear(S->FloatGot.data(), FloatWant.data(), FloatWant.size(), 1e-4f,
                       "float multiply-add chains");
          },
          Flops, 1e-9, 200));
    }
    for (size_t I = 0; I < std::size(VectorWidths); ++I) {
      if (!HasDoubles) {
        TimedPart P;
        P.Unsupported = true;
        Run->Parts.push_back(std::move(P));
        continue;
      }
      const size_t Global = N / VectorWidths[I];
      const Kernel *K = &S->Double[I];
      Run->Parts.push_back(outputPart(
          D, S, S->DoubleOut, S->DoubleGot, [Dev, K, Global] { Dev->launch(*K, {Global}, {256}); },
          [this, S] {
            expectRelative(S->DoubleGot.data(), DoubleWant.data(), DoubleWant.size(), 1e-12, 1e-12,
                           "double multiply-add chains");
          },
          Flops, 1e-9, 200));
    }
    Run->prepare(C);
    return Run;
  }

private:
  void makeReference(size_t N) {
    if (FloatIn.size() == N)
      return;
    FloatIn.resize(N);
    FloatWant.resize(N);
    DoubleIn.resize(N);
    DoubleWant.resize(N);
    // 1024 distinct inputs: the reference costs 1024 chains, not N.
    float ChainF[1024];
    double ChainD[1024];
    for (int I = 0; I < 1024; ++I) {
      float F = static_cast<float>(I) / 1024.0f;
      double Dv = F;
      for (int K = 0; K < VectorIters; ++K) {
        F = F * VectorA + VectorB;
        Dv = Dv * double(VectorA) + double(VectorB);
      }
      ChainF[I] = F;
      ChainD[I] = Dv;
    }
    for (size_t I = 0; I < N; ++I) {
      FloatIn[I] = static_cast<float>(I % 1024) / 1024.0f;
      DoubleIn[I] = FloatIn[I];
      FloatWant[I] = ChainF[I % 1024];
      DoubleWant[I] = ChainD[I % 1024];
    }
  }
  HostArray<float> FloatIn, FloatWant;
  HostArray<double> DoubleIn, DoubleWant;
};

// 10 and 11. Math builtins per element, in float and in double: the
// transcendental functions (exp, sin, log1p, atan2, pow, cbrt and tanh), and
// the remainders (fmod and remainder, as code that wraps a phase calls
// them). Inputs are floats, which widen exactly, so one reference computed
// in double serves both kernels (the remainders' divisors are exact in
// both, and so are their results). The tolerances lie well above OpenCL's
// ulp bounds (16 ulp for pow) and far below what a wrong function or a
// mixed-up vector lane gives.
constexpr double MathFloatRelTol = 1e-5, MathFloatAbsTol = 1e-6;
constexpr double MathDoubleRelTol = 1e-12, MathDoubleAbsTol = 1e-14;

struct MathState {
  Program FloatP, DoubleP;
  // Per element, per 8 (vector types) and per float4 behind a bounds check.
  Kernel Float, Float8, Double, Double8, Float4;
  Mem FloatIn, FloatOut, DoubleIn, DoubleOut;
  HostArray<float> FloatGot;
  HostArray<double> DoubleGot;
};

// What a math figure computes: its name, which is its kernel's in
// kernels::Math and its metrics' prefix, the inputs' range [0, InputMax)
// and the host's reference of one element, in double.
struct MathKind {
  const char *Name;
  float InputMax;
  double (*Reference)(double);
};

double transcendentalReference(double V) {
  return std::exp(-V) * std::sin(3.0 * V) + std::log1p(V) + std::atan2(V, 1.5) +
         std::pow(V + 1.0, 1.3) + std::cbrt(V) + std::tanh(V);
}

double remaindersReference(double V) { return std::fmod(V, 0.75) + std::remainder(V, 1.375); }

class Math : public Figure {
public:
  explicit Math(MathKind K) : K(K) {}
  const char *name() const override { return K.Name; }
  std::vector<Metric> metrics() const override {
    const std::string Name = K.Name;
    return {{Name + ".float", "Melem/s", true},
            {Name + ".float8", "Melem/s", true},
            {Name + ".float4", "Melem/s", true},
            {Name + ".double", "Melem/s", true},
            {Name + ".double8", "Melem/s", true}};
  }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    const size_t N = C.Quick ? (1u << 20) : (4u << 20);
    makeReference(N);
    // A device without doubles reports 0 here; a failed query counts as no
    // doubles too, so that such a device still reports math.float.
    cl_device_fp_config DoubleConfig = 0;
    const bool HasDoubles = clGetDeviceInfo(D.Id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(DoubleConfig),
                                            &DoubleConfig, nullptr) == CL_SUCCESS &&
                            DoubleConfig != 0;
    const std::string Name = K.Name, Name8 = Name + "8", Name4 = Name + "4";
    auto S = std::make_shared<MathState>();
    S->FloatP = D.build(kernels::Math, "-DREAL=float");
    S->Float = D.kernel(S->FloatP, Name.c_str());
    S->Float8 = D.kernel(S->FloatP, Name8.c_str());
    S->Float4 = D.kernel(S->FloatP, Name4.c_str());
    S->FloatIn = D.buffer(N * sizeof(float), CL_MEM_READ_ONLY);
    S->FloatOut = D.buffer(N * sizeof(float));
    S->FloatGot.resize(N);
    D.write(S->FloatIn, HostFloatIn.data(), HostFloatIn.bytes());
    setArgs(S->Float, S->FloatIn, S->FloatOut);
    setArgs(S->Float8, S->FloatIn, S->FloatOut);
    setArgs(S->Float4, S->FloatIn, S->FloatOut, static_cast<cl_uint>(N / 4));
    // The double kernels are a separate program: a device without doubles
    // could not build it.
    if (HasDoubles) {
      S->DoubleP = D.build(kernels::Math, "-DREAL=double -DREAL_IS_DOUBLE=1");
      S->Double = D.kernel(S->DoubleP, Name.c_str());
      S->Double8 = D.kernel(S->DoubleP, Name8.c_str());
      S->DoubleIn = D.buffer(N * sizeof(double), CL_MEM_READ_ONLY);
      S->DoubleOut = D.buffer(N * sizeof(double));
      S->DoubleGot.resize(N);
      D.write(S->DoubleIn, HostDoubleIn.data(), HostDoubleIn.bytes());
      setArgs(S->Double, S->DoubleIn, S->DoubleOut);
      setArgs(S->Double8, S->DoubleIn, S->DoubleOut);
    }

    auto Run = std::make_unique<KernelRun>(D);
    for (auto [Kern, Lanes, What] :
         {std::tuple{&S->Float, size_t(1), "float"}, std::tuple{&S->Float8, size_t(8), "float8"},
          std::tuple{&S->Float4, size_t(4), "float4"}})
      Run->Parts.push_back(part(D, S, *Kern, S->FloatOut, S->FloatGot, Lanes, MathFloatRelTol,
                                MathFloatAbsTol, What));
    for (auto [Kern, Lanes, What] : {std::tuple{&S->Double, size_t(1), "double"},
                                     std::tuple{&S->Double8, size_t(8), "double8"}}) {
      TimedPart P = part(D, S, *Kern, S->DoubleOut, S->DoubleGot, Lanes, MathDoubleRelTol,
                         MathDoubleAbsTol, What);
      P.Unsupported = !HasDoubles;
      Run->Parts.push_back(std::move(P));
    }
    Run->prepare(C);
    return Run;
  }

private:
  // The part that times Kern, Lanes elements a work-item, over the whole
  // input; its results land in Out and must be within RelTol or AbsTol of
  // the reference.
  template <typename T>
  TimedPart part(const Device &D, const std::shared_ptr<MathState> &S, Kernel &Kern, Mem &Out,
                 HostArray<T> &Got, size_t Lanes, double RelTol, double AbsTol, const char *What) {
    const Device *Dev = &D;
    const size_t Global = Got.size() / Lanes;
    TimedPart P;
    P.Reset = [S, Dev, &Out, &Got](unsigned) { zeroBuffer(*Dev, Out, Got.bytes()); };
    P.Launch = [S, Dev, &Kern, Global] { Dev->launch(Kern, {Global}, {256}); };
    P.Verify = [this, S, Dev, &Out, &Got, RelTol, AbsTol,
                Label = std::string(K.Name) + " " + What + " output"](unsigned, unsigned) {
      Dev->read(Out, Got.data(), Got.bytes());
      expectRelative(Got.data(), Want.data(), Want.size(), RelTol, AbsTol, Label.c_str());
    };
    P.WorkPerLaunch = static_cast<double>(Got.size());
    P.Scale = 1e-6;
    P.MaxLaunches = 200;
    return P;
  }

  void makeReference(size_t N) {
    if (HostFloatIn.size() == N)
      return;
    HostFloatIn.resize(N);
    HostDoubleIn.resize(N);
    Want.resize(N);
    Lcg R{4242};
    for (size_t I = 0; I < N; ++I) {
      HostFloatIn[I] = R.unit() * K.InputMax;
      Want[I] = K.Reference(HostDoubleIn[I] = HostFloatIn[I]);
    }
  }
  MathKind K;
  HostArray<float> HostFloatIn;
  HostArray<double> HostDoubleIn, Want;
};

// 12. A 17-tap FIR filter with its taps in __constant memory: does the
// compiler vectorise work-items that read one address space and write
// another? Inputs are multiples of 1/16 below 4 and taps multiples of 1/16
// below 1: every product and partial sum is exact in float, fused or not.
constexpr int FilterTaps = 17;

struct FilterState {
  Program P;
  Kernel Fir, FirArgument;
  Mem In, Taps, Out;
  HostArray<float> Got;
};

class Filter : public Figure {
public:
  const char *name() const override { return "filter"; }
  std::vector<Metric> metrics() const override {
    return {{"filter.fir17", "GFLOP/s", true, "fma.float"},
            {"filter.fir17_arg", "GFLOP/s", true, "fma.float"}};
  }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    const size_t N = C.Quick ? (1u << 20) : (8u << 20);
    makeReference(N);
    auto S = std::make_shared<FilterState>();
    S->P = D.build(kernels::Filter, "-DTAPS=" + std::to_string(FilterTaps));
    S->Fir = D.kernel(S->P, "firConstant");
    S->In = D.buffer(HostIn.bytes(), CL_MEM_READ_ONLY);
    S->Taps = D.buffer(HostTaps.bytes(), CL_MEM_READ_ONLY);
    S->Out = D.buffer(N * sizeof(float));
    S->Got.resize(N);
    D.write(S->In, HostIn.data(), HostIn.bytes());
    D.write(S->Taps, HostTaps.data(), HostTaps.bytes());
    setArgs(S->Fir, S->In, S->Taps, S->Out);
    S->FirArgument = D.kernel(S->P, "firArgument");
    setArgs(S->FirArgument, S->In, S->Taps, S->Out, int32_t(FilterTaps));

    auto Run = std::make_unique<KernelRun>(D);
    const Device *Dev = &D;
    for (Kernel *K : {&S->Fir, &S->FirArgument})
      Run->Parts.push_back(outputPart(
          D, S, S->Out, S->Got, [S, Dev, N, K] { Dev->launch(*K, {N}, {256}); },
          [this, S] {
            expectNear(S->Got.data(), Want.data(), Want.size(), 0.0f, "FIR filter output");
          },
          2.0 * FilterTaps * static_cast<double>(N), 1e-9, 200));
    Run->prepare(C);
    return Run;
  }

private:
  void makeReference(size_t N) {
    if (Want.size() == N)
      return;
    HostIn.resize(N + FilterTaps - 1);
    HostTaps.resize(FilterTaps);
    Want.resize(N);
    Lcg R{1717};
    for (size_t I = 0; I < HostIn.size(); ++I)
      HostIn[I] = static_cast<float>(R.next() >> 26) / 16.0f; // 0 .. 63/16
    for (int K = 0; K < FilterTaps; ++K)
      HostTaps[K] = static_cast<float>((K * 5) % 16) / 16.0f;
    for (size_t I = 0; I < N; ++I) {
      float Acc = 0.0f;
      for (int K = 0; K < FilterTaps; ++K)
        Acc += HostTaps[K] * HostIn[I + K];
      Want[I] = Acc;
    }
  }
  HostArray<float> HostIn, HostTaps, Want;
};

} // namespace

std::unique_ptr<Figure> makeStream() { return std::make_unique<Stream>(); }
std::unique_ptr<Figure> makeSgemm() { return std::make_unique<Sgemm>(); }
std::unique_ptr<Figure> makeReduction() { return std::make_unique<Reduction>(); }
std::unique_ptr<Figure> makeAtomics() { return std::make_unique<Atomics>(); }
std::unique_ptr<Figure> makeBarriers() { return std::make_unique<Barriers>(); }
std::unique_ptr<Figure> makeVectors() { return std::make_unique<Vectors>(); }
std::unique_ptr<Figure> makeMath() {
  return std::make_unique<Math>(MathKind{"math", 4.0f, transcendentalReference});
}
std::unique_ptr<Figure> makeRemainders() {
  return std::make_unique<Math>(MathKind{"remainders", 0x1p20f, remaindersReference});
}
std::unique_ptr<Figure> makeFilter() { return std::make_unique<Filter>(); }

} // namespace weft::bench
