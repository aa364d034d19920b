// Streaming stores: launches that write more than the caches hold.
//
// A plain store to a line not in the cache first reads the line from memory
// (the read for ownership), and the written line later goes back: a kernel
// that writes a large array moves each output byte twice, and pushes out
// of the caches the inputs it has yet to read. A non-temporal store (x86
// `movntps`, AArch64 `stnp`) goes to memory through write-combining
// buffers, without that read. On the Zen 4 machine of docs/benchmarks.md a
// native copy of 64 MiB arrays moves 48-50 GB/s with them against 32-36
// without (STREAM's count).
//
// A launch gets them when the runtime sees that its work-items write more
// than the last-level cache holds (Kernel::snapshot, from
// KernelDesc::GlobalStoreBytes): it asks for a copy of the work-group
// function compiled with rt::Specialization::Streaming and the facts that
// make its vector stores provably aligned. Then
//
//   - specializeStreamingStores marks the function, gives the loads of the
//     arguments the launch passes aligned `!align 64`, and masks the loads
//     of the enqueued local size and the global offset along x with
//     -ItemAlign, which the runtime guarantees changes nothing: a group's
//     first global id along x is then known to be a multiple of ItemAlign;
//
//       before: %C = load ptr addrspace(1), ptr %arg1.slot, align 1
//               %els = load i64, ptr %els.addr              ; ctx field
//       after:  %C = load ptr addrspace(1), ptr %arg1.slot, align 1, !align !{i64 64}
//               %els.raw = load i64, ptr %els.addr
//               %els = and i64 %els.raw, -16
//
//   - O3 vectorizes the x loop as usual, and its alignment inference
//     (InstCombine) proves `store <16 x float> ..., align 64` for the
//     vector stores at base + 4 x (group start + lane);
//   - StreamingStorePass, last, makes each store to __global memory of a
//     whole vector of at least 16 bytes whose address is known aligned to
//     its size non-temporal, and puts a store fence before the function's
//     returns: the group's writes are then visible when the device marks
//     it done, like any other's.
//
// Limits. Only stores the vectorizer made whole and whose address is an
// argument plus a multiple of the vector's size; a scalar store, a
// masked one, or one through a pointer loaded from memory stays as it was
// (a non-temporal store the hardware cannot do aligned would be split into
// pieces, slower than a plain one). An index with a run-time row pitch
// (`C[y * w + x]`) has no known alignment, so 2-D kernels seldom gain.
// The decision is the launch's, not the store's: a kernel that writes one
// large array and one small one streams both.
#pragma once

#include <llvm/IR/PassManager.h>

#include <cstdint>

namespace llvm {
class Function;
} // namespace llvm

namespace weft::compiler {

/// Prepares WG (a work-group function of a module about to be optimized)
/// for a launch with streaming stores: the loads of argument i's value
/// where bit i of AlignedArgs is set get `!align PointerAlign`; the loads
/// of the context's EnqueuedLocalSize and GlobalOffset along x are masked
/// with -ItemAlign (a power of two both are multiples of); the function
/// gets StreamingStorePass::Attr. Returns the number of loads changed.
unsigned specializeStreamingStores(llvm::Function &WG, uint64_t ItemAlign, uint64_t AlignedArgs,
                                   uint64_t PointerAlign);

/// Run last: in functions marked Attr, stores to __global memory of whole
/// vectors of at least MinBytes whose address is known aligned to their
/// size become non-temporal, and a store fence precedes every return of a
/// function that has one.
class StreamingStorePass : public llvm::PassInfoMixin<StreamingStorePass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

  static constexpr const char *Attr = "weft-streaming-stores";
  static constexpr uint64_t MinBytes = 16;
};

} // namespace weft::compiler
