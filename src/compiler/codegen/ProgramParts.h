// ProgramParts: a prepared module (KernelPipeline::prepare) cut into parts
// that are optimized and compiled one at a time, each when it is needed.
//
// O3 and code generation are nearly all of a build's time (weft_bench's
// build program: the front end 16 ms, the kernel pipeline 23-34 ms, O3 and
// code generation of its 12 kernels 265-390 ms on two threads), and a
// program's kernels are independent once their work-group functions
// exist. So a build stops after the kernel pipeline: the module is made
// splittable and kept as bitcode, and a kernel's part is compiled at its
// first launch (JitExecutable::lookup). A part holds:
//  - one kernel's work-group function, the only function it exports;
//  - its own internal copy of every function that kernel calls, so that
//    inlining sees what it would see in the whole module;
//  - its own internal copy of every constant;
//  - the program-scope variables, declared. One more part, the variables
//    part, defines them, so that every kernel shares one instance through
//    the JIT's symbol table; it is data alone and is compiled at the build.
//
//   prepared module:  @counter = global i32 5      (mutable, shared)
//                     @table = constant [4 x i32]  (read-only)
//                     define i32 @scale(i32)       (a helper)
//                     define void @__weft_wg_bump(ptr)
//                     define void @__weft_wg_read(ptr)
//   part "bump":      @counter = external global i32
//                     @table = internal constant [4 x i32]
//                     define internal i32 @scale(i32)
//                     define void @__weft_wg_bump(ptr)
//   variables part:   @counter = global i32 5
//
// Limits: the helpers a program's kernels share are optimized once per
// kernel, and a program whose kernels are all launched pays their
// compilation one after another, on the launching thread, where a build
// of the whole module on several threads would share it out; except when
// the application creates them with clCreateKernelsInProgram, which
// compiles them all at once (JitExecutable::compileAhead). A __constant
// variable is copied into every part that uses it: a program-scope pointer
// initialized with its address (OpenCL C 2.0) points to the variables
// part's copy, equal to a kernel's own in contents but not in address.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Module.h>

namespace weft::compiler {

class ProgramParts {
public:
  /// Makes M's symbols fit to be split: only work-group functions and
  /// program-scope variables stay visible outside a part. Mutable variables
  /// become external (a `static` one under a name of its own,
  /// `__weft_static.<name>`), so that the parts share one instance; every
  /// other function, every constant and every alias becomes internal, a
  /// copy per part.
  static void makeSplittable(llvm::Module &M);
  /// Keeps in M (made splittable, parsed afresh) the part of the kernel
  /// whose work-group function is WorkGroupName: the other work-group
  /// functions lose their bodies, the variables become declarations, and
  /// what nothing left uses goes. False if M has no such function.
  static bool keepKernel(llvm::Module &M, llvm::StringRef WorkGroupName);
  /// Keeps in M (made splittable) the variables part: every work-group
  /// function loses its body. False if the program has no mutable
  /// variable, so that the part need not be compiled at all.
  static bool keepVariables(llvm::Module &M);
};

} // namespace weft::compiler
