// AtomicLanePass: an atomic read-modify-write no longer keeps a work-item
// loop scalar, and the work-items of one vector that update one address do
// it with one atomic instruction.
//
// The loop vectorizer takes loads and stores only: an `atomicrmw` in an x
// loop (a histogram's `atomic_inc(&bins[v])`, a stream compaction's
// `out[atomic_inc(&n)] = x`, a counter) kept the whole loop scalar, and
// every work-item paid a locked instruction, all of them on one cache line
// when they share a counter. This pass, run on a work-group function just
// before the loop vectorizer, gives such an atomic to the vectorizer as a
// call with vector forms, runs the vectorizer, and then computes each
// vector form in place: the lanes that name one address are combined (the
// sum of their operands, their and, or, xor, minimum or maximum) and that
// address gets one atomic instruction of the original operation, order and
// scope. A lane whose result is used gets the value it would have read had
// the lanes of its address run one after another in lane order (the
// returned value, then each earlier lane's operand applied in turn).
//
// Why combining is allowed: the lanes are distinct work-items, which OpenCL
// lets run in any interleaving between barriers. One atomic instruction
// applying the combined operand is the interleaving in which those
// work-items' operations on the address are adjacent in its modification
// order, in lane order; each work-item's own operations stay in its
// program order, and each returned value is the one that interleaving
// gives. The .cpp has the shapes taken, a sketch and the limits.
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class AtomicLanePass : public llvm::PassInfoMixin<AtomicLanePass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

} // namespace weft::compiler
