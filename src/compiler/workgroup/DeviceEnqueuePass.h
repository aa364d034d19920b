// DeviceEnqueuePass: device-side enqueue in the kernel's code. Before the
// work-group passes, nameBlockKernels() makes every kernel Clang (or the
// SPIR-V translator) generated for a block passed to enqueue_kernel an
// ordinary kernel the runtime can find by name; after them, the pass
// itself turns enqueue_kernel, enqueue_marker, the device-event built-ins,
// get_default_queue and the block queries into calls of the runtime's
// services (runtime/program/KernelAbi.h) through the WorkGroupContext.
#pragma once

#include <llvm/IR/PassManager.h>

#include <string>

namespace weft::compiler {

class DeviceEnqueuePass : public llvm::PassInfoMixin<DeviceEnqueuePass> {
public:
  /// Attribute of a block's kernel (KernelDesc::Block).
  static constexpr const char *BlockKernelAttr = "weft-block-kernel";
  /// Attribute of a work-item function that calls a device-enqueue service
  /// (KernelDesc::UsesDeviceEnqueue).
  static constexpr const char *UsesAttr = "weft-device-enqueue";

  /// Replaces the kernel operand of every `__enqueue_kernel_*` and
  /// `__get_kernel_*_impl` call with the address of a string holding the
  /// block kernel's name, gives each block kernel the kernel metadata of
  /// its parameters, and nulls the invoke functions' addresses in block
  /// literals (never read: blocks are called directly). False, with the
  /// reason in Log, for an operand that is not a kernel of the module.
  static bool nameBlockKernels(llvm::Module &M, std::string &Log);

  /// Whether the pass lowers calls of the function of this (mangled) name.
  static bool lowers(llvm::StringRef Name);

  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

} // namespace weft::compiler
