// StateThreadingPass (see the header).
#include "compiler/workgroup/StateThreadingPass.h"

#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/DFAJumpThreading.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

using namespace llvm;

namespace weft::compiler {

namespace {

/// LLVM's full unroller, at O3's limits, on the loops around the group's
/// nests (the state loop's loops of barriers) and on x loops (a tree
/// step's, once its k is a constant), where O3's full unroller would have
/// taken them had their trip counts been known then. Never on a loop of
/// rows (RowInterleavePass's) or a loop inside a work-item (O3's already);
/// an x loop held for the vectorizer (WorkGroupLoopPass::holdWorkItemLoops)
/// stays held.
class GroupLoopFullUnrollPass : public PassInfoMixin<GroupLoopFullUnrollPass> {
public:
  PreservedAnalyses run(Loop &L, LoopAnalysisManager &AM, LoopStandardAnalysisResults &AR,
                        LPMUpdater &U) {
    auto IsX = [](const Loop *In) {
      return findOptionMDForLoop(In, wi::WorkItemLoopMD) != nullptr;
    };
    if (findOptionMDForLoop(&L, wi::WorkItemRowsMD) || none_of(L.getLoopsInPreorder(), IsX))
      return PreservedAnalyses::all();
    for (const Loop *Out = L.getParentLoop(); Out; Out = Out->getParentLoop())
      if (IsX(Out))
        return PreservedAnalyses::all();
    return LoopFullUnrollPass(/*OptLevel=*/3).run(L, AM, AR, U);
  }
};

} // namespace

PreservedAnalyses StateThreadingPass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (!F.getName().startswith(wi::WorkGroupPrefix) || wi::sizeAttr(F, wi::BarrierCountAttr) == 0)
    return PreservedAnalyses::all();
  FunctionPassManager FPM;
  FPM.addPass(DFAJumpThreadingPass());
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(createFunctionToLoopPassAdaptor(GroupLoopFullUnrollPass()));
  FPM.addPass(InstCombinePass());
  FPM.addPass(SimplifyCFGPass());
  return FPM.run(F, FAM);
}

} // namespace weft::compiler
