// The CPU device: a oneTBB task arena that is the device's one work pool.
//
// Every queue of every context on the device hands its Ready commands here.
// A kernel command becomes one task that splits its work-groups with
// tbb::parallel_for, so work-groups of several commands interleave on the
// workers; small commands (copies, fills) are single tasks. Host threads
// never run inside the arena and TBB workers never wait on events: they only
// run work that is already Ready.
#pragma once

#include "runtime/DeviceBackend.h"

#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <memory>

namespace weft::cpu {

class CpuDevice final : public rt::DeviceBackend {
public:
  CpuDevice();
  ~CpuDevice() override;

  const rt::DeviceProperties &properties() const override { return Props; }
  void launch(std::shared_ptr<const rt::KernelLaunch> Launch, std::function<void()> OnStart,
              std::function<void(rt::Status)> Done) override;
  void run(std::function<void()> Task) override;

private:
  rt::DeviceProperties Props;
  // TBB creates (hardware threads - 1) workers unless told otherwise; the
  // arena wants one worker per compute unit.
  std::unique_ptr<tbb::global_control> Parallelism;
  tbb::task_arena Arena;
};

} // namespace weft::cpu
