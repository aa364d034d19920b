// The OpenCL C 2.0/3.0 atomic functions (OpenCL C 6.15.12) for every order
// and scope (CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES reports them all): the
// `_explicit` forms with an order and a scope, with an order alone (device
// scope) and the forms with neither (sequentially consistent, device
// scope), atomic_init, the atomic_flag functions and atomic_work_item_fence.
// Compiled twice as OpenCL C 3.0: without the generic address space (the
// overloads on __global and __local objects, with the expected value of a
// compare-exchange in any named space, that programs without generic
// pointers call) and with it (the generic overloads).
//
// The SPIR target declares no lock-free atomic width, so clang's C11 and
// __opencl_atomic builtins become library calls there; the __sync builtins
// become LLVM atomic instructions. Every operation is therefore sequentially
// consistent: at least as strong as any order a program may ask for.
#include "BuiltinMacros.h"

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

// A: the atomic type; C: its value type; B: the integer of the same size
// that carries the bits (C itself for integers).
#define AS_BITS(B, x) __builtin_astype((x), B)
#define ATOMIC_COMMON(A, C, B, AS)                                                                 \
  OVL void atomic_init(volatile AS A *p, C v) { *(volatile AS C *)p = v; }                         \
  OVL void atomic_store_explicit(volatile AS A *p, C v, memory_order o, memory_scope s) {          \
    __sync_lock_test_and_set((volatile AS B *)p, AS_BITS(B, v));                                   \
    __sync_synchronize();                                                                          \
  }                                                                                                \
  OVL C atomic_load_explicit(volatile AS A *p, memory_order o, memory_scope s) {                   \
    return AS_BITS(C, __sync_fetch_and_or((volatile AS B *)p, (B)0));                              \
  }                                                                                                \
  OVL C atomic_exchange_explicit(volatile AS A *p, C v, memory_order o, memory_scope s) {          \
    B Old = __sync_lock_test_and_set((volatile AS B *)p, AS_BITS(B, v));                           \
    __sync_synchronize();                                                                          \
    return AS_BITS(C, Old);                                                                        \
  }                                                                                                \
  OVL void atomic_store_explicit(volatile AS A *p, C v, memory_order o) {                          \
    atomic_store_explicit(p, v, o, memory_scope_device);                                           \
  }                                                                                                \
  OVL void atomic_store(volatile AS A *p, C v) {                                                   \
    atomic_store_explicit(p, v, memory_order_seq_cst, memory_scope_device);                        \
  }                                                                                                \
  OVL C atomic_load_explicit(volatile AS A *p, memory_order o) {                                   \
    return atomic_load_explicit(p, o, memory_scope_device);                                        \
  }                                                                                                \
  OVL C atomic_load(volatile AS A *p) {                                                            \
    return atomic_load_explicit(p, memory_order_seq_cst, memory_scope_device);                     \
  }                                                                                                \
  OVL C atomic_exchange_explicit(volatile AS A *p, C v, memory_order o) {                          \
    return atomic_exchange_explicit(p, v, o, memory_scope_device);                                 \
  }                                                                                                \
  OVL C atomic_exchange(volatile AS A *p, C v) {                                                   \
    return atomic_exchange_explicit(p, v, memory_order_seq_cst, memory_scope_device);              \
  }                                                                                                \
  ATOMIC_CAS_ANY(A, C, B, AS)

#ifdef __opencl_c_generic_address_space
#define ATOMIC_CAS_ANY(A, C, B, AS) ATOMIC_CAS(A, C, B, AS, )
#else
#define ATOMIC_CAS_ANY(A, C, B, AS)                                                                \
  ATOMIC_CAS(A, C, B, AS, __global)                                                                \
  ATOMIC_CAS(A, C, B, AS, __local)                                                                 \
  ATOMIC_CAS(A, C, B, AS, __private)
#endif

// The expected value may live in any named address space. The comparison
// is of the bits, as C11's is of the object representation.
#define ATOMIC_CAS(A, C, B, AS, EAS)                                                               \
  OVL bool atomic_compare_exchange_strong_explicit(volatile AS A *p, EAS C *e, C d,                \
                                                   memory_order s, memory_order f,                 \
                                                   memory_scope sc) {                              \
    B Want = AS_BITS(B, *e);                                                                       \
    B Seen = __sync_val_compare_and_swap((volatile AS B *)p, Want, AS_BITS(B, d));                 \
    if (Seen == Want)                                                                              \
      return true;                                                                                 \
    *e = AS_BITS(C, Seen);                                                                         \
    return false;                                                                                  \
  }                                                                                                \
  OVL bool atomic_compare_exchange_weak_explicit(volatile AS A *p, EAS C *e, C d, memory_order s,  \
                                                 memory_order f, memory_scope sc) {                \
    return atomic_compare_exchange_strong_explicit(p, e, d, s, f, sc);                             \
  }                                                                                                \
  ATOMIC_CAS_DEFAULTS(strong, A, C, AS, EAS)                                                       \
  ATOMIC_CAS_DEFAULTS(weak, A, C, AS, EAS)

// The forms without a scope (device scope) and without an order as well
// (sequentially consistent).
#define ATOMIC_CAS_DEFAULTS(KIND, A, C, AS, EAS)                                                   \
  OVL bool atomic_compare_exchange_##KIND##_explicit(volatile AS A *p, EAS C *e, C d,              \
                                                     memory_order s, memory_order f) {             \
    return atomic_compare_exchange_##KIND##_explicit(p, e, d, s, f, memory_scope_device);          \
  }                                                                                                \
  OVL bool atomic_compare_exchange_##KIND(volatile AS A *p, EAS C *e, C d) {                       \
    return atomic_compare_exchange_##KIND##_explicit(p, e, d, memory_order_seq_cst,                \
                                                     memory_order_seq_cst, memory_scope_device);   \
  }

#define ATOMIC_FETCH(A, C, M, AS, OP, IMPL)                                                        \
  OVL C atomic_fetch_##OP##_explicit(volatile AS A *p, M v, memory_order o, memory_scope s) {      \
    return IMPL((volatile AS C *)p, (C)v);                                                         \
  }                                                                                                \
  OVL C atomic_fetch_##OP##_explicit(volatile AS A *p, M v, memory_order o) {                      \
    return atomic_fetch_##OP##_explicit(p, v, o, memory_scope_device);                             \
  }                                                                                                \
  OVL C atomic_fetch_##OP(volatile AS A *p, M v) {                                                 \
    return atomic_fetch_##OP##_explicit(p, v, memory_order_seq_cst, memory_scope_device);          \
  }
#define ATOMIC_INTEGER(A, C, AS, MIN, MAX)                                                         \
  ATOMIC_COMMON(A, C, C, AS)                                                                       \
  ATOMIC_FETCH(A, C, C, AS, add, __sync_fetch_and_add)                                             \
  ATOMIC_FETCH(A, C, C, AS, sub, __sync_fetch_and_sub)                                             \
  ATOMIC_FETCH(A, C, C, AS, or, __sync_fetch_and_or)                                               \
  ATOMIC_FETCH(A, C, C, AS, xor, __sync_fetch_and_xor)                                             \
  ATOMIC_FETCH(A, C, C, AS, and, __sync_fetch_and_and)                                             \
  ATOMIC_FETCH(A, C, C, AS, min, MIN)                                                              \
  ATOMIC_FETCH(A, C, C, AS, max, MAX)

#define ATOMICS_IN(AS)                                                                             \
  CAS_MINMAX(long, AS)                                                                             \
  CAS_MINMAX(ulong, AS)                                                                            \
  ATOMIC_INTEGER(atomic_int, int, AS, __sync_fetch_and_min, __sync_fetch_and_max)                  \
  ATOMIC_INTEGER(atomic_uint, uint, AS, __sync_fetch_and_umin, __sync_fetch_and_umax)              \
  ATOMIC_INTEGER(atomic_long, long, AS, casMin, casMax)                                            \
  ATOMIC_INTEGER(atomic_ulong, ulong, AS, casMin, casMax)                                          \
  /* atomic_uintptr_t takes a ptrdiff_t operand for add and sub. */                                \
  ATOMIC_FETCH(atomic_ulong, ulong, long, AS, add, __sync_fetch_and_add)                           \
  ATOMIC_FETCH(atomic_ulong, ulong, long, AS, sub, __sync_fetch_and_sub)                           \
  ATOMIC_COMMON(atomic_float, float, int, AS)                                                      \
  ATOMIC_COMMON(atomic_double, double, long, AS)                                                   \
  OVL bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, memory_order o,           \
                                             memory_scope s) {                                     \
    int Old = __sync_lock_test_and_set((volatile AS int *)p, 1);                                   \
    __sync_synchronize();                                                                          \
    return Old != 0;                                                                               \
  }                                                                                                \
  OVL void atomic_flag_clear_explicit(volatile AS atomic_flag *p, memory_order o,                  \
                                      memory_scope s) {                                            \
    __sync_lock_test_and_set((volatile AS int *)p, 0);                                             \
    __sync_synchronize();                                                                          \
  }                                                                                                \
  OVL bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, memory_order o) {         \
    return atomic_flag_test_and_set_explicit(p, o, memory_scope_device);                           \
  }                                                                                                \
  OVL bool atomic_flag_test_and_set(volatile AS atomic_flag *p) {                                  \
    return atomic_flag_test_and_set_explicit(p, memory_order_seq_cst, memory_scope_device);        \
  }                                                                                                \
  OVL void atomic_flag_clear_explicit(volatile AS atomic_flag *p, memory_order o) {                \
    atomic_flag_clear_explicit(p, o, memory_scope_device);                                         \
  }                                                                                                \
  OVL void atomic_flag_clear(volatile AS atomic_flag *p) {                                         \
    atomic_flag_clear_explicit(p, memory_order_seq_cst, memory_scope_device);                      \
  }

#ifdef __opencl_c_generic_address_space
ATOMICS_IN()
#else
ATOMICS_IN(__global)
ATOMICS_IN(__local)

// Takes no pointer: defined once, in the named-address-space compile.
OVL void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order o, memory_scope s) {
  // The flags only narrow which memory the fence covers; on the host every
  // address space is one memory.
  if (o != memory_order_relaxed)
    __sync_synchronize();
}
#endif
