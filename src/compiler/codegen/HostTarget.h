// HostTarget: the CPU kernels are compiled for — initialization of LLVM's
// native target (once per process), the JITTargetMachineBuilder for it, and
// retargeting of a SPIR module to it.
//
// The target is the host CPU (sys::getHostCPUName() and the host's features)
// unless WEFT_CPU names another x86-64 CPU: one of the x86-64
// micro-architecture levels (x86-64-v2: SSE4.2; x86-64-v3: AVX2, FMA;
// x86-64-v4: AVX-512) or any CPU name LLVM 15 knows (haswell, znver3, ...).
// A CPU the host cannot run is refused: builds fail with the features the
// host lacks in their log. So one machine can run its kernels as a lesser
// machine would compile them, and the compiler tests that only inspect IR
// can compile for every level whatever the host (builderFor).
#pragma once

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include <array>
#include <memory>
#include <optional>
#include <string>

namespace weft::compiler {

class HostTarget {
public:
  /// The environment variable that names the CPU to compile for.
  static constexpr const char *CpuVariable = "WEFT_CPU";
  /// The x86-64 micro-architecture levels (the x86-64 psABI's), lowest
  /// first: what WEFT_CPU accepts beside LLVM's CPU names, and the ISA
  /// matrix of the compiler tests.
  static constexpr std::array<const char *, 3> Levels = {"x86-64-v2", "x86-64-v3", "x86-64-v4"};

  /// Initializes the native target and asm printer (once; thread-safe).
  static void initialize();
  /// A builder for the CPU kernels run on: the host's, or WEFT_CPU's if it
  /// is set and the host can run it. Returns nullopt (and a message in Why)
  /// if the host is not supported or WEFT_CPU is refused.
  static std::optional<llvm::orc::JITTargetMachineBuilder> builder(std::string &Why);
  /// A builder for Cpu ("" for the host) whether or not the host can run
  /// its code: for compiling to inspect, never to run. Returns nullopt (and
  /// a message in Why) if Cpu is not an x86-64 CPU LLVM knows.
  static std::optional<llvm::orc::JITTargetMachineBuilder> builderFor(const std::string &Cpu,
                                                                      std::string &Why);
  /// WEFT_CPU's value, "" if it is unset or empty.
  static std::string requestedCpu();
  /// "" if the host can run code compiled for Cpu, else why not (the
  /// features it lacks, or that Cpu is no x86-64 CPU LLVM knows).
  static std::string whyHostCannotRun(const std::string &Cpu);
  /// The highest of Levels the host can run, "" if none.
  static std::string hostLevel();
  /// Sets M's triple and data layout to TM's, the calling convention of every
  /// function and call to C, and the target's CPU/features on every function.
  static void retarget(llvm::Module &M, llvm::TargetMachine &TM);
};

} // namespace weft::compiler
