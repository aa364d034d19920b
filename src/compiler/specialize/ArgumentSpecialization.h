// Work-group functions compiled for the values of by-value arguments.
//
// Host code sets a size, a count or a stride once and launches the kernel
// again and again with it. Where the kernel branches or divides on such an
// argument, a copy of its work-group function compiled with the value a
// constant loses work every work-item repeats: a loop of a known count is
// unrolled whole or loses its run-time checks, and `x % NumCounters` with 4
// is a mask instead of a division.
//
//   before: %n = load i32, ptr %arg3.slot
//           %more = icmp ult i32 %k.next, %n
//   after:  %more = icmp ult i32 %k.next, 17
//
// The build marks the arguments worth it (KernelDesc::ConditionArgs,
// markConditionArguments): loop bounds and divisors, found in the
// work-item function before BarrierStatePass, so that a loop with a
// barrier in it counts. The runtime asks for a copy with their values
// once a launch repeats the previous launch's values (Kernel::snapshot,
// rt::Specialization::Arguments), at most MaxArgumentSets value sets a
// kernel; the copy is compiled at the third launch that asks, as a local
// size is (JitExecutable).
//
// Limits. Integer arguments of at most 64 bits only (not vectors, structs,
// floating point or samplers). An argument reaches the mark only through
// integer arithmetic, casts, phis, selects and min/max from its value to
// the condition of a loop's exit or a divisor; one that only guards a
// branch (`if (gid < n)`, which a constant would hardly speed up) or
// indexes memory is not marked, though a constant stride could help there.
// The constant comes after BarrierStatePass: a loop it ran across the
// work-items (a column) stays one, its trip count folded.
#pragma once

#include <llvm/ADT/ArrayRef.h>

#include <cstdint>
#include <utility>

namespace llvm {
class Function;
} // namespace llvm

namespace weft::compiler {

/// Marks WI, a work-item function before BarrierStatePass (its loops still
/// loops, whether or not a barrier is in them), with wi::ConditionArgsAttr:
/// bit i set if its argument i (i < 64) is an integer of at most 64 bits
/// whose value reaches, through integer arithmetic, casts, phis, selects
/// and min/max, the comparison that decides a loop's exit or the divisor
/// of a division or remainder.
void markConditionArguments(llvm::Function &WI);

/// The mark of WG's work-item function (KernelDesc::ConditionArgs).
uint64_t conditionArguments(const llvm::Function &WG);

/// Replaces the value of each argument (index, value zero-extended from its
/// bytes) in WG with the constant. Returns the number replaced.
unsigned specializeArguments(llvm::Function &WG,
                             llvm::ArrayRef<std::pair<uint32_t, uint64_t>> Values);

} // namespace weft::compiler
