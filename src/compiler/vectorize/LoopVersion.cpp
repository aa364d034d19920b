// versionLoop (see the header).
#include "compiler/vectorize/LoopVersion.h"

#include "compiler/vectorize/BoundsCheckVersioningPass.h"
#include "compiler/workgroup/WorkItemFunction.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

using namespace llvm;

namespace weft::compiler {

Loop *versionLoop(Loop &L, LoopInfo &LI, DominatorTree &DT, ScalarEvolution &SE,
                  AssumptionCache &AC, StringRef Suffix,
                  function_ref<Value *(Instruction *At)> Condition) {
  simplifyLoop(&L, &DT, &LI, &SE, &AC, nullptr, /*PreserveLCSSA=*/false);
  formLCSSARecursively(L, DT, &LI, &SE);
  BasicBlock *Preheader = L.getLoopPreheader();
  BasicBlock *Exiting = L.getExitingBlock();
  BasicBlock *Exit = L.getExitBlock();
  if (!Preheader || !Exiting || !Exit)
    return nullptr;
  Value *Holds = Condition(Preheader->getTerminator());
  if (!Holds)
    return nullptr;

  BasicBlock *LoopPreheader = SplitBlock(Preheader, Preheader->getTerminator(), &DT, &LI, nullptr,
                                         L.getHeader()->getName() + ".ph");
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 16> CopyBlocks;
  Loop *Copy =
      cloneLoopWithPreheader(LoopPreheader, Preheader, &L, VMap, Suffix, &LI, &DT, CopyBlocks);
  remapInstructionsInBlocks(CopyBlocks, VMap);
  Instruction *OldBranch = Preheader->getTerminator();
  BranchInst::Create(LoopPreheader, Copy->getLoopPreheader(), Holds, OldBranch);
  OldBranch->eraseFromParent();
  DT.changeImmediateDominator(Exit, Preheader);
  for (PHINode &Phi : Exit->phis()) {
    Value *FromLoop = Phi.getIncomingValueForBlock(Exiting);
    Value *FromCopy = VMap.lookup(FromLoop);
    Phi.addIncoming(FromCopy ? FromCopy : FromLoop, cast<BasicBlock>(VMap[Exiting]));
  }
  formDedicatedExitBlocks(&L, &DT, &LI, nullptr, /*PreserveLCSSA=*/true);
  formDedicatedExitBlocks(Copy, &DT, &LI, nullptr, /*PreserveLCSSA=*/true);
  return Copy;
}

bool isWorkItemLoop(const Loop &L) {
  return L.isInnermost() && findOptionMDForLoop(&L, wi::WorkItemLoopMD) &&
         !BoundsCheckVersioningPass::isEdgeLoop(L);
}

bool tryEachLoopOnce(Function &F, FunctionAnalysisManager &FAM, function_ref<bool(Loop &)> Try) {
  bool Changed = false;
  SmallPtrSet<const BasicBlock *, 8> Tried;
  for (bool Round = true; Round;) {
    Round = false;
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
    for (Loop *L : LI.getLoopsInPreorder()) {
      if (!Tried.insert(L->getHeader()).second || !Try(*L))
        continue;
      Changed = Round = true;
      FAM.invalidate(F, PreservedAnalyses::none());
      break;
    }
  }
  return Changed;
}

} // namespace weft::compiler
