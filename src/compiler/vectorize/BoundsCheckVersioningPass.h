// BoundsCheckVersioningPass: a work-item loop whose bounds check holds for
// the whole work-group runs without it.
//
// Most kernels begin with a bounds check (`if (i < n)`, or `if (i >= n)
// return;`), which after WorkGroupLoopPass is a branch around the kernel's
// loads and stores in the x loop. The loop vectorizer predicates what such
// a branch guards: it masks scalar accesses, and VectorTypeScalarizerPass
// cannot split a kernel on float2, float3, float4 or double2 whose accesses
// are under a condition (split, the vectorizer would predicate them lane
// by lane), so that kernel ran only as wide as its type, its builtins lane
// by lane. This pass, run just before VectorTypeScalarizerPass, versions
// such a loop: where the check holds for the loop's first and last
// work-items it holds for every one (the .cpp says why), and a copy of the
// loop without the check runs. The original loop, marked as the edge loop,
// runs for the work-groups at the edge of the range.
#pragma once

#include <llvm/IR/PassManager.h>

namespace llvm {
class Loop;
} // namespace llvm

namespace weft::compiler {

class BoundsCheckVersioningPass : public llvm::PassInfoMixin<BoundsCheckVersioningPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

  /// Whether L is the loop this pass kept, checks and all, for the
  /// work-groups where some check fails for some work-item.
  static bool isEdgeLoop(const llvm::Loop &L);

  /// The loop attribute (llvm.loop metadata) that marks an edge loop.
  static constexpr const char *EdgeLoopMD = "weft.bounds-check.edge";
};

} // namespace weft::compiler
