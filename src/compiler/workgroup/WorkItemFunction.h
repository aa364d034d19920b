// The work-item function: the shape every kernel takes between the
// work-group passes. For a kernel K(a0..an) WorkItemFunctionPass creates
//
//   i32 __weft_wi_K(a0..an, ptr Ctx, i64 Lx, i64 Ly, i64 Lz, i32 State, ptr Frame,
//                   ptr Uniform)
//
// which runs one work-item from the point State names (0: the start) until
// it returns: -1 when the work-item finished, k when it reached barrier k.
// Ctx is the WorkGroupContext, Lx/Ly/Lz the local id, Frame the group's
// frames (Ctx->PrivateMem; BarrierStatePass places each work-item's values
// in them), Uniform the group's copies of the values that cross a barrier
// and are the same in every work-item (BarrierStatePass; a stack buffer of
// the work-group function). The passes hand facts to each other as string
// attributes on this function (sizes in bytes), never through side tables.
#pragma once

#include <llvm/IR/Function.h>

#include <cstdint>

namespace weft::compiler::wi {

constexpr const char *Prefix = "__weft_wi_";
constexpr const char *WorkGroupPrefix = "__weft_wg_";
/// Attribute naming the kernel a work-item/work-group function came from.
constexpr const char *KernelAttr = "weft-kernel";
/// Loop attribute (llvm.loop metadata) of the loops over a work-group's x
/// axis (WorkGroupLoopPass), whose iterations are work-items.
constexpr const char *WorkItemLoopMD = "weft.work-item-loop";
/// Loop attribute of the loops over a work-group's y and z axes, whose
/// iterations are rows (and planes) of work-items (RowInterleavePass).
constexpr const char *WorkItemRowsMD = "weft.work-item-rows";
/// Loop attribute of the loop over a work-group's sub-groups, in a kernel
/// with sub-group syncs (WorkGroupLoopPass).
constexpr const char *SubGroupLoopMD = "weft.sub-group-loop";
constexpr const char *FrameSizeAttr = "weft-frame-size";
constexpr const char *LocalSizeAttr = "weft-local-size";
constexpr const char *PrivateSizeAttr = "weft-private-size";
/// Number of barriers of a work-item function (BarrierStatePass): the
/// states it resumes from are 0 (the start) to this number. Its work-group
/// function has it too (WorkGroupLoopPass), for the passes that work on
/// kernels with barriers (StateThreadingPass, GroupPrefetchPass).
constexpr const char *BarrierCountAttr = "weft-barriers";
/// The kernel's sub-group size: how many consecutive work-items, in
/// linear-id order, form a sub-group (the last of a group may have fewer).
/// Set on every work-item function before the work-group passes
/// (KernelPipeline), read by WorkItemBuiltinPass (__weft_sub_group_width)
/// and WorkGroupLoopPass; the work-group function has it too.
constexpr const char *SubGroupSizeAttr = "weft-sub-group-size";
/// The states of a work-item function that resume after a sub-group sync
/// (BarrierStatePass): a string with one character per state, '1' for
/// those, '0' for the start and the states after work-group barriers.
/// Absent on a function without sub-group syncs.
constexpr const char *SubGroupStatesAttr = "weft-sub-group-states";
/// On a work-item function some of whose sub-group syncs every work-item of
/// the group reaches alike, which BarrierStatePass made work-group barriers:
/// the regions after them run for whole sub-groups, which the work-group
/// function tells the sub-group built-ins (WorkGroupLoopPass).
constexpr const char *SubGroupBarriersAttr = "weft-sub-group-barriers";
/// Attribute of a function that calls printf (PrintfPass).
constexpr const char *PrintfAttr = "weft-printf";
/// On a work-item function that asks for its place in its group or its
/// group's shape (local id, group id, local or enqueued local size, number
/// of groups, local linear id) or for its group's memory (to_local,
/// get_fence, the collectives' scratch): set by WorkItemBuiltinPass.
constexpr const char *GroupShapeAttr = "weft-group-shape";
/// The kernel's arguments worth compiling in (ArgumentSpecialization.h):
/// bit i for argument i, a decimal number; absent when none is.
constexpr const char *ConditionArgsAttr = "weft-condition-args";
/// Attribute holding the number of the kernel's own arguments.
constexpr const char *NumArgsAttr = "weft-num-args";
/// Attribute set on arguments that were `byval` in the kernel.
constexpr const char *ByValAttr = "weft-byval";

/// Bytes of one copy of the values BarrierStatePass keeps once per group:
/// the work-group function gives the work-item function two copies, the
/// values as the current region began (at Uniform) and as its work-items
/// left it (at Uniform + this size), and copies the second over the first
/// between regions.
constexpr const char *UniformSizeAttr = "weft-uniform-size";

constexpr unsigned NumExtraArgs = 7;
enum ExtraArg : unsigned { Ctx = 0, Lx, Ly, Lz, State, Frame, Uniform };

inline bool isWorkItemFunction(const llvm::Function &F) { return F.hasFnAttribute(KernelAttr) && F.getName().startswith(Prefix); }

inline unsigned numKernelArgs(const llvm::Function &F) {
  return static_cast<unsigned>(F.arg_size() - NumExtraArgs);
}
inline llvm::Argument *extraArg(llvm::Function &F, ExtraArg A) {
  return F.getArg(numKernelArgs(F) + A);
}

inline uint64_t sizeAttr(const llvm::Function &F, const char *Name) {
  if (!F.hasFnAttribute(Name))
    return 0;
  uint64_t V = 0;
  F.getFnAttribute(Name).getValueAsString().getAsInteger(10, V);
  return V;
}
inline void setSizeAttr(llvm::Function &F, const char *Name, uint64_t V) {
  F.addFnAttr(Name, std::to_string(V));
}

/// F's sub-group size (SubGroupSizeAttr); 1 where it has none (a function
/// written by hand in a test).
inline uint64_t subGroupSize(const llvm::Function &F) {
  uint64_t N = sizeAttr(F, SubGroupSizeAttr);
  return N ? N : 1;
}

} // namespace weft::compiler::wi
