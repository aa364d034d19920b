// The kernels of SubGroupExtensionsTest.cpp: the cl_khr_subgroup_*
// extensions, run twice, as OpenCL C source (built with -cl-std=CL3.0) and
// as SPIR-V (clang-15 -cl-std=CL2.0, llvm-spirv-15: OpGroupNonUniform*
// instructions). Work-items whose take[g] is 0 skip the non-uniform
// functions or call others in the other branch, so each side of a branch
// sees its own active work-items.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_subgroups : enable

/// The highest active work-item's id.
uint last_active(void) { return sub_group_ballot_find_msb(sub_group_ballot(1)); }

// Non-uniform arithmetic, broadcasts, all_equal and a clustered reduce on
// T, 12 results per work-item; and for integers the bitwise operations, 3
// more.
#define NON_UNIFORM_BODY(T)                                                                        \
  size_t g = get_global_linear_id();                                                               \
  T x = in[g];                                                                                     \
  global T *o = out + g * 15;                                                                      \
  if (take[g]) {                                                                                   \
    o[0] = sub_group_non_uniform_reduce_add(x);                                                    \
    o[1] = sub_group_non_uniform_reduce_mul(x);                                                    \
    o[2] = sub_group_non_uniform_reduce_min(x);                                                    \
    o[3] = sub_group_non_uniform_reduce_max(x);                                                    \
    o[4] = sub_group_non_uniform_scan_inclusive_add(x);                                            \
    o[5] = sub_group_non_uniform_scan_inclusive_max(x);                                            \
    o[6] = sub_group_non_uniform_scan_exclusive_mul(x);                                            \
    o[7] = sub_group_non_uniform_scan_exclusive_min(x);                                            \
    o[8] = sub_group_broadcast_first(x);                                                           \
    o[9] = sub_group_non_uniform_all_equal(x);                                                     \
    o[10] = sub_group_non_uniform_broadcast(x, last_active());                                     \
    o[11] = sub_group_clustered_reduce_add(x, 4);                                                  \
  } else {                                                                                         \
    o[0] = sub_group_non_uniform_reduce_max(x);                                                    \
  }
#define NON_UNIFORM(T)                                                                             \
  kernel void non_uniform_##T(global const T *in, global const int *take, global T *out) {         \
    NON_UNIFORM_BODY(T)                                                                            \
  }
#define NON_UNIFORM_INTEGER(T)                                                                     \
  kernel void non_uniform_##T(global const T *in, global const int *take, global T *out) {         \
    NON_UNIFORM_BODY(T)                                                                            \
    if (take[g]) {                                                                                 \
      o[12] = sub_group_non_uniform_reduce_and(x);                                                 \
      o[13] = sub_group_non_uniform_scan_inclusive_or(x);                                          \
      o[14] = sub_group_non_uniform_scan_exclusive_xor(x);                                         \
    }                                                                                              \
  }
NON_UNIFORM_INTEGER(char)
NON_UNIFORM_INTEGER(uchar)
NON_UNIFORM_INTEGER(short)
NON_UNIFORM_INTEGER(ushort)
NON_UNIFORM_INTEGER(int)
NON_UNIFORM_INTEGER(uint)
NON_UNIFORM_INTEGER(long)
NON_UNIFORM_INTEGER(ulong)
NON_UNIFORM(float)
NON_UNIFORM(double)

// Votes, ballots and the logical operations of the active work-items, 12
// results per work-item.
kernel void votes(global const int *pred, global const int *take, global uint *out) {
  size_t g = get_global_linear_id();
  int p = pred[g];
  global uint *o = out + g * 12;
  if (take[g]) {
    o[0] = sub_group_elect();
    o[1] = sub_group_non_uniform_all(p) != 0;
    o[2] = sub_group_non_uniform_any(p) != 0;
    uint4 b = sub_group_ballot(p);
    o[3] = b.x;
    o[4] = b.y;
    o[5] = b.z | b.w;
    o[6] = sub_group_non_uniform_reduce_logical_and(p);
    o[7] = sub_group_non_uniform_scan_inclusive_logical_or(p);
    o[8] = sub_group_non_uniform_scan_exclusive_logical_xor(p);
    o[9] = sub_group_ballot_bit_count(b);
    o[10] = sub_group_ballot_inclusive_scan(b);
    o[11] = sub_group_ballot_exclusive_scan(b);
  } else {
    o[0] = sub_group_elect();
  }
}

// The ballot functions of a given value, 14 results per work-item.
kernel void ballot_bits(global const uint4 *in, global uint *out) {
  size_t g = get_global_linear_id();
  uint4 v = in[g];
  global uint *o = out + g * 14;
  o[0] = sub_group_inverse_ballot(v);
  o[1] = sub_group_ballot_bit_extract(v, (uint)(g * 37 % 128));
  o[2] = sub_group_ballot_find_lsb(v);
  o[3] = sub_group_ballot_find_msb(v);
  uint4 m[5] = {get_sub_group_eq_mask(), get_sub_group_ge_mask(), get_sub_group_gt_mask(),
                get_sub_group_le_mask(), get_sub_group_lt_mask()};
  for (int i = 0; i < 5; ++i) {
    o[4 + 2 * i] = m[i].x;
    o[5 + 2 * i] = m[i].y | m[i].z | m[i].w;
  }
}

// Shuffles of T by arg[g], 4 results per work-item.
#define SHUFFLES(T)                                                                                \
  kernel void shuffles_##T(global const T *in, global const uint *arg, global T *out) {            \
    size_t g = get_global_linear_id();                                                             \
    T x = in[g];                                                                                   \
    uint a = arg[g];                                                                               \
    global T *o = out + g * 4;                                                                     \
    o[0] = sub_group_shuffle(x, a);                                                                \
    o[1] = sub_group_shuffle_xor(x, a);                                                            \
    o[2] = sub_group_shuffle_up(x, a);                                                             \
    o[3] = sub_group_shuffle_down(x, a);                                                           \
  }
SHUFFLES(char)
SHUFFLES(ushort)
SHUFFLES(int)
SHUFFLES(ulong)
SHUFFLES(float)
SHUFFLES(double)

// Clustered reduce on the active work-items: clusters of 1, 2 and 4 (every
// sub-group size is a multiple of 4).
kernel void clustered(global const int *in, global const int *take, global int *out) {
  size_t g = get_global_linear_id();
  int x = in[g];
  global int *o = out + g * 6;
  if (take[g]) {
    o[0] = sub_group_clustered_reduce_add(x, 1);
    o[1] = sub_group_clustered_reduce_min(x, 2);
    o[2] = sub_group_clustered_reduce_xor(x, 4);
    o[3] = sub_group_clustered_reduce_mul(x, 4);
    o[4] = sub_group_clustered_reduce_logical_or(x, 2);
    o[5] = sub_group_clustered_reduce_max(x, 4);
  }
}

// Broadcasts of vectors (extended_types; ballot's non-uniform form).
#define BROADCAST_VECTOR(T)                                                                        \
  kernel void broadcast_##T(global const T *in, global const int *take, global T *out) {           \
    size_t g = get_global_linear_id();                                                             \
    T x = in[g];                                                                                   \
    out[2 * g] = sub_group_broadcast(x, get_sub_group_size() - 1);                                 \
    if (take[g])                                                                                   \
      out[2 * g + 1] = sub_group_non_uniform_broadcast(x, last_active());                          \
  }
BROADCAST_VECTOR(char16)
BROADCAST_VECTOR(ushort3)
BROADCAST_VECTOR(int4)
BROADCAST_VECTOR(ulong8)
BROADCAST_VECTOR(float2)
BROADCAST_VECTOR(double16)

// Rotates by a delta the same in each sub-group, 2 results per work-item.
#define ROTATES(T)                                                                                 \
  kernel void rotates_##T(global const T *in, global T *out) {                                     \
    size_t g = get_global_linear_id();                                                             \
    T x = in[g];                                                                                   \
    int d = (int)(get_sub_group_id() % 5) - 1;                                                     \
    out[2 * g] = sub_group_rotate(x, d);                                                           \
    out[2 * g + 1] = sub_group_clustered_rotate(x, d, 4);                                          \
  }
ROTATES(uchar)
ROTATES(long)
ROTATES(float)

// A required sub-group size of each size the device offers
// (cl_intel_required_subgroup_size; SPIR-V's SubgroupSize execution mode):
// 4 results per work-item.
#define REQUIRED(N)                                                                                \
  __attribute__((intel_reqd_sub_group_size(N))) kernel void required_##N(global const int *in,     \
                                                                         global int *out) {        \
    size_t g = get_global_linear_id();                                                             \
    int x = in[g];                                                                                 \
    global int *o = out + g * 4;                                                                   \
    o[0] = get_max_sub_group_size();                                                               \
    o[1] = get_sub_group_local_id();                                                               \
    o[2] = sub_group_reduce_add(x);                                                                \
    o[3] = sub_group_shuffle_xor(x, 1u);                                                           \
  }
REQUIRED(4)
REQUIRED(8)
REQUIRED(16)
REQUIRED(32)
REQUIRED(64)
