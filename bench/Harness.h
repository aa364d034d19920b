// The benchmark harness: what every figure of weft_bench is built from. A
// `Device` is one OpenCL device of one platform with its own context and
// in-order queue; a `Figure` is one benchmark (say, SGEMM) that reports one or
// more `Metric`s; `Figure::prepare` builds and checks its kernels on a device
// and returns a `FigureRun` whose `runOnce` is one timed, verified repetition.
// The driver (WeftBench.cpp) interleaves those repetitions across devices.
//
// Errors are exceptions here because a benchmark step either produces a
// verified number or is FAILED for that device; there is nothing to recover.
#ifndef WEFT_BENCH_HARNESS_H
#define WEFT_BENCH_HARNESS_H

#include <CL/cl.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace weft::bench {

/// A benchmark step that cannot produce a trustworthy number: an OpenCL error,
/// a build failure or (most important) a kernel whose output is wrong.
class Failure : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Throws a Failure naming the call if Err is not CL_SUCCESS.
void check(cl_int Err, const char *What);

/// Owns one OpenCL object and releases it once; movable, not copyable.
template <typename T, cl_int (*Release)(T)> class Handle {
public:
  Handle() = default;
  explicit Handle(T Object) : Object(Object) {}
  Handle(Handle &&Other) noexcept : Object(Other.Object) { Other.Object = nullptr; }
  Handle &operator=(Handle &&Other) noexcept {
    if (this != &Other) {
      reset();
      Object = Other.Object;
      Other.Object = nullptr;
    }
    return *this;
  }
  Handle(const Handle &) = delete;
  Handle &operator=(const Handle &) = delete;
  ~Handle() { reset(); }

  T get() const { return Object; }
  /// The address of the handle, for clSetKernelArg of a cl_mem.
  const T *ptr() const { return &Object; }
  void reset() {
    if (Object)
      Release(Object);
    Object = nullptr;
  }

private:
  T Object = nullptr;
};

using Mem = Handle<cl_mem, clReleaseMemObject>;
using Program = Handle<cl_program, clReleaseProgram>;
using Kernel = Handle<cl_kernel, clReleaseKernel>;

/// One device of one platform, with the context and queue every figure uses.
struct Device {
  cl_platform_id PlatformId = nullptr;
  cl_device_id Id = nullptr;
  std::string PlatformName; ///< CL_PLATFORM_NAME
  std::string DeviceName;   ///< CL_DEVICE_NAME
  std::string Label;        ///< short column name: "Weft", "PoCL", "PoCL#1"
  bool IsWeft = false;
  cl_context Context = nullptr;
  cl_command_queue Queue = nullptr; ///< in-order, no profiling

  Device() = default;
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;
  ~Device();

  /// Creates a buffer of Bytes bytes; throws on failure.
  Mem buffer(size_t Bytes, cl_mem_flags Flags = CL_MEM_READ_WRITE) const;
  /// Builds Source with Options; a failure carries the build log.
  Program build(const std::string &Source, const std::string &Options = "") const;
  Kernel kernel(const Program &P, const char *Name) const;
  void write(const Mem &M, const void *Data, size_t Bytes) const;
  void read(const Mem &M, void *Data, size_t Bytes) const;
  /// Creates a Width x Height 2D image of the given format; throws on failure.
  Mem image2d(cl_channel_order Order, cl_channel_type Type, size_t Width, size_t Height,
              cl_mem_flags Flags = CL_MEM_READ_WRITE) const;
  /// Writes or reads a whole Width x Height 2D image, its rows packed
  /// tightly in Data.
  void writeImage(const Mem &M, const void *Data, size_t Width, size_t Height) const;
  void readImage(const Mem &M, void *Data, size_t Width, size_t Height) const;
  void finish() const;
  /// Enqueues Kernel over a 1-, 2- or 3-D range; Global must be a multiple
  /// of Local in every dimension (Weft has no non-uniform work-groups).
  void launch(const Kernel &K, std::vector<size_t> Global, std::vector<size_t> Local) const;
};

/// Every device of every platform the ICD loader exposes whose platform
/// name matches one of Filters (case-insensitive substring; empty = all).
std::vector<std::unique_ptr<Device>> discoverDevices(const std::vector<std::string> &Filters);

/// Sets the kernel's arguments in order: cl_mem handles, scalars, vectors.
template <typename... Args> void setArgs(const Kernel &K, const Args &...A) {
  cl_uint Index = 0;
  auto SetOne = [&](const auto &Arg) {
    using ArgT = std::decay_t<decltype(Arg)>;
    cl_int Err;
    if constexpr (std::is_same_v<ArgT, Mem>)
      Err = clSetKernelArg(K.get(), Index, sizeof(cl_mem), Arg.ptr());
    else
      Err = clSetKernelArg(K.get(), Index, sizeof(ArgT), &Arg);
    check(Err, "clSetKernelArg");
    ++Index;
  };
  (SetOne(A), ...);
}

/// Gives argument Index of K a __local buffer of Bytes bytes.
void setLocalArg(const Kernel &K, cl_uint Index, size_t Bytes);

/// Seconds since an arbitrary start, from a steady clock.
inline double now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

/// Page-aligned host memory, touched once so that page faults stay out of
/// the timed regions.
template <typename T> class HostArray {
public:
  explicit HostArray(size_t Count = 0) { resize(Count); }
  void resize(size_t Count);
  T *data() { return Data.get(); }
  const T *data() const { return Data.get(); }
  size_t size() const { return Count; }
  size_t bytes() const { return Count * sizeof(T); }
  T &operator[](size_t I) { return Data.get()[I]; }
  const T &operator[](size_t I) const { return Data.get()[I]; }

private:
  struct Free {
    void operator()(T *P) const { std::free(P); }
  };
  std::unique_ptr<T, Free> Data;
  size_t Count = 0;
};

template <typename T> void HostArray<T>::resize(size_t NewCount) {
  size_t Bytes = (NewCount * sizeof(T) + 4095) / 4096 * 4096;
  Data.reset(static_cast<T *>(std::aligned_alloc(4096, Bytes ? Bytes : 4096)));
  if (!Data)
    throw std::bad_alloc();
  std::memset(static_cast<void *>(Data.get()), 0, Bytes);
  Count = NewCount;
}

/// Throws a Failure describing the first mismatch of Got against Want.
void expectEqual(const uint32_t *Got, const uint32_t *Want, size_t Count, const char *What);
/// The same for floats, within a relative tolerance (scaled by max(1, |Want|)).
void expectNear(const float *Got, const float *Want, size_t Count, float RelTol, const char *What);
/// The same against a double-precision reference, within RelTol * |Want| +
/// AbsTol: truly relative, for results whose error bounds are in ulps.
void expectRelative(const float *Got, const double *Want, size_t Count, double RelTol,
                    double AbsTol, const char *What);
void expectRelative(const double *Got, const double *Want, size_t Count, double RelTol,
                    double AbsTol, const char *What);

/// One number a figure reports, e.g. "sgemm.tiled" in GFLOP/s.
struct Metric {
  std::string Name;
  std::string Unit;
  bool HigherIsBetter;
  /// The native limit it is read against (NativeLimits.h: "fma.float",
  /// "stream.copy", ...), in the same unit; empty for none.
  std::string Limit = {};
};

/// How big and how long: the command-line options every figure sees.
struct Config {
  bool Quick = false;
  unsigned Reps = 5;
  /// A repetition of a kernel figure is repeated launches lasting about this
  /// long on the device being measured (calibrated by `prepare`).
  double TargetSeconds = 0.25;
};

/// One metric's outcome in one repetition: a value, or why there is none.
struct Sample {
  double Value = 0;
  std::string Failed; ///< empty if Value counts
  /// The device lacks what the metric needs (say doubles): neither a value
  /// nor a failure, shown as "-" and written as "skipped".
  bool Skipped = false;
};

/// A figure prepared on one device: buffers allocated, kernels built, one
/// warm-up run verified. Each runOnce returns one Sample per Metric; a
/// Failure thrown out of it fails every metric of the figure.
class FigureRun {
public:
  virtual ~FigureRun() = default;
  /// Rep numbers the repetition so that a run can vary its input and catch
  /// a stale output left by the previous one.
  virtual std::vector<Sample> runOnce(unsigned Rep) = 0;
};

class Figure {
public:
  virtual ~Figure() = default;
  /// The name used by --only and as the prefix of its metric names.
  virtual const char *name() const = 0;
  virtual std::vector<Metric> metrics() const = 0;
  virtual std::unique_ptr<FigureRun> prepare(Device &D, const Config &C) = 0;
};

/// How many launches of a kernel taking SecondsPerLaunch fill Target seconds
/// (at least 1, at most Max): slow devices get fewer launches, not hours.
unsigned calibrate(double SecondsPerLaunch, double Target, unsigned Max = 10000);

/// Wall-clock seconds of Count calls of Enqueue followed by one clFinish.
/// Host time, not profiling events: it is what an application waits for, and
/// it is measured the same way on every platform.
template <typename F> double timeBatch(const Device &D, unsigned Count, F &&Enqueue) {
  D.finish();
  double Start = now();
  for (unsigned I = 0; I < Count; ++I)
    Enqueue();
  D.finish();
  return now() - Start;
}

/// One metric of a kernel figure: an untimed reset, a timed batch of
/// launches, an untimed check of the output. Rep is 0 during `prepare` and
/// 1, 2, ... afterwards, so that a reset can make every batch's expected
/// output differ from the previous one's.
struct TimedPart {
  std::function<void(unsigned Rep)> Reset;                     ///< optional
  std::function<void()> Launch;                                ///< enqueue one
  std::function<void(unsigned Rep, unsigned Launches)> Verify; ///< throws Failure
  /// The metric's amount of work per launch (bytes, flops, ...): the value is
  /// WorkPerLaunch * Launches / seconds, scaled by Scale (e.g. 1e-9 for GB/s).
  double WorkPerLaunch = 1;
  double Scale = 1;
  /// Report seconds per launch times Scale instead (for latencies).
  bool TimePerLaunch = false;
  /// A fixed batch size; 0 calibrates it to Config::TargetSeconds.
  unsigned FixedLaunches = 0;
  unsigned MaxLaunches = 10000;
  unsigned Launches = 1; ///< set by `KernelRun::prepare`
  /// The device lacks what the part needs (say doubles): it is never run,
  /// and its metric is skipped rather than FAILED.
  bool Unsupported = false;
};

/// Makes a part with Make. If setting it up throws (say its kernels do not
/// build), the part fails with that reason when KernelRun first runs it,
/// and the figure's other metrics still report.
template <typename F> TimedPart partOrFailure(F &&Make) {
  try {
    return Make();
  } catch (const Failure &E) {
    TimedPart P;
    P.Launch = [Why = std::string(E.what())] { throw Failure(Why); };
    P.Verify = [](unsigned, unsigned) {};
    return P;
  }
}

/// A FigureRun made of TimedParts, one per metric, run in order. A part that
/// fails (say float4 gives wrong results) is FAILED from then on; the other
/// parts still report.
class KernelRun : public FigureRun {
public:
  explicit KernelRun(const Device &D) : D(D) {}
  /// The closures own what they share (buffers, kernels) via shared_ptr.
  std::vector<TimedPart> Parts;

  /// Runs every part once (checked), then once more to time it and size
  /// its batch.
  void prepare(const Config &C);
  std::vector<Sample> runOnce(unsigned Rep) override;

private:
  double timePart(TimedPart &P, unsigned Rep, unsigned Launches);
  const Device &D;
  std::vector<std::string> PartFailed; ///< per part; empty if it still runs
};

/// Median and spread of a set of repetitions.
struct Summary {
  double Median = 0, Min = 0, Max = 0, Q1 = 0, Q3 = 0;
  size_t Count = 0;
};
Summary summarize(std::vector<double> Values);

} // namespace weft::bench

#endif // WEFT_BENCH_HARNESS_H
