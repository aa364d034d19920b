// StateThreadingPass: a work-group function's state loop becomes the
// kernel's own control flow between its regions, and a loop of barriers
// whose trip count is known is unrolled whole.
//
// WorkGroupLoopPass runs a kernel with barriers as a loop around a switch
// on the state, the barrier its work-items stopped at; each region's nest
// sets the next state. Once O3 has simplified the regions, the next state
// is a constant on each path out of a region, and the values the group
// keeps once (the uniform values, BarrierStatePass) are values of the
// state loop. Until now every region went back through the switch, and a
// loop of barriers stayed a trip around the state loop: a tree
// reduction's steps `for (k = get_local_size(0) / 2; k > 0; k >>= 1) {
// if (lid < k) s[lid] += s[lid + k]; barrier; }` ran as one region whose
// x loop took k at run time, with a vector loop, its overlap check and a
// scalar loop for the last four steps (k = 8, 4, 2, 1), even where the
// group's size is compiled in and every k is known.
//
// At the vectorizer's start, in the work-group function of a kernel with
// barriers:
//   1. LLVM's DFAJumpThreadingPass threads each path that reaches the
//      switch with a known state straight to that state's region, so the
//      regions follow each other as the kernel's code does and a loop of
//      barriers is a loop of its own;
//   2. SimplifyCFG, then LLVM's full unroller, with O3's size limits, on
//      the loops that contain x loops and on x loops themselves (never on
//      a loop of rows, RowInterleavePass's, nor on a loop inside a
//      work-item, which O3's unroller saw already; an x loop held for the
//      vectorizer stays held): a loop of barriers whose trip count
//      ScalarEvolution computes (with the group's size compiled in, the
//      tree's k = 128 ... 1) becomes one copy per trip, each with its own
//      constant k, and the x loops of the last steps (k = 8, 4, 2, 1
//      work-items) are unrolled whole, for the SLP vectorizer;
//   3. InstCombine and SimplifyCFG fold what the copies' constants decide.
//
//   Before (local size 256):                After:
//     state.loop: switch %state               s[0..127] += s[128..255]   ; 8 x <16 x i32>
//       1: region k = 128                     s[0..63] += s[64..127]     ; 4 x <16 x i32>
//       2: %k = phi [128, 1], [%k2, 2]        ...
//          %k2 = lshr %k, 1                   s[0..7] += s[8..15]        ; <8 x i32>
//          x loop over [0, %k2) ...           s[0..3] ... s[0] += s[1]
//          next state: %k2 > 1 ? 2 : 3        Partial[g] = s[0]
//
// Limits. LLVM 15's DFAJumpThreading is off by default in LLVM, and runs
// here only on work-group functions with barriers (a user's own switch in
// such a kernel's loop may be threaded too). A loop of barriers of a trip
// count known only at run time keeps its loop; one that unrolled whole
// would pass O3's size limit stays a loop too (a tiled product's tile
// loop). WEFT_NO_STATE_THREADING=1 turns the pass off, to measure it.
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class StateThreadingPass : public llvm::PassInfoMixin<StateThreadingPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

} // namespace weft::compiler
