// RowInterleavePass: the rows of a work-group whose body is one long chain
// of dependent floating-point operations run several at a time, their
// chains interleaved instruction by instruction, so that the FMA units have
// independent work every cycle.
//
// When a work-group's width is fixed at the launch (JitExecutable's
// specialization) and fills whole vector registers, the loop vectorizer
// turns the x loop of a region into straight-line vector code, and the y
// loop around it, whose iterations are rows of work-items, is what is left.
// A tiled SGEMM's inner product is then, per row, one chain of 16
// multiply-adds on that row's accumulator (the B tile's rows held in
// registers): every multiply-add waits four cycles for the one before, and
// the core, whose scheduler holds a few rows' chains at most, keeps its two
// FMA units a third busy. ChainInterleavePass cannot help: the chain is in
// the y loop, not the x loop, and LLVM's unroller puts copies of a body one
// after another, not side by side (it even reused one register for the
// four accumulators of a row loop unrolled by 4).
//
// Between two barriers OpenCL leaves the order of a group's work-items
// free: a work-item that reads what another writes in the same region
// without an atomic races. So the rows' instructions may be interleaved.
//
// Before (trip count T, a multiple of U):   After (U = 2):
//   y.loop:                                   y.loop:
//     %y = phi [0, %ph], [%y.next, %y.loop]     %y = phi [0, %ph], [%y.step, %y.loop]
//     %a = load ... row %y                      %y.r1 = add nuw nsw i64 %y, 1
//     %c1 = fmuladd(%a, %b1, %acc)              %a = load ... row %y
//     %c2 = fmuladd(%a, %b2, %c1)               %a.r1 = load ... row %y.r1
//     store %c2, ... row %y                     %c1 = fmuladd(%a, %b1, %acc)
//     %y.next = add %y, 1                       %c1.r1 = fmuladd(%a.r1, %b1, %acc.r1)
//     br (%y.next == T), %exit, %y.loop         %c2 = ...       %c2.r1 = ...
//                                               store %c2 ...   store %c2.r1 ...
//                                               %y.step = add nuw nsw i64 %y, 2
//                                               br (%y.step == T), %exit, %y.loop
//
// U: the chains ChainInterleavePass asks of a work-item loop (its
// interleaveFor, from the body's longest chain and its floating-point
// operations), at most what the vector registers hold beside the loop's
// invariant operands (each row keeps its chains and one temporary live), a
// power of two dividing the trip count.
//
// Limits: the loop must be a row loop (wi::WorkItemRowsMD), innermost, of
// one block, its trip count a constant, its only phi its counter from 0 by
// 1, and no value of it used after it. Its memory accesses must be simple
// loads and stores of memory the work-items do not keep on the stack (a
// private array of an unpromoted alloca is shared by the rows one after
// another), and its calls must not touch memory: an atomic, a fence, a
// masked access or a call of unknown effect leaves the loop as it is, as
// does a declaration of noalias scopes (the copies would need scopes of
// their own).
#pragma once

#include <llvm/IR/PassManager.h>

namespace llvm {
class Loop;
class LoopInfo;
class ScalarEvolution;
class TargetTransformInfo;
} // namespace llvm

namespace weft::compiler {

class RowInterleavePass : public llvm::PassInfoMixin<RowInterleavePass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

  /// The rows L's body is run for at once, or 0 if L is not taken.
  static unsigned rowsFor(llvm::Loop &L, llvm::LoopInfo &LI, llvm::ScalarEvolution &SE,
                          const llvm::TargetTransformInfo &TTI);

  /// The loop attribute of a row loop this pass interleaved (its count).
  static constexpr const char *InterleavedMD = "weft.rows.interleaved";
};

} // namespace weft::compiler
