// Work-group functions compiled for one local size.
//
// A launch whose work-groups all have the same size (the global size a
// multiple of the local size in every dimension) can run a copy of the
// kernel's work-group function compiled with that size a constant
// (JitExecutable::specialize). The loads of the work-group context's
// LocalSize and EnqueuedLocalSize fields become the launch's values: the
// work-item loops get constant trip counts, an x loop as wide as a vector
// disappears into straight-line vector code, the frame offsets fold, and
// the run-time overlap checks between frame columns fold with them. In a
// group with rows the x loops are held from O3's full unroller until the
// vectorizer's start (WorkGroupLoopPass::holdWorkItemLoops), so that the
// vectorizer takes them and not the row loop.
//
//   before: %ls0 = load i64, ptr %ls0.addr, !range !1   ; Ctx->LocalSize[0]
//           %more = icmp ult i64 %x.next, %ls0
//   after:  %more = icmp ult i64 %x.next, 16
//
// Limits. Only loads at a constant offset from the context pointer are
// replaced: the context argument of the work-group function, and the
// parameters of internal functions every call of which passes such a
// pointer. A load with a dimension known only at run time
// (get_local_size(d)) still reads the context, which holds the same value.
#pragma once

#include <llvm/ADT/SmallVector.h>

#include <array>
#include <cstdint>
#include <utility>

namespace llvm {
class Function;
class LoadInst;
} // namespace llvm

namespace weft::compiler {

/// The 64-bit loads, in WG and the internal functions it passes its
/// context to, of the context's field at byte offset Field (three
/// dimensions, WorkGroupContextLayout.h), each with its dimension.
llvm::SmallVector<std::pair<llvm::LoadInst *, int>, 16> contextFieldLoads(llvm::Function &WG,
                                                                          uint64_t Field);

/// Replaces, in WG and the internal functions it passes its context to,
/// every load of the context's LocalSize or EnqueuedLocalSize field at a
/// constant dimension with Size's value for it. WG's module must hold no
/// other work-group function that passes its context to the same internal
/// functions (JitExecutable::specialize deletes the others first). Returns
/// the number of loads replaced.
unsigned specializeLocalSize(llvm::Function &WG, const std::array<uint64_t, 3> &Size);

/// For a launch of groups of Size whose global sizes are at most Limit and
/// whose global offsets are below it (rt::Specialization::SmallIds): the
/// loads of the context's GroupId, NumGroups, GlobalSize and GlobalOffset
/// fields (found as specializeLocalSize finds its loads) get `!range`
/// metadata saying so. A global id is then below 2 x Limit, and
/// ScalarEvolution shows that `int col = get_global_id(0)` does not wrap
/// across a group (IndexWideningPass). Returns the number of loads bounded.
unsigned boundGlobalIds(llvm::Function &WG, const std::array<uint64_t, 3> &Size, uint64_t Limit);

} // namespace weft::compiler
