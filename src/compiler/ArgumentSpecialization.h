// Work-group functions compiled for the values of by-value arguments.
//
// Host code sets a size, a count or a stride once and launches the kernel
// again and again with it. Where the kernel branches or divides on such an
// argument, a copy of its work-group function compiled with the value a
// constant loses work every work-item repeats: a loop `for (i < PerItem)`
// of one iteration is no loop (and no column of partial sums across a
// barrier), `x % NumCounters` with 4 is a mask instead of a division, and
// a trip count the vectorizer knows needs no run-time checks.
//
//   before: %n = load i32, ptr %arg3.slot
//           %more = icmp ult i32 %i.next, %n
//   after:  %more = icmp ult i32 %i.next, 1
//
// The build marks the arguments worth it (KernelDesc::ConditionArgs,
// conditionArguments): loop bounds and divisors, in kernels without
// barriers (KernelPipeline says why). The runtime asks for a copy with their values once
// a launch repeats the previous launch's values (Kernel::snapshot, rt::Specialization::Arguments),
// at most MaxArgumentSets value sets a kernel; the copy is compiled at the third launch that asks,
// as a local size is (JitExecutable).
//
// Limits. Integer arguments of at most 64 bits only (not vectors, structs,
// floating point or samplers). An argument reaches the mark only through
// integer arithmetic, casts, phis, selects and min/max from its load to
// the condition of a loop's exit or a divisor; one that only guards a
// branch (`if (gid < n)`, which a constant would hardly speed up) or
// indexes memory is not marked, though a constant stride could help there.
#pragma once

#include <llvm/ADT/ArrayRef.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace llvm {
class Function;
} // namespace llvm

namespace weft::rt {
struct KernelArgDesc;
} // namespace weft::rt

namespace weft::compiler {

/// Bit i set if argument i (i < 64) of WG, a work-group function with
/// arguments Args, is a by-value integer of at most 64 bits whose value
/// reaches, through integer arithmetic, casts, phis, selects and min/max,
/// the comparison that decides a loop's exit or the divisor of a division
/// or remainder.
uint64_t conditionArguments(llvm::Function &WG, const std::vector<rt::KernelArgDesc> &Args);

/// Replaces the value of each argument (index, value zero-extended from its
/// bytes) in WG with the constant. Returns the number replaced.
unsigned specializeArguments(llvm::Function &WG,
                             llvm::ArrayRef<std::pair<uint32_t, uint64_t>> Values);

} // namespace weft::compiler
