// KernelPipeline: everything between the front end and the JIT — linking
// the builtins, retargeting to the host, the work-group passes (in the one
// order that works, with the reasons in KernelPipeline.cpp) and optimization.
#pragma once

#include "runtime/program/ProgramCompiler.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Target/TargetMachine.h>

#include <string>
#include <vector>

namespace weft::compiler {

class KernelPipeline {
public:
  KernelPipeline(llvm::TargetMachine &TM, bool OptDisable, bool KernelArgInfo)
      : TM(TM), OptDisable(OptDisable), KernelArgInfo(KernelArgInfo) {}

  /// Turns the front end's module M into one with a __weft_wg_<kernel>
  /// function per kernel, optimized, and describes the kernels. Returns
  /// false with a message in Log if the program cannot be compiled.
  bool run(llvm::Module &M, std::vector<rt::KernelDesc> &Kernels, std::string &Log);
  /// run() without the optimization: for a caller that optimizes M itself,
  /// a kernel at a time (ProgramParts).
  bool prepare(llvm::Module &M, std::vector<rt::KernelDesc> &Kernels, std::string &Log);
  /// LLVM's O3 pipeline for TM's host, with Weft's analyses and passes.
  static void optimize(llvm::Module &M, llvm::TargetMachine &TM);
  /// Runs MPM on M with LLVM's default analyses (no target).
  static void runModulePasses(llvm::Module &M, llvm::ModulePassManager &MPM);
  /// Verifies an optimized module; false with the problem in Log.
  static bool verifyOptimized(llvm::Module &M, std::string &Log);

  /// Bytes of M's program-scope variables in the global address space.
  static size_t globalVariableSize(const llvm::Module &M);

  /// Links the builtin library into M (only what M uses).
  static bool linkBuiltins(llvm::Module &M, std::string &Log);
  /// Which part of the builtin library (an index into builtins::parts())
  /// defines each of its external symbols, as linkBuiltins looks them up.
  static const llvm::StringMap<unsigned> &builtinDefinitions();
  /// The work-group passes alone, on a module already retargeted and
  /// linked (used by run(); public for IR-level tests).
  static bool runWorkGroupPasses(llvm::Module &M, std::string &Log);

private:
  llvm::TargetMachine &TM;
  bool OptDisable;
  bool KernelArgInfo;
};

} // namespace weft::compiler
