// What the runtime needs from a device implementation: its properties and
// a place to run work.
//
// The runtime (queues, events, commands) is device-agnostic; the CPU device
// in src/device/cpu implements this interface on oneTBB. The runtime never
// includes TBB: it sees only these types.
#pragma once

#include "runtime/ObjectMemory.h"
#include "runtime/Result.h"
#include "runtime/program/KernelAbi.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace weft::rt {

struct CacheLevel {
  unsigned Level = 0;
  uint64_t Size = 0;
  unsigned LineSize = 0;
};

/// Facts about the hardware, read at run time.
struct DeviceProperties {
  std::string Name;
  std::string Vendor;
  cl_uint VendorId = 0;
  cl_uint ComputeUnits = 1;
  cl_uint MaxClockMHz = 0;
  uint64_t GlobalMemSize = 0;
  uint64_t MaxMemAllocSize = 0;
  uint64_t LocalMemSize = 0;
  size_t MaxWorkGroupSize = 0;
  CacheLevel LastLevelCache;
  CacheLevel L1Data;
  /// Preferred/native vector widths: char, short, int, long, float, double, half.
  std::array<cl_uint, 7> VectorWidths{};
  /// The widest SIMD register in bytes (16 SSE, 32 AVX2, 64 AVX-512).
  unsigned SimdBytes = 16;
  std::string IsaName; ///< e.g. "avx512", "avx2", "sse4.2"
  /// Whether kernels' 8-bit dot products (cl_khr_integer_dot_product)
  /// become the CPU's dot-product instructions (rt::CodeTarget).
  bool Int8DotProductInstructions = false;
};

class EnqueueScope;

/// Lays out one `__local` argument of Size bytes in a work-group's arena
/// that has Total bytes in use: returns its offset (LocalMemAlignment
/// aligned) and adds it to Total.
inline size_t placeLocalArg(size_t &Total, size_t Size) {
  size_t Offset = (Total + LocalMemAlignment - 1) / LocalMemAlignment * LocalMemAlignment;
  Total = Offset + Size;
  return Offset;
}

/// One NDRange ready to run: everything the device needs, owned by value.
struct KernelLaunch {
  WorkGroupFn Fn = nullptr;
  /// The kernel's name, for reports (WEFT_DEBUG).
  std::string Name;
  unsigned WorkDim = 1;
  std::array<uint64_t, 3> GlobalSize{1, 1, 1};
  std::array<uint64_t, 3> GlobalOffset{0, 0, 0};
  std::array<uint64_t, 3> LocalSize{1, 1, 1}; ///< the enqueued local size
  /// Argument i lives at ArgStorage + ArgOffsets[i] (see WorkGroupFn).
  std::vector<unsigned char, ObjectAllocator<unsigned char>> ArgStorage;
  std::vector<size_t, ObjectAllocator<size_t>> ArgOffsets;
  /// For each __local argument: its index and its offset in the worker's
  /// __local arena (static __local variables come first). The device stores
  /// the address LocalMem + offset for it.
  std::vector<std::pair<size_t, size_t>> LocalArgs;
  /// Bytes of the __local arena one work-group uses.
  size_t LocalMemSize = 0;
  size_t PrivateFrameSize = 0;
  /// The kernel calls printf: its output must be written out before Done.
  bool UsesPrintf = false;
  /// The kernel uses device-side enqueue: the device sets every work-group
  /// context's Enqueue to this (runtime/commands/DeviceEnqueue.h); null otherwise.
  std::shared_ptr<EnqueueScope> Enqueue;
  /// Memory arguments point into that the launch owns (the copy of a
  /// block's literal for a child kernel).
  std::shared_ptr<void> Captured;
  /// For a kernel that cannot wait for other work (KernelDesc::MayWait
  /// false): the kernel's record of how long its last two one-work-group
  /// launches ran, in nanoseconds, the last in the low half (RunRecord;
  /// UINT32_MAX for a launch not yet run). The device writes it and may
  /// run a launch whose kernel ran briefly on the host thread that makes
  /// it Ready (CpuDevice::submit). It lives in the kernel, which the
  /// launch's command holds. Null for other launches.
  std::atomic<uint64_t> *RunNanos = nullptr;
  /// Only global ids tell the kernel's work-items apart
  /// (KernelDesc::GroupFree): the device may run several consecutive
  /// groups along x as one group of their combined size.
  bool GroupFree = false;
};

/// What a launch reports to (the command that runs it).
class LaunchObserver {
public:
  virtual ~LaunchObserver() = default;
  /// Before the first work-group starts.
  virtual void launchStarted() = 0;
  /// Once, after every work-group has finished.
  virtual void launchEnded(Status S) = 0;
};

class DeviceBackend {
public:
  virtual ~DeviceBackend() = default;
  virtual const DeviceProperties &properties() const = 0;

  /// Runs the kernel's work-groups on the work pool, reporting to Observer.
  virtual void launch(std::shared_ptr<const KernelLaunch> Launch,
                      std::shared_ptr<LaunchObserver> Observer) = 0;

  /// Runs a small task (a copy, a fill, a callback) on the pool.
  virtual void run(std::function<void()> Task) = 0;

  /// Runs Part(0) .. Part(Parts - 1) on the pool, side by side where it has
  /// the cores, between Observer's launchStarted() and launchEnded(): a
  /// copy or a fill of many megabytes, which one core cannot carry at the
  /// memory's speed. A part must not wait for another.
  virtual void runParts(size_t Parts, std::function<void(size_t)> Part,
                        std::shared_ptr<LaunchObserver> Observer) = 0;

  /// Called by a host thread about to block until Done() holds: runs
  /// ready work on the calling thread, one task after another, while some
  /// is waiting and Done() is false. The host is idle during that time;
  /// running the work itself saves the hand-off to a worker and the
  /// wake-up of the host afterwards. A backend may run nothing.
  virtual void runReadyWorkUntil(const std::function<bool()> &Done) { (void)Done; }

  /// Called by a host thread as it enqueues a command: it is streaming
  /// work, and will likely wait for it soon. A backend may leave small
  /// work to such a thread rather than run it beside it (CpuDevice).
  virtual void hostEnqueued() {}
};

/// The backend for the host CPU (implemented in src/device/cpu).
std::unique_ptr<DeviceBackend> createHostCpuBackend();

} // namespace weft::rt
