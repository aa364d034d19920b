// versionLoop: a loop and a copy of it, chosen between before they start.
//
// Before:                 After:
//   ph:                     ph:
//     br %header              %c = <Condition, built here>
//   header: ...               br %c, %header.ph, %header<Suffix>.ph
//   exit: (phis)            header: ...                (L itself, where %c holds)
//                           header<Suffix>: ...        (the copy, where it does not)
//                           exit: (phis from both)
//
// The passes that specialize a work-item loop for a case decided at run
// time share it: BoundsCheckVersioningPass (checks that hold for the whole
// group) and ChainInterleavePass (a group wide enough to interleave).
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/IR/PassManager.h>

namespace llvm {
class AssumptionCache;
class Function;
class DominatorTree;
class Instruction;
class Loop;
class LoopInfo;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace weft::compiler {

/// Puts L into simplified and LCSSA form and, if it has a preheader, one
/// exiting block and one exit block, calls Condition with the preheader's
/// terminator as the place to compute the condition. If that gives a
/// condition, L runs where it holds and a copy of L (block names + Suffix),
/// which is returned, where it does not; both keep dedicated exits. Null if
/// nothing but L's form changed.
llvm::Loop *versionLoop(llvm::Loop &L, llvm::LoopInfo &LI, llvm::DominatorTree &DT,
                        llvm::ScalarEvolution &SE, llvm::AssumptionCache &AC,
                        llvm::StringRef Suffix,
                        llvm::function_ref<llvm::Value *(llvm::Instruction *At)> Condition);

/// Whether L is an innermost work-item loop (wi::WorkItemLoopMD), but for
/// the edge loops BoundsCheckVersioningPass keeps unvectorized: the loops
/// ActiveRangePass and ChainInterleavePass work on.
bool isWorkItemLoop(const llvm::Loop &L);

/// Offers each loop of F to Try once (a loop is known by its header), on
/// fresh analyses: when Try changes F (returns true), F's analyses are
/// invalidated and F's loops listed again. The loop passes that reshape
/// one work-item loop at a time share it (ActiveRangePass,
/// BoundsCheckVersioningPass). Returns whether any Try changed F.
bool tryEachLoopOnce(llvm::Function &F, llvm::FunctionAnalysisManager &FAM,
                     llvm::function_ref<bool(llvm::Loop &)> Try);

} // namespace weft::compiler
