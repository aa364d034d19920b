// GroupPrefetchPass: the global memory a barrier kernel reads, fetched a
// few groups ahead.
//
// A kernel with barriers reads its group's inputs in one region and works
// on them in the next: a tree reduction's `s[lid] = in[gid]; barrier;`
// then its steps over `s`. The steps depend on every load of the first
// region, and the work-group function runs regions one after the other,
// so the core's window fills with work waiting on those loads before the
// next group's loads issue: each group pays the memory's latency, and the
// hardware prefetcher does not make up for it. The textbook reduction
// (groups of 256 uints, 64 MiB) read 12-15 GB/s on two cores of the Zen 4
// machine of docs/benchmarks.md; with a prefetch in its source of the
// element 1 to 16 KiB ahead, 22-27. Into the second-level cache only: a
// prefetch into the first slowed a kernel reading 16 streams (reduce.sum,
// 25 to 19 GB/s), one into the second sped it up (32-42).
//
// Last in the pipeline (after the vectorizers and unrollers), in the
// work-group function of a kernel with barriers, each load from __global
// memory of a whole vector of at least MinBytes, and each copy of a
// constant length of at most MaxCopyBytes from __global memory (the loop
// idiom makes `s[lid] = in[gid]` one), whose address moves with every
// group id the function loads (a stream: no other group reads it again),
// gets a prefetch of the same address plus Distance bytes, one per cache
// line:
//
//   before: %v = load <16 x i32>, ptr addrspace(1) %p, align 4
//   after:  %p.ahead = getelementptr i8, ptr addrspace(1) %p, i64 4096
//           call void @llvm.prefetch.p1(ptr addrspace(1) %p.ahead, i32 0, i32 2, i32 1)
//           %v = load <16 x i32>, ptr addrspace(1) %p, align 4
//
// A prefetch is a hint: it never faults, past the end of a buffer either,
// and changes no value. Groups run in order on each core, a group's data
// follows its predecessor's in the common layout (a group of 256 uints is
// 1 KiB), so Distance lands a few groups ahead.
//
// An address that moves with some group ids only (a matrix product's
// strip of B columns moves with the x group id, not y) is read again by
// the groups along the others, from the caches: there the prefetches cost
// `sgemm.*` 5-10 % on one core, and such loads get none.
//
// Limits. Scalar loads (an x loop the vectorizer left scalar) get none:
// one per element would be sixteen per line. The group ids an address
// moves with are found through arithmetic only: an index loaded from
// memory hides them, and such a load gets none. A kernel that loads no
// group id (only local ids) gets none. Barrier-free kernels get none:
// their loads do not wait on a region boundary, and the prefetcher keeps
// up (`stream.*` reach 86-91 % of the native limit).
#pragma once

#include <llvm/IR/PassManager.h>

#include <cstdint>

namespace weft::compiler {

class GroupPrefetchPass : public llvm::PassInfoMixin<GroupPrefetchPass> {
public:
  /// Bytes ahead of each load that its prefetch asks for.
  static constexpr int64_t Distance = 4096;
  /// LLVM's locality of the prefetch: 2, into the second-level cache
  /// (x86 `prefetcht1`), not the first, which a kernel reading several
  /// streams (a work-item summing 16 elements a global size apart) would
  /// overflow with lines it needs only groups later.
  static constexpr int Locality = 2;
  /// The smallest vector load that gets a prefetch.
  static constexpr uint64_t MinBytes = 32;
  /// The longest copy that gets one prefetch per line.
  static constexpr uint64_t MaxCopyBytes = 4096;
  static constexpr uint64_t LineBytes = 64;

  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);
};

} // namespace weft::compiler
