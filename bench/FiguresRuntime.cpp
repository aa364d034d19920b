// Figures 1-3: what the runtime costs around kernels. The round trip of an
// empty kernel (enqueue + clFinish: command creation, scheduling, wake-up
// and completion), the rate of many tiny kernels in one in-order queue (the
// per-command cost once the queue stays busy), and the bandwidth of
// clEnqueueWrite/Read/CopyBuffer on 64 MiB (memcpy-bound on a CPU device).
#include "Figures.h"
#include "Kernels.h"

namespace weft::bench {

namespace {

/// The program of figures 1 and 2, shared by their runs on one device.
struct LaunchState {
  Program P;
  Kernel K;
  Mem Out;
  uint32_t Got = 0;
};

std::shared_ptr<LaunchState> makeLaunchState(const Device &D, const char *KernelName) {
  auto S = std::make_shared<LaunchState>();
  S->P = D.build(kernels::Launch);
  S->K = D.kernel(S->P, KernelName);
  S->Out = D.buffer(sizeof(uint32_t));
  return S;
}

class LaunchLatency : public Figure {
public:
  const char *name() const override { return "latency"; }
  std::vector<Metric> metrics() const override { return {{"latency.empty_kernel", "µs", false}}; }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    auto Run = std::make_unique<KernelRun>(D);
    auto S = makeLaunchState(D, "empty");
    const Device *Dev = &D;
    TimedPart P;
    P.Reset = [S, Dev](unsigned Rep) {
      uint32_t Zero = 0, Value = 1000 + Rep;
      Dev->write(S->Out, &Zero, sizeof(Zero));
      setArgs(S->K, S->Out, Value);
    };
    P.Launch = [S, Dev] {
      size_t One = 1;
      check(clEnqueueNDRangeKernel(Dev->Queue, S->K.get(), 1, nullptr, &One, &One, 0, nullptr,
                                   nullptr),
            "clEnqueueNDRangeKernel");
      Dev->finish();
    };
    P.Verify = [S, Dev](unsigned Rep, unsigned) {
      Dev->read(S->Out, &S->Got, sizeof(S->Got));
      uint32_t Want = 1000 + Rep;
      expectEqual(&S->Got, &Want, 1, "empty kernel output");
    };
    P.TimePerLaunch = true;
    P.Scale = 1e6;
    P.MaxLaunches = C.Quick ? 500 : 2000;
    Run->Parts.push_back(std::move(P));
    Run->prepare(C);
    return Run;
  }
};

class LaunchThroughput : public Figure {
public:
  const char *name() const override { return "throughput"; }
  std::vector<Metric> metrics() const override {
    return {{"throughput.tiny_kernels", "kernels/s", true}};
  }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    auto Run = std::make_unique<KernelRun>(D);
    auto S = makeLaunchState(D, "tiny");
    setArgs(S->K, S->Out);
    const Device *Dev = &D;
    TimedPart P;
    P.Reset = [S, Dev](unsigned) {
      uint32_t Zero = 0;
      Dev->write(S->Out, &Zero, sizeof(Zero));
    };
    P.Launch = [S, Dev] { Dev->launch(S->K, {1}, {1}); };
    P.Verify = [S, Dev](unsigned, unsigned Launches) {
      Dev->read(S->Out, &S->Got, sizeof(S->Got));
      uint32_t Want = Launches;
      expectEqual(&S->Got, &Want, 1, "counter after in-order tiny kernels");
    };
    P.FixedLaunches = C.Quick ? 2000 : 10000;
    Run->Parts.push_back(std::move(P));
    Run->prepare(C);
    return Run;
  }
};

/// Host and device buffers of figure 3 on one device.
struct BufferState {
  HostArray<uint32_t> Src, Dst;
  Mem A, B;
};

class BufferBandwidth : public Figure {
public:
  const char *name() const override { return "buffers"; }
  std::vector<Metric> metrics() const override {
    return {{"buffers.write", "GB/s", true},
            {"buffers.read", "GB/s", true},
            {"buffers.copy", "GB/s", true, "stream.copy"}};
  }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) override {
    const size_t Bytes = (C.Quick ? 16u : 64u) << 20;
    const size_t Count = Bytes / sizeof(uint32_t);
    auto S = std::make_shared<BufferState>();
    S->Src.resize(Count);
    S->Dst.resize(Count);
    S->A = D.buffer(Bytes);
    S->B = D.buffer(Bytes);
    auto Run = std::make_unique<KernelRun>(D);
    const Device *Dev = &D;
    auto CheckDst = [S](const char *What) {
      expectEqual(S->Dst.data(), S->Src.data(), S->Src.size(), What);
    };

    TimedPart Write;
    Write.Reset = [S](unsigned Rep) {
      for (size_t I = 0; I < S->Src.size(); ++I)
        S->Src[I] = static_cast<uint32_t>(I) * 2654435761u + Rep;
    };
    Write.Launch = [S, Dev] { Dev->write(S->A, S->Src.data(), S->Src.bytes()); };
    Write.Verify = [S, Dev, CheckDst](unsigned, unsigned) {
      Dev->read(S->A, S->Dst.data(), S->Dst.bytes());
      CheckDst("buffer contents after clEnqueueWriteBuffer");
    };

    TimedPart Read;
    Read.Reset = [S](unsigned) { std::memset(S->Dst.data(), 0, S->Dst.bytes()); };
    Read.Launch = [S, Dev] { Dev->read(S->A, S->Dst.data(), S->Dst.bytes()); };
    Read.Verify = [CheckDst](unsigned, unsigned) { CheckDst("clEnqueueReadBuffer output"); };

    // A copy reads and writes every byte: counted twice, as STREAM does.
    TimedPart Copy;
    Copy.Reset = [S, Dev](unsigned) {
      uint32_t Zero = 0;
      check(clEnqueueFillBuffer(Dev->Queue, S->B.get(), &Zero, sizeof(Zero), 0, S->Src.bytes(), 0,
                                nullptr, nullptr),
            "clEnqueueFillBuffer");
    };
    Copy.Launch = [S, Dev] {
      check(clEnqueueCopyBuffer(Dev->Queue, S->A.get(), S->B.get(), 0, 0, S->Src.bytes(), 0,
                                nullptr, nullptr),
            "clEnqueueCopyBuffer");
    };
    Copy.Verify = [S, Dev, CheckDst](unsigned, unsigned) {
      Dev->read(S->B, S->Dst.data(), S->Dst.bytes());
      CheckDst("clEnqueueCopyBuffer destination");
    };
    Copy.WorkPerLaunch = 2.0 * static_cast<double>(Bytes);

    for (TimedPart *P : {&Write, &Read, &Copy}) {
      if (P != &Copy)
        P->WorkPerLaunch = static_cast<double>(Bytes);
      P->Scale = 1e-9;
      P->MaxLaunches = 16;
      Run->Parts.push_back(std::move(*P));
    }
    Run->prepare(C);
    return Run;
  }
};

} // namespace

std::unique_ptr<Figure> makeLaunchLatency() { return std::make_unique<LaunchLatency>(); }
std::unique_ptr<Figure> makeLaunchThroughput() { return std::make_unique<LaunchThroughput>(); }
std::unique_ptr<Figure> makeBufferBandwidth() { return std::make_unique<BufferBandwidth>(); }

} // namespace weft::bench
