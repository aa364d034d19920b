// ActiveRangePass: a work-item loop whose work is all behind a check of the
// local id against a bound (`if (lid < k)`) runs only the work-items that
// pass it.
//
// The steps of a tree reduction, a scan or a transpose's edge do their work
// in part of the group only: `if (lid < k) s[lid] += s[lid + k];` with k
// halved each step. In the x loop of that region every work-item runs the
// check and the rest do nothing; the loop vectorizer masks the region, and
// its run-time overlap check between s[x] and s[x + k] over the whole group
// always fails, so the region ran one work-item at a time. Where nothing
// outside the guarded region has an effect or leaves the loop, the
// work-items past the first that fails can be skipped: the loop enters only
// if the first work-item passes, and leaves after the last that does. The
// guarded region then runs unconditionally, over [0, k), where the
// overlap check passes. The .cpp has the conditions and a sketch.
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class ActiveRangePass : public llvm::PassInfoMixin<ActiveRangePass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

} // namespace weft::compiler
