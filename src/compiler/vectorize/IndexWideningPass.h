// IndexWideningPass: the `int` arithmetic that makes an index from a
// work-item's id is done in 64 bits, so that the loop vectorizer sees
// consecutive work-items make consecutive addresses without run-time
// checks.
//
// GPU code computes its indices in `int`: `A[row * n + t + lx]` with
// `int lx = get_local_id(0)`. The front end emits 32-bit arithmetic with
// `nsw` (signed overflow is undefined in OpenCL C, as in C) and a sign
// extension to 64 bits for the address. Across work-items, the index is
// `base + trunc(x)` for the work-item loop's counter x; to call the access
// consecutive, the vectorizer must know the 32-bit sum does not wrap
// between the first work-item of a vector and the last. ScalarEvolution
// takes `nsw` on an instruction only where it can show that poison there
// would be undefined behaviour, and LLVM's reassociation drops it anyway
// when it reorders the sum; so the vectorizer added a check per vector
// (two compares in a tiled SGEMM's tile load, every row of every tile) and
// a scalar copy of the loop for when it fails, whose counters and spills
// then weighed on the vector loop too.
//
// A sign extension of an `nsw` sum is the sum of the sign extensions, so
// before O3 (before reassociation) the pass pushes each sign extension in
// a work-item loop down through the `nsw` adds, subtracts, multiplies and
// shifts that vary with the work-item, to the values they start from:
//
//   Before (in the x loop):                 After:
//     %lx = trunc i64 %x to i32               %row.w = sext i32 %row to i64
//     %p = mul nsw i32 %row, %n               %n.w = sext i32 %n to i64
//     %i = add nsw i32 %p, %lx                %p.w = mul nsw i64 %row.w, %n.w
//     %i64 = sext i32 %i to i64               %i.w = add nsw i64 %p.w, %x
//                                             (uses of %i64 use %i.w)
//
// A truncation whose 64-bit value ScalarEvolution bounds to the 32-bit
// range (a local id: the local size is at most rt::MaxWorkGroupSize; a
// global id in a launch compiled for small ids, LocalSizeSpecialization.h)
// is replaced by that value. Before LICM, what the loop computes the same
// for every work-item is in the loop too and is widened the same way
// (LICM hoists it after).
//
// Limits: only sign extensions inside a work-item loop, and only through
// `nsw` operations; unsigned indices (`uint`, whose arithmetic wraps by
// definition) are left as they are.
#pragma once

#include <llvm/IR/PassManager.h>

namespace weft::compiler {

class IndexWideningPass : public llvm::PassInfoMixin<IndexWideningPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

} // namespace weft::compiler
