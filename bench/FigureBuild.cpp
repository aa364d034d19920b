// Figure 13: the compiler as an application sees it. "Cold" builds a
// ~300-line program whose text no cache has seen (a salt unique to this
// process, device and repetition); "cached" builds the identical text with
// the identical options in a fresh program object, which an implementation
// with a program cache answers without compiling. "Cold + first launch"
// adds clCreateKernel and the first launch: an implementation that defers
// code generation to the first launch (PoCL specialises per work-group
// size) pays there, so this is the fairer cold figure.
//
// Every program built is checked by running its `saltProbe` kernel, which
// proves that the program of this very salt was built and runs correctly.
#include "Figures.h"
#include "Kernels.h"

#include <unistd.h>

namespace weft::bench {

namespace {

constexpr size_t ProbeCount = 256;

class BuildRun : public FigureRun {
public:
  BuildRun(const Device &D, uint32_t DeviceSalt) : D(D), DeviceSalt(DeviceSalt) {
    for (size_t I = 0; I < ProbeCount; ++I)
      ProbeIn[I] = static_cast<uint32_t>(I * 7919u);
    In = D.buffer(sizeof(ProbeIn), CL_MEM_READ_ONLY);
    Out = D.buffer(sizeof(ProbeIn));
    D.write(In, ProbeIn, sizeof(ProbeIn));
  }

  std::vector<Sample> runOnce(unsigned Rep) override {
    const uint32_t Salt = kernels::hashUint(DeviceSalt + Rep * 0x9e3779b9u);
    const std::string Source = kernels::buildSource(Salt);

    double Start = now();
    Program Cold = D.build(Source);
    double Built = now();
    probe(Cold, Salt);
    double Launched = now();

    double CachedStart = now();
    Program Cached = D.build(Source);
    double CachedBuilt = now();
    probe(Cached, Salt);

    return {{(Built - Start) * 1e3, {}},
            {(CachedBuilt - CachedStart) * 1e3, {}},
            {(Launched - Start) * 1e3, {}}};
  }

private:
  /// Runs saltProbe of P and checks its output.
  void probe(const Program &P, uint32_t Salt) {
    Kernel K = D.kernel(P, "saltProbe");
    setArgs(K, Out, In);
    D.launch(K, {ProbeCount}, {64});
    uint32_t Got[ProbeCount], Want[ProbeCount];
    D.read(Out, Got, sizeof(Got));
    for (size_t I = 0; I < ProbeCount; ++I)
      Want[I] = kernels::hashUint(ProbeIn[I]) ^ Salt;
    expectEqual(Got, Want, ProbeCount, "saltProbe output of the built program");
    uint32_t Zero = 0;
    check(clEnqueueFillBuffer(D.Queue, Out.get(), &Zero, sizeof(Zero), 0, sizeof(Got), 0, nullptr,
                              nullptr),
          "clEnqueueFillBuffer");
  }

  const Device &D;
  const uint32_t DeviceSalt;
  uint32_t ProbeIn[ProbeCount];
  Mem In, Out;
};

class Build : public Figure {
public:
  const char *name() const override { return "build"; }
  std::vector<Metric> metrics() const override {
    return {{"build.cold", "ms", false},
            {"build.cached", "ms", false},
            {"build.cold+launch", "ms", false}};
  }
  std::unique_ptr<FigureRun> prepare(Device &D, const Config &) override {
    // Unique across processes (pid, clock) and across devices of this one.
    uint32_t Salt = kernels::hashUint(static_cast<uint32_t>(getpid()) ^
                                      static_cast<uint32_t>(now() * 1e6) ^ (++Devices << 24));
    auto Run = std::make_unique<BuildRun>(D, Salt);
    Run->runOnce(0); // warms up the compiler's own start-up, checks the probe
    return Run;
  }

private:
  uint32_t Devices = 0;
};

} // namespace

std::unique_ptr<Figure> makeBuild() { return std::make_unique<Build>(); }

} // namespace weft::bench
