// VectorTypeScalarizerPass: lets the loop vectorizer pack the work-items of
// a kernel written with vector types (float4, double2) into SIMD lanes.
//
// LLVM's loop vectorizer leaves a loop alone when its body computes on
// vector types, so a float4 kernel ran four lanes wide however wide the
// host's registers (16 floats with AVX-512). Split into scalars (LLVM's
// Scalarizer, loads and stores included), the work-item loop vectorizes
// like a scalar kernel's, the float4 accesses becoming interleaved groups.
//
// Only where that pays (measured in docs/compiler.md): every loop that
// computes on vectors must be an innermost loop that runs each of its loads
// and stores on every iteration, on vectors of at most 128 bits and 4
// lanes. Branches that only choose values (an if in the kernel, or the
// branches of an inlined builtin such as cbrt) the vectorizer turns into
// selects; a load or store under a condition it would predicate lane by
// lane, several times slower than the four-lane code (a bounds check on the
// global id is no such condition: BoundsCheckVersioningPass, run first,
// gives the loop a copy without it, and the edge loop that keeps it, run
// only by the groups at the edge of the range, does not count here); a
// vector computation inside an inner loop would make that loop, not the
// work-items, the one vectorized; wider vectors (float8, double8, float16)
// make interleaved groups too wide for the vectorizer's cost model, which
// then leaves the loop scalar; and vectors of more lanes (uchar16, short8)
// make groups it takes 64 work-items at a time, shuffles of 1 KiB that take
// seconds to build and run several times slower than the vectors whole.
// The exception is a work-item loop whose body is a long dependent chain on
// vectors (ChainInterleavePass::interleaveFor): a float8 kernel's
// `v = v * a + b` kept whole is one chain in one register, which waits on
// every multiply-add's latency; split, it is eight chains, and vectorized
// across work-items eight vector chains, whatever the shuffles of its loads
// and stores cost. Such a loop is split however wide its vectors, and its
// vectorization forced (llvm.loop.vectorize.enable), past the cost model;
// the gathers and interleaved groups its loads and stores become are
// loads and stores of whole registers again after the vectorizer
// (ComponentTransposePass).
// Other functions keep their vectors, which the SLP vectorizer uses as
// before; the builtins on vectors of 8 lanes or more, and the math builtins
// on a float4, loop over their lanes, a loop the loop vectorizer widens
// (BuiltinMacros.h). A function the pass splits has those lane loops of at
// most MaxLanes iterations unrolled first, so that its work-item loop is
// innermost again; their accesses to their own stack arrays, which SROA
// then makes registers, do not count as memory.
#pragma once

#include <llvm/IR/PassManager.h>

#include <cstdint>

namespace weft::compiler {

class VectorTypeScalarizerPass : public llvm::PassInfoMixin<VectorTypeScalarizerPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

  /// Vectors wider than this stay whole.
  static constexpr uint64_t MaxVectorBits = 128;
  /// And so do vectors of more lanes than this.
  static constexpr unsigned MaxLanes = 4;
};

} // namespace weft::compiler
