// Sub-group functions (OpenCL C 6.15.x, cl_khr_subgroups and the OpenCL C
// 3.0 feature __opencl_c_subgroups) and the cl_khr_subgroup_* extensions:
// extended_types, non_uniform_vote, ballot, non_uniform_arithmetic,
// shuffle, shuffle_relative, clustered_reduce and rotate, on char, uchar,
// short, ushort, int, uint, long, ulong, float and double (and broadcasts
// of their vectors).
//
// The sub-groups of a work-group are its work-items in linear-id order,
// cut into runs of the kernel's sub-group size N (__weft_sub_group_width,
// a constant of the kernel: WorkItemBuiltinPass), the last one perhaps
// shorter. __weft_sub_group_sync is where every work-item of the caller's
// sub-group that is still running this stretch of the kernel has run the
// code before it: BarrierStatePass splits the kernel there as at a
// barrier, and WorkGroupLoopPass runs each sub-group through its syncs on
// its own, so the work-items of a sub-group run each stretch between two
// syncs side by side in one loop, in vector lanes. The work-items that
// took a turn together from one sync are the active ones: WorkGroupLoopPass
// writes their bits to the sub-group's area of the collective scratch
// (runtime/program/CollectiveScratch.h) before the turn, and active()
// reads them right after a sync. In a branch only some work-items take,
// they are those work-items; in uniform code, the whole sub-group.
//
// A collective gathers the active work-items' values in the sub-group's
// slots, and then either the first active work-item combines them in
// order and every work-item reads its result (reduce, scans, votes,
// ballot: GatherOps.h), or every work-item reads the slot it wants
// (broadcast, shuffles, rotates, clustered reduce). The sync before the
// stores keeps a collective from overwriting the slots while work-items
// still read the one before. The uniform functions are the non-uniform
// ones on a sub-group whose work-items are all active; called in divergent
// code (undefined by the specification) they act on the active ones.
//
// An index or a delta that leads outside the sub-group (undefined) reads
// the caller's own slot: no function reads outside the sub-group's area.
//
// All functions are inlined into the kernel before the barrier pass, like
// Collectives.cl's.
#include "BuiltinMacros.h"
#include "GatherOps.h"
#include "runtime/program/CollectiveScratch.h"

#pragma OPENCL EXTENSION cl_khr_subgroups : enable

__attribute__((const)) uint __weft_sub_group_width(void);
__attribute__((const)) __local uchar *__weft_sub_group_area(void);
void __weft_sub_group_sync(void);

static INL uint width(void) { return __weft_sub_group_width(); }

static INL uint linearId(void) { return (uint)get_local_linear_id(); }

static INL uint groupItems(void) {
  return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}

static INL uint enqueuedItems(void) {
  return (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) *
                get_enqueued_local_size(2));
}

// The work-item functions. A group smaller than the enqueued size (the
// last of a dimension) has fewer sub-groups, its last one perhaps shorter.
OVL uint get_sub_group_size(void) {
  const uint N = width(), First = linearId() / N * N;
  return min(N, groupItems() - First);
}
OVL uint get_max_sub_group_size(void) { return min(width(), enqueuedItems()); }
OVL uint get_num_sub_groups(void) { return (groupItems() + width() - 1) / width(); }
OVL uint get_enqueued_num_sub_groups(void) { return (enqueuedItems() + width() - 1) / width(); }
OVL uint get_sub_group_id(void) { return linearId() / width(); }
OVL uint get_sub_group_local_id(void) { return linearId() % width(); }

/// The caller's sub-group's area of the collective scratch: a primitive
/// (WorkItemBuiltinPass), which BarrierStatePass computes again after a
/// sync rather than keeping it in the work-item's frame.
static INL __local uchar *area(void) { return __weft_sub_group_area(); }

/// Its N + 1 slots of 128 bytes.
static INL __local ulong *slots(void) {
  return (__local ulong *)(area() + WEFT_SUB_GROUP_SLOTS);
}

/// The bits of the work-items that took this turn: read right after a sync.
static INL ulong active(void) {
  return *(__local ulong *)(area() + WEFT_SUB_GROUP_ACTIVE);
}

/// Index if it names a work-item of the sub-group, else the caller's own.
static INL uint within(ulong index) {
  return index < width() ? (uint)index : get_sub_group_local_id();
}

// The work-items of a sub-group run on one thread, one stretch between
// syncs after the other: at the sync every write before it is done.
OVL void sub_group_barrier(cl_mem_fence_flags flags) { __weft_sub_group_sync(); }
OVL void sub_group_barrier(cl_mem_fence_flags flags, memory_scope scope) {
  __weft_sub_group_sync();
}

/// s[l] = x for each active work-item l (M: their bits), then BODY runs on
/// the first of them alone (GatherOps.h); the result goes in s[N]. Only x
/// lives across a sync: the rest is read or computed again after each.
#define GATHER(T, x, BODY)                                                                         \
  __weft_sub_group_sync();                                                                         \
  ((__local T *)slots())[get_sub_group_local_id()] = x;                                            \
  __weft_sub_group_sync();                                                                         \
  {                                                                                                \
    __local T *s = (__local T *)slots();                                                           \
    ulong M = active();                                                                            \
    if (get_sub_group_local_id() == FIRST) {                                                       \
      BODY                                                                                         \
    }                                                                                              \
  }                                                                                                \
  __weft_sub_group_sync();                                                                         \
  __local T *s = (__local T *)slots();                                                             \
  uint l = get_sub_group_local_id();
#define FIRST ctz(M)
#define RESULT width()
#define FOR_BITS(i, Bits)                                                                          \
  for (ulong Rest_ = (Bits), i = ctz(Rest_); Rest_ != 0; Rest_ &= Rest_ - 1, i = ctz(Rest_))
#define FOR_ALL(i) FOR_BITS(i, M)
#define FOR_REST(i) FOR_BITS(i, M & (M - 1))

/// s[l] = x for each active work-item l, readable by every one of them
/// after the second sync (and until the next collective's first); M: their
/// bits.
#define EXCHANGE(T, x)                                                                             \
  __weft_sub_group_sync();                                                                         \
  ((__local T *)slots())[get_sub_group_local_id()] = x;                                            \
  __weft_sub_group_sync();                                                                         \
  __local T *s = (__local T *)slots();                                                             \
  uint l = get_sub_group_local_id();                                                               \
  ulong M = active();

/// Every type the sub-group functions take, and their vectors.
#define SCALAR_TYPES(X)                                                                            \
  X(char) X(uchar) X(short) X(ushort) X(int) X(uint) X(long) X(ulong) X(float) X(double)
#define INTEGER_TYPES(X) X(char) X(uchar) X(short) X(ushort) X(int) X(uint) X(long) X(ulong)
#define WITH_VECTORS(X, T) X(T) X(T##2) X(T##3) X(T##4) X(T##8) X(T##16)
#define VECTOR_TYPES(X)                                                                            \
  WITH_VECTORS(X, char)                                                                            \
  WITH_VECTORS(X, uchar)                                                                           \
  WITH_VECTORS(X, short)                                                                           \
  WITH_VECTORS(X, ushort)                                                                          \
  WITH_VECTORS(X, int)                                                                             \
  WITH_VECTORS(X, uint)                                                                            \
  WITH_VECTORS(X, long)                                                                            \
  WITH_VECTORS(X, ulong)                                                                           \
  WITH_VECTORS(X, float)                                                                           \
  WITH_VECTORS(X, double)

// Broadcasts: x of the work-item with the given id, which must be active
// (cl_khr_subgroups; the other types: extended_types; non_uniform: ballot).
#define BROADCASTS(T)                                                                              \
  OVL T sub_group_broadcast(T x, uint sub_group_local_id) {                                        \
    __local T *s = (__local T *)slots();                                                           \
    __weft_sub_group_sync();                                                                       \
    if (get_sub_group_local_id() == sub_group_local_id)                                            \
      *s = x;                                                                                      \
    __weft_sub_group_sync();                                                                       \
    return *s;                                                                                     \
  }                                                                                                \
  OVL T sub_group_non_uniform_broadcast(T x, uint sub_group_local_id) {                            \
    return sub_group_broadcast(x, sub_group_local_id);                                             \
  }
VECTOR_TYPES(BROADCASTS)

/// x of the first active work-item (ballot).
#define BROADCAST_FIRST(T)                                                                         \
  OVL T sub_group_broadcast_first(T x) {                                                           \
    __local T *s = (__local T *)slots();                                                           \
    __weft_sub_group_sync();                                                                       \
    if (get_sub_group_local_id() == ctz(active()))                                                 \
      *s = x;                                                                                      \
    __weft_sub_group_sync();                                                                       \
    return *s;                                                                                     \
  }
SCALAR_TYPES(BROADCAST_FIRST)

// Reduce and scans: add, min and max on every type (cl_khr_subgroups,
// extended_types), and the non-uniform ones (non_uniform_arithmetic) with
// mul, the bitwise operations on integers and the logical ones on int.
#define SUB_GROUP_ARITHMETIC(T, MIN_VALUE, MAX_VALUE)                                              \
  GATHER_ARITHMETIC(sub_group, T, MIN_VALUE, MAX_VALUE)                                            \
  GATHER_ARITHMETIC(sub_group_non_uniform, T, MIN_VALUE, MAX_VALUE)                                \
  GATHER_OPS(sub_group_non_uniform, T, mul, MUL, (T)1)
SUB_GROUP_ARITHMETIC(char, CHAR_MIN, CHAR_MAX)
SUB_GROUP_ARITHMETIC(uchar, (uchar)0, UCHAR_MAX)
SUB_GROUP_ARITHMETIC(short, SHRT_MIN, SHRT_MAX)
SUB_GROUP_ARITHMETIC(ushort, (ushort)0, USHRT_MAX)
SUB_GROUP_ARITHMETIC(int, INT_MIN, INT_MAX)
SUB_GROUP_ARITHMETIC(uint, 0u, UINT_MAX)
SUB_GROUP_ARITHMETIC(long, LONG_MIN, LONG_MAX)
SUB_GROUP_ARITHMETIC(ulong, 0ul, ULONG_MAX)
SUB_GROUP_ARITHMETIC(float, -INFINITY, INFINITY)
SUB_GROUP_ARITHMETIC(double, -(double)INFINITY, (double)INFINITY)

#define SUB_GROUP_BITWISE(T)                                                                       \
  GATHER_OPS(sub_group_non_uniform, T, and, AND, (T) ~(T)0)                                        \
  GATHER_OPS(sub_group_non_uniform, T, or, OR, (T)0)                                               \
  GATHER_OPS(sub_group_non_uniform, T, xor, XOR, (T)0)
INTEGER_TYPES(SUB_GROUP_BITWISE)
GATHER_OPS_OF(sub_group_non_uniform, int, logical_and, AND, 1, AS_BOOL)
GATHER_OPS_OF(sub_group_non_uniform, int, logical_or, OR, 0, AS_BOOL)
GATHER_OPS_OF(sub_group_non_uniform, int, logical_xor, XOR, 0, AS_BOOL)

// Votes (cl_khr_subgroups; non_uniform_vote).
GATHER_VOTES(sub_group)
GATHER_VOTES(sub_group_non_uniform)

OVL int sub_group_elect(void) {
  __weft_sub_group_sync();
  return get_sub_group_local_id() == ctz(active());
}

#define ALL_EQUAL(T)                                                                               \
  OVL int sub_group_non_uniform_all_equal(T x) {                                                   \
    GATHER(T, x, {                                                                                 \
      int r = 1;                                                                                   \
      FOR_REST(i) r &= s[i] == s[FIRST];                                                           \
      s[RESULT] = (T)r;                                                                            \
    })                                                                                             \
    return s[RESULT] != (T)0;                                                                      \
  }
SCALAR_TYPES(ALL_EQUAL)

// Ballots (ballot). A ballot's bits are the sub-group's work-items, at
// most 64 of the 128: x and y of the uint4. The counts and searches look
// at the bits of the work-items a sub-group of this group may have
// (get_max_sub_group_size()).
static INL uint4 asBallot(ulong Bits) { return (uint4)((uint)Bits, (uint)(Bits >> 32), 0u, 0u); }
static INL ulong bitsOf(uint4 value) { return (ulong)value.x | (ulong)value.y << 32; }
/// The bits below work-item Id (Id < 64).
static INL ulong below(uint Id) { return (1ul << Id) - 1; }
/// The bits of work-item Id and those below it.
static INL ulong atOrBelow(uint Id) { return below(Id) << 1 | 1; }
/// The bits of the work-items a sub-group may have.
static INL ulong memberBits(void) {
  uint Max = get_max_sub_group_size();
  return Max >= 64 ? ~0ul : below(Max);
}

OVL uint4 sub_group_ballot(int predicate) {
  GATHER(ulong, predicate != 0, {
    ulong Bits = 0;
    FOR_ALL(i) Bits |= s[i] << i;
    s[RESULT] = Bits;
  })
  return asBallot(s[RESULT]);
}
OVL int sub_group_inverse_ballot(uint4 value) {
  return (bitsOf(value) >> get_sub_group_local_id()) & 1;
}
OVL int sub_group_ballot_bit_extract(uint4 value, uint index) {
  uint Bit = index & 127, Word = Bit < 32 ? value.x : Bit < 64 ? value.y : Bit < 96 ? value.z : value.w;
  return (Word >> (Bit & 31)) & 1;
}
OVL uint sub_group_ballot_bit_count(uint4 value) {
  return popcount(bitsOf(value) & memberBits());
}
OVL uint sub_group_ballot_inclusive_scan(uint4 value) {
  return popcount(bitsOf(value) & atOrBelow(get_sub_group_local_id()));
}
OVL uint sub_group_ballot_exclusive_scan(uint4 value) {
  return popcount(bitsOf(value) & below(get_sub_group_local_id()));
}
OVL uint sub_group_ballot_find_lsb(uint4 value) {
  return ctz(bitsOf(value) & memberBits());
}
OVL uint sub_group_ballot_find_msb(uint4 value) {
  return 63 - clz(bitsOf(value) & memberBits());
}
OVL uint4 get_sub_group_eq_mask(void) { return asBallot(1ul << get_sub_group_local_id()); }
OVL uint4 get_sub_group_ge_mask(void) {
  return asBallot(memberBits() & ~below(get_sub_group_local_id()));
}
OVL uint4 get_sub_group_gt_mask(void) {
  return asBallot(memberBits() & ~atOrBelow(get_sub_group_local_id()));
}
OVL uint4 get_sub_group_le_mask(void) {
  return asBallot(atOrBelow(get_sub_group_local_id()));
}
OVL uint4 get_sub_group_lt_mask(void) { return asBallot(below(get_sub_group_local_id())); }

// Shuffles and rotates (shuffle, shuffle_relative, rotate). A rotate's
// index wraps at get_max_sub_group_size(), a clustered rotate's at the
// cluster's size (a power of two).
#define SHUFFLES(T)                                                                                \
  OVL T sub_group_shuffle(T x, uint index) {                                                       \
    EXCHANGE(T, x)                                                                                 \
    return s[within(index)];                                                                       \
  }                                                                                                \
  OVL T sub_group_shuffle_xor(T x, uint mask) {                                                    \
    EXCHANGE(T, x)                                                                                 \
    return s[within(l ^ mask)];                                                                    \
  }                                                                                                \
  OVL T sub_group_shuffle_up(T x, uint delta) {                                                    \
    EXCHANGE(T, x)                                                                                 \
    return s[within((ulong)l - delta)];                                                            \
  }                                                                                                \
  OVL T sub_group_shuffle_down(T x, uint delta) {                                                  \
    EXCHANGE(T, x)                                                                                 \
    return s[within((ulong)l + delta)];                                                            \
  }                                                                                                \
  OVL T sub_group_rotate(T x, int delta) {                                                         \
    EXCHANGE(T, x)                                                                                 \
    return s[within(((ulong)l + (uint)delta) % get_max_sub_group_size())];                         \
  }                                                                                                \
  OVL T sub_group_clustered_rotate(T x, int delta, uint clustersize) {                             \
    EXCHANGE(T, x)                                                                                 \
    uint Span = clustersize - 1;                                                                   \
    return s[within((l & ~Span) + ((l + (uint)delta) & Span))];                                    \
  }
SCALAR_TYPES(SHUFFLES)

// Clustered reduce (clustered_reduce): each work-item combines, in order,
// the values of the active work-items of its cluster, the clustersize
// (a power of two) work-items from a multiple of clustersize.
#define CLUSTERED_OF(T, NAME, OP, IN)                                                              \
  OVL T sub_group_clustered_reduce_##NAME(T x, uint clustersize) {                                 \
    EXCHANGE(T, IN(x))                                                                             \
    uint Size = clamp(clustersize, 1u, 64u);                                                       \
    ulong Cluster = M & (Size == 64 ? ~0ul : below(Size) << (l & ~(Size - 1)));                    \
    if (Cluster == 0)                                                                              \
      return s[l];                                                                                 \
    T r = s[ctz(Cluster)];                                                                         \
    FOR_BITS(i, Cluster & (Cluster - 1)) r = OP(r, s[i]);                                          \
    return r;                                                                                      \
  }
#define CLUSTERED(T, NAME, OP) CLUSTERED_OF(T, NAME, OP, AS_IS)
#define CLUSTERED_ARITHMETIC(T)                                                                    \
  CLUSTERED(T, add, ADD) CLUSTERED(T, mul, MUL) CLUSTERED(T, min, MIN) CLUSTERED(T, max, MAX)
#define CLUSTERED_BITWISE(T) CLUSTERED(T, and, AND) CLUSTERED(T, or, OR) CLUSTERED(T, xor, XOR)
SCALAR_TYPES(CLUSTERED_ARITHMETIC)
INTEGER_TYPES(CLUSTERED_BITWISE)
CLUSTERED_OF(int, logical_and, AND, AS_BOOL)
CLUSTERED_OF(int, logical_or, OR, AS_BOOL)
CLUSTERED_OF(int, logical_xor, XOR, AS_BOOL)

// For the sub-group forms of the pipe built-ins (Pipes.cl): V of the
// sub-group's first work-item, in every work-item; and a sub-group sync.
ulong __weft_sub_group_first(ulong V) { return sub_group_broadcast(V, 0u); }
uint __weft_sub_group_leader(void) { return get_sub_group_local_id() == 0; }
void __weft_sub_group_barrier(void) { __weft_sub_group_sync(); }
