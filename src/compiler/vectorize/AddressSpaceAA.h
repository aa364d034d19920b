// AddressSpaceAA: alias analysis from OpenCL's address spaces, and the
// reason the loop vectorizer can vectorize a kernel that reads __constant
// or __local memory and writes __global memory.
//
// The x loop of a work-group function reads and writes through kernel
// arguments that may point into the same buffer, so the loop vectorizer
// needs run-time checks that the accesses do not overlap. LLVM's loop
// access analysis refuses a check between pointers of different address
// spaces ("cannot identify array bounds"); unless alias analysis already
// puts the two in different alias sets, the loop stays scalar. On x86 every
// address space is one memory, so no analysis of LLVM's says that. This one
// answers NoAlias for two accesses in different named address spaces
// (private, global, constant, local), as OpenCL makes true:
//  - __local memory is the work-group's own arena (Ctx->LocalMem), which no
//    __global or __constant pointer reaches;
//  - the OpenCL memory model (API specification, section 3.3) has
//    __constant memory unchanged while a kernel-instance runs: a store
//    through a __global pointer into it is undefined, so no store the
//    kernel makes can change what it reads as __constant.
//  - __private memory (address space 0) is the work-item's stack and its
//    frame in Ctx->PrivateMem, which no pointer of another space reaches.
//    The other memory the work-group function addresses in space 0 (the
//    context, the argument array, the printf sink) is the runtime's, never
//    a buffer or the __local arena.
// A generic (4) pointer may point into any named space: it may alias
// anything.
//
// Generic pointers that are casts of named ones (a helper taking `float *`
// in OpenCL C 2.0, the generic overloads of vload4 or fract) become named
// again in LLVM's InferAddressSpaces, which KernelPipeline runs with the
// generic space as the flat one before the vectorizer.
#pragma once

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class AddressSpaceAAResult : public llvm::AAResultBase<AddressSpaceAAResult> {
public:
  llvm::AliasResult alias(const llvm::MemoryLocation &A, const llvm::MemoryLocation &B,
                          llvm::AAQueryInfo &AAQI);

  /// Stateless: nothing a pass does invalidates it.
  bool invalidate(llvm::Function &, const llvm::PreservedAnalyses &,
                  llvm::FunctionAnalysisManager::Invalidator &) {
    return false;
  }
};

class AddressSpaceAA : public llvm::AnalysisInfoMixin<AddressSpaceAA> {
  friend llvm::AnalysisInfoMixin<AddressSpaceAA>;
  static llvm::AnalysisKey Key;

public:
  using Result = AddressSpaceAAResult;
  Result run(llvm::Function &, llvm::FunctionAnalysisManager &) { return Result(); }
};

} // namespace weft::compiler
