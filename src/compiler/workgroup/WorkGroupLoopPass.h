// WorkGroupLoopPass: emits the work-group function __weft_wg_K, which runs
// every work-item of a work-group by calling the work-item function in a
// z/y/x loop nest (and around it a state loop for barriers).
#pragma once

#include <llvm/IR/PassManager.h>

namespace llvm {
class LoadInst;
} // namespace llvm

namespace weft::compiler {

class WorkGroupLoopPass : public llvm::PassInfoMixin<WorkGroupLoopPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);

  /// The load of argument Index's value in the entry block of WG, a
  /// work-group function as this pass emits it (`load (load args[Index])`),
  /// or null: where later passes find what the kernel got for an argument
  /// (ImageDescriptorPass, specializeStreamingStores, ArgumentSpecialization).
  /// A pointer for a memory object, the value itself for a by-value scalar.
  static llvm::LoadInst *argumentValue(llvm::Function &WG, unsigned Index);

  /// Holds the x loops of WG (wi::WorkItemLoopMD) from the unroller with
  /// llvm.loop.unroll.disable, until ReleaseWorkItemLoopsPass lifts it at
  /// the vectorizer's start: for a group with rows, whose x loop a constant
  /// local size makes one of a few iterations (specializeLocalSize).
  static void holdWorkItemLoops(llvm::Function &WG);
};

/// Lifts the hold of WorkGroupLoopPass::holdWorkItemLoops (an x loop with
/// llvm.loop.unroll.disable) so that the unroller after the vectorizers
/// may take the x loops: run at the vectorizer's start. Until then O3's
/// full unroller leaves them whole, for the loop vectorizer to take across
/// the work-items.
class ReleaseWorkItemLoopsPass : public llvm::PassInfoMixin<ReleaseWorkItemLoopsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

} // namespace weft::compiler
