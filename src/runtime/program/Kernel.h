// Kernel objects: one kernel of a built program plus the argument values
// the application has set (typed values, KernelArg.h). Arguments are
// captured by value at enqueue time (snapshot()), so clSetKernelArg after an
// enqueue does not affect it.
#pragma once

#include "runtime/Object.h"
#include "runtime/execution/NDRange.h"
#include "runtime/platform/DeviceBackend.h"
#include "runtime/program/KernelArg.h"
#include "runtime/program/Program.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace weft::rt {

class BlockKernels;

/// CL_KERNEL_WORK_GROUP_SIZE of a kernel described by D on a device with
/// properties P: the device's limit, or the reqd_work_group_size product.
size_t kernelMaxWorkGroupSize(const KernelDesc &D, const DeviceProperties &P);

class Kernel : public Object<_cl_kernel, HandleKind::Kernel> {
public:
  Kernel(Program &P, KernelDesc Desc, std::shared_ptr<Executable> Exe);
  ~Kernel() override;
  /// clCloneKernel: the same kernel with a copy of the argument values.
  Ref<Kernel> clone() const;

  Program &program() const { return *Prog; }
  const KernelDesc &desc() const { return Desc; }
  const std::string &name() const { return Desc.Name; }
  cl_uint numArgs() const { return cl_uint(Desc.Args.size()); }

  /// clSetKernelArg and clSetKernelArgSVMPointer, once the API layer has
  /// decoded and checked the value: CL_INVALID_ARG_INDEX for an index out
  /// of range, CL_INVALID_ARG_VALUE for a value of the wrong kind.
  Status setArg(cl_uint Index, KernelArgValue Value);
  /// The declaration of argument Index (which must be valid).
  const KernelArgDesc &arg(cl_uint Index) const { return Desc.Args[Index]; }
  /// Bytes of __local memory the kernel uses with its current arguments.
  size_t localMemSize() const;
  /// CL_KERNEL_WORK_GROUP_SIZE on a device with properties P.
  size_t maxWorkGroupSize(const DeviceProperties &P) const {
    return kernelMaxWorkGroupSize(Desc, P);
  }

  /// CL_INVALID_KERNEL_ARGS if an argument is not set or names a memory
  /// object the application has released (what snapshot would find first).
  Status argumentsReady() const;

  /// The launch of the current arguments (its NDRange still to be set),
  /// plus the memory objects it must keep alive.
  struct Snapshot {
    std::shared_ptr<KernelLaunch> Launch;
    std::vector<Ref<MemObject>, ObjectAllocator<Ref<MemObject>>> MemObjects;
    /// The program's block kernels, for a kernel that uses device-side
    /// enqueue (null otherwise).
    std::shared_ptr<const BlockKernels> Blocks;
  };
  /// The arguments for a launch of Range on a device with properties P,
  /// with the work-group function compiled for it where the executable has
  /// one (Executable::specialize). CL_INVALID_KERNEL_ARGS if an argument is
  /// not set, or names a memory object the application has released;
  /// CL_INVALID_PROGRAM_EXECUTABLE if the kernel's code, generated at its
  /// first launch, cannot be.
  Result<Snapshot> snapshot(const NDRange &Range, const DeviceProperties &P) const;

protected:
  void lastAppReleased() override;

private:
  /// The __local arena layout: static variables, then each __local argument
  /// at the next LocalMemAlignment boundary. Returns the total size and, if
  /// Offsets is given, appends (argument index, offset) pairs. Mutex held.
  size_t layoutLocalArgs(std::vector<std::pair<size_t, size_t>> *Offsets) const;

  Ref<Program> Prog;
  KernelDesc Desc;
  std::shared_ptr<Executable> Exe;
  /// The work-group function, once the first launch has had it compiled.
  mutable std::atomic<WorkGroupFn> Fn{nullptr};
  /// How long the last two one-work-group launches ran
  /// (KernelLaunch::RunNanos).
  mutable std::atomic<uint64_t> RunNanos{UINT64_MAX};
  std::shared_ptr<const BlockKernels> Blocks;
  mutable std::mutex Mutex;
  std::vector<KernelArgValue> Args;
  /// The KernelDesc::ConditionArgs values of the last launch, and those
  /// asked for in a specialization (Specialization::Arguments). Mutex held.
  mutable std::vector<std::pair<uint32_t, uint64_t>> LastArguments;
  mutable std::vector<std::vector<std::pair<uint32_t, uint64_t>>> ArgumentSets;
};

} // namespace weft::rt
