// ParallelBackend: optimization and code generation of a prepared module
// (KernelPipeline::prepare), in parts that run at once.
//
// O3 and code generation are nearly all of a build's time (in weft_bench's
// build.cold, 120 and 110 of 240 ms), and kernels are independent once their
// work-group functions exist. So a module with several kernels is split by
// kernel into as many parts as the oneTBB arena has threads, balanced by
// size. A part holds:
//  - its kernels' work-group functions, the only symbols it exports;
//  - its own internal copy of every function they call, so that inlining
//    sees what it would see in the whole module;
//  - its own internal copy of every constant;
//  - the program-scope variables: defined in part 0 and declared in the
//    others, one instance shared through the JIT's symbol table.
// The module is written as bitcode once; each part parses it into a
// context of its own on a oneTBB worker, drops what is not its own,
// and is optimized and compiled to an object. The JIT links the objects
// together (JitExecutable::create).
#pragma once

#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/IR/Module.h>

#include <string>
#include <vector>

namespace weft::compiler {

class ParallelBackend {
public:
  /// The objects of M (on M's context, which it changes): O3 unless
  /// OptDisable, then code generation for JTMB's target, in parts that run
  /// concurrently. Without Concurrent, or for a module with one kernel, or
  /// in an arena of one thread, M is one part, compiled in place. Empty,
  /// with a message in Log, on failure.
  static std::vector<std::vector<unsigned char>> run(llvm::Module &M,
                                                     const llvm::orc::JITTargetMachineBuilder &JTMB,
                                                     bool OptDisable, bool Concurrent,
                                                     std::string &Log);

  /// The work-group function names of each part for a module of M's
  /// kernels in at most MaxParts parts: the heaviest kernel (instructions,
  /// with those of every function it calls) goes to the lightest part.
  static std::vector<std::vector<std::string>> partition(const llvm::Module &M, unsigned MaxParts);
};

} // namespace weft::compiler
