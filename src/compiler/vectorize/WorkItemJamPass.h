// WorkItemJamPass: the data-dependent loops of several work-items run side
// by side.
//
// A work-item loop whose work-items each run a loop of their own with a
// data-dependent exit (walking a list, `while (node)`; iterating a point
// until it escapes, `while (i < max && x*x + y*y < 4)`) is not vectorized:
// the loop vectorizer takes only innermost loops, and the inner loop's trip
// count differs between work-items. Each work-item then runs its loop to
// the end before the next starts, and a walk through memory has one miss
// in flight at a time (svm.pointer_chase: about one node per DRAM latency
// on each core), an arithmetic chain one operation in flight.
//
// This pass runs K work-items at a time (unroll and jam, with each
// work-item's inner loop predicated on its own exit):
//
//   before:                              after:
//   for x in 0..n:                       for x in 0..n-K+1 step K:
//     pre(x)                               pre(x), ..., pre(x+K-1)
//     while (c(x)) body(x)                 while (any active):
//     post(x)                                if (active0) { body(x);   active0 = c(x) }
//                                            ...
//                                            if (activeK-1) { body(x+K-1); ... }
//                                          post(x), ..., post(x+K-1)
//                                        for the rest: as before
//
// A round of the jammed loop runs one iteration of every work-item still
// active, so K independent chains (K misses, K multiply-adds) are in flight
// where there was one. Reordering the work-items' operations is what
// OpenCL allows without a barrier, and the transformation only runs where
// nothing else could see the order: no atomic, fence, volatile access,
// call that may write memory, or access to private memory (a work-item's
// alloca is one slot the work-items take in turn).
//
// Shape taken: a work-item loop (wi::WorkItemLoopMD) with its induction as
// its only header phi, one exit at its latch, and exactly one inner loop L,
// innermost, with a preheader and one exit block, whose backedge-taken
// count ScalarEvolution cannot compute. The blocks of the work-item loop
// split into pre (before L) and post (after L's exit, up to the latch);
// pre may bypass L to one block of post (the `if (c)` a rotated `while`
// starts with). K is 8 for a body of at most SmallBody instructions, else
// 4; none for a body over MaxBody, or a work-item loop over MaxCopied.
//
// Limits: one inner loop per work-item loop, no other loop around it in
// the work-item loop; a loop of uniform trip count (`for (k < n)`) is left
// to the column and vectorizer paths; the jammed code is scalar (the lanes
// are not used).
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class WorkItemJamPass : public llvm::PassInfoMixin<WorkItemJamPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

  static constexpr unsigned SmallBody = 24;   ///< instructions of L for K = 8
  static constexpr unsigned MaxBody = 96;     ///< instructions of L
  static constexpr unsigned MaxCopied = 1200; ///< instructions of the loop x K
};

} // namespace weft::compiler
