// HostTarget: the host CPU as a code generation target — initialization of
// LLVM's native target (once per process), the JITTargetMachineBuilder for
// sys::getHostCPUName() and the host features, and retargeting of a SPIR
// module to it.
#pragma once

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include <memory>
#include <optional>
#include <string>

namespace weft::compiler {

class HostTarget {
public:
  /// Initializes the native target and asm printer (once; thread-safe).
  static void initialize();
  /// A builder for the host: triple, CPU name and features, -O3 codegen.
  /// Returns nullopt (and a message in Why) if the host is not supported.
  static std::optional<llvm::orc::JITTargetMachineBuilder> builder(std::string &Why);
  /// Sets M's triple and data layout to TM's, the calling convention of every
  /// function and call to C, and the host CPU/features on every function.
  static void retarget(llvm::Module &M, llvm::TargetMachine &TM);
};

} // namespace weft::compiler
