/* The collective scratch of a work-group (WorkGroupContext::CollectiveScratch,
 * KernelAbi.h): the one contract between the runtime, which gives each
 * worker the bytes (collectiveScratchBytes), the compiler, whose sub-group
 * turns say which work-items run (WorkGroupLoopPass), and the collective
 * built-ins (src/builtins/Collectives.cl, SubGroups.cl). Plain macros, so
 * that C++ and OpenCL C read the same file.
 *
 * For a group of Items work-items and sub-groups of N:
 *
 *   [work-group slots: (Items + 1) x 8 bytes, rounded up to 128]
 *   [sub-group 0: WEFT_SUB_GROUP_AREA(N) bytes]
 *   [sub-group 1 ...]
 *
 * and a sub-group's area is
 *
 *   [WEFT_SUB_GROUP_ACTIVE: ulong, bit i set when the sub-group's work-item
 *    i runs the current turn; the rest of the first 128 bytes unused]
 *   [slots: (N + 1) x 128 bytes, at WEFT_SUB_GROUP_SLOTS]
 *
 * 128 bytes a slot hold any OpenCL C type (long16), aligned, so a value of
 * every type can be gathered one a work-item (and one more for a result).
 */
#ifndef WEFT_RUNTIME_COLLECTIVE_SCRATCH_H
#define WEFT_RUNTIME_COLLECTIVE_SCRATCH_H

#define WEFT_COLLECTIVE_SLOT 8
#define WEFT_SUB_GROUP_SLOT 128

/* Where the first sub-group's area starts. */
#define WEFT_SUB_GROUPS_AT(Items) (((Items) + 1) * WEFT_COLLECTIVE_SLOT + 127) / 128 * 128
/* The bytes of one sub-group's area. */
#define WEFT_SUB_GROUP_AREA(N) (((N) + 2) * WEFT_SUB_GROUP_SLOT)
#define WEFT_SUB_GROUP_ACTIVE 0
#define WEFT_SUB_GROUP_SLOTS WEFT_SUB_GROUP_SLOT

/* The bytes the scratch of a group of Items work-items needs with any
 * sub-group size N from 1 to 64: ceil(Items / N) areas of N + 2 slots,
 * which is at most Items + 63 + 2 * Items slots. */
#define WEFT_COLLECTIVE_SCRATCH_BYTES(Items)                                                        \
  (WEFT_SUB_GROUPS_AT(Items) + (3 * (Items) + 64) * WEFT_SUB_GROUP_SLOT)

#endif
