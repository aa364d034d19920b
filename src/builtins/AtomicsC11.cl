// The OpenCL C 2.0/3.0 atomic functions (OpenCL C 6.15.12) for every order
// and scope (CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES reports them all): the
// `_explicit` forms with an order and a scope, with an order alone (device
// scope) and the forms with neither (sequentially consistent, device
// scope), atomic_init, the atomic_flag functions and atomic_work_item_fence,
// on generic pointers and on __global and __local ones (what programs that
// name the address space call; the expected value of a compare-exchange
// then lives in any named space).
//
// Each is one of Clang's __opencl_atomic builtins. The SPIR target declares
// no lock-free width, so Clang emits those as calls of its atomic library
// interface (__opencl_atomic_fetch_add_4 and so on, with the order and the
// scope as arguments); the compiler's AtomicPass turns each into the LLVM
// atomic instruction of the order the kernel passed, once this function is
// inlined into it.
#include "BuiltinMacros.h"

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define SEQ memory_order_seq_cst
#define DEV memory_scope_device

// A: the atomic type; C: its value type; AS: the object's address space.
#define ATOMIC_COMMON(A, C, AS)                                                                    \
  OVL void atomic_init(volatile AS A *p, C v) { __opencl_atomic_init(p, v); }                      \
  OVL void atomic_store_explicit(volatile AS A *p, C v, memory_order o, memory_scope s) {          \
    __opencl_atomic_store(p, v, o, s);                                                             \
  }                                                                                                \
  OVL void atomic_store_explicit(volatile AS A *p, C v, memory_order o) {                          \
    __opencl_atomic_store(p, v, o, DEV);                                                           \
  }                                                                                                \
  OVL void atomic_store(volatile AS A *p, C v) { __opencl_atomic_store(p, v, SEQ, DEV); }          \
  OVL C atomic_load_explicit(volatile AS A *p, memory_order o, memory_scope s) {                   \
    return __opencl_atomic_load(p, o, s);                                                          \
  }                                                                                                \
  OVL C atomic_load_explicit(volatile AS A *p, memory_order o) {                                   \
    return __opencl_atomic_load(p, o, DEV);                                                        \
  }                                                                                                \
  OVL C atomic_load(volatile AS A *p) { return __opencl_atomic_load(p, SEQ, DEV); }                \
  OVL C atomic_exchange_explicit(volatile AS A *p, C v, memory_order o, memory_scope s) {          \
    return __opencl_atomic_exchange(p, v, o, s);                                                   \
  }                                                                                                \
  OVL C atomic_exchange_explicit(volatile AS A *p, C v, memory_order o) {                          \
    return __opencl_atomic_exchange(p, v, o, DEV);                                                 \
  }                                                                                                \
  OVL C atomic_exchange(volatile AS A *p, C v) { return __opencl_atomic_exchange(p, v, SEQ, DEV); }

// Weak may fail spuriously, strong may not; the strong one serves for both.
#define ATOMIC_CAS(KIND, A, C, AS, EAS)                                                            \
  OVL bool atomic_compare_exchange_##KIND##_explicit(volatile AS A *p, EAS C *e, C d,              \
                                                     memory_order s, memory_order f,               \
                                                     memory_scope sc) {                            \
    return __opencl_atomic_compare_exchange_strong(p, e, d, s, f, sc);                             \
  }                                                                                                \
  OVL bool atomic_compare_exchange_##KIND##_explicit(volatile AS A *p, EAS C *e, C d,              \
                                                     memory_order s, memory_order f) {             \
    return __opencl_atomic_compare_exchange_strong(p, e, d, s, f, DEV);                            \
  }                                                                                                \
  OVL bool atomic_compare_exchange_##KIND(volatile AS A *p, EAS C *e, C d) {                       \
    return __opencl_atomic_compare_exchange_strong(p, e, d, SEQ, SEQ, DEV);                        \
  }
#define ATOMIC_CAS_IN(A, C, AS, EAS)                                                               \
  ATOMIC_CAS(strong, A, C, AS, EAS)                                                                \
  ATOMIC_CAS(weak, A, C, AS, EAS)

// M: the operand type (ptrdiff_t for add and sub on atomic_uintptr_t).
#define ATOMIC_FETCH(A, C, M, AS, OP)                                                              \
  OVL C atomic_fetch_##OP##_explicit(volatile AS A *p, M v, memory_order o, memory_scope s) {      \
    return __opencl_atomic_fetch_##OP(p, (C)v, o, s);                                              \
  }                                                                                                \
  OVL C atomic_fetch_##OP##_explicit(volatile AS A *p, M v, memory_order o) {                      \
    return __opencl_atomic_fetch_##OP(p, (C)v, o, DEV);                                            \
  }                                                                                                \
  OVL C atomic_fetch_##OP(volatile AS A *p, M v) {                                                 \
    return __opencl_atomic_fetch_##OP(p, (C)v, SEQ, DEV);                                          \
  }
#define ATOMIC_INTEGER(A, C, AS)                                                                   \
  ATOMIC_FETCH(A, C, C, AS, add)                                                                   \
  ATOMIC_FETCH(A, C, C, AS, sub)                                                                   \
  ATOMIC_FETCH(A, C, C, AS, or)                                                                    \
  ATOMIC_FETCH(A, C, C, AS, xor)                                                                   \
  ATOMIC_FETCH(A, C, C, AS, and)                                                                   \
  ATOMIC_FETCH(A, C, C, AS, min)                                                                   \
  ATOMIC_FETCH(A, C, C, AS, max)

// atomic_flag is an atomic int: set is an exchange with 1, clear a store of 0.
#define ATOMIC_FLAG(AS)                                                                            \
  OVL bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, memory_order o,           \
                                             memory_scope s) {                                     \
    return __opencl_atomic_exchange(p, 1, o, s) != 0;                                              \
  }                                                                                                \
  OVL bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, memory_order o) {         \
    return __opencl_atomic_exchange(p, 1, o, DEV) != 0;                                            \
  }                                                                                                \
  OVL bool atomic_flag_test_and_set(volatile AS atomic_flag *p) {                                  \
    return __opencl_atomic_exchange(p, 1, SEQ, DEV) != 0;                                          \
  }                                                                                                \
  OVL void atomic_flag_clear_explicit(volatile AS atomic_flag *p, memory_order o,                  \
                                      memory_scope s) {                                            \
    __opencl_atomic_store(p, 0, o, s);                                                             \
  }                                                                                                \
  OVL void atomic_flag_clear_explicit(volatile AS atomic_flag *p, memory_order o) {                \
    __opencl_atomic_store(p, 0, o, DEV);                                                           \
  }                                                                                                \
  OVL void atomic_flag_clear(volatile AS atomic_flag *p) { __opencl_atomic_store(p, 0, SEQ, DEV); }

#define ATOMIC_TYPE(A, C, AS)                                                                      \
  ATOMIC_COMMON(A, C, AS)                                                                          \
  ATOMIC_CAS_ANY(A, C, AS)

#define ATOMICS_IN(AS)                                                                             \
  ATOMIC_TYPE(atomic_int, int, AS)                                                                 \
  ATOMIC_TYPE(atomic_uint, uint, AS)                                                               \
  ATOMIC_TYPE(atomic_long, long, AS)                                                               \
  ATOMIC_TYPE(atomic_ulong, ulong, AS)                                                             \
  ATOMIC_TYPE(atomic_float, float, AS)                                                             \
  ATOMIC_TYPE(atomic_double, double, AS)                                                           \
  ATOMIC_INTEGER(atomic_int, int, AS)                                                              \
  ATOMIC_INTEGER(atomic_uint, uint, AS)                                                            \
  ATOMIC_INTEGER(atomic_long, long, AS)                                                            \
  ATOMIC_INTEGER(atomic_ulong, ulong, AS)                                                          \
  ATOMIC_FETCH(atomic_ulong, ulong, long, AS, add)                                                 \
  ATOMIC_FETCH(atomic_ulong, ulong, long, AS, sub)                                                 \
  ATOMIC_FLAG(AS)

// Generic objects take a generic expected pointer; named ones any named one.
#define ATOMIC_CAS_ANY(A, C, AS) ATOMIC_CAS_IN(A, C, , )
ATOMICS_IN()
#undef ATOMIC_CAS_ANY
#define ATOMIC_CAS_ANY(A, C, AS)                                                                   \
  ATOMIC_CAS_IN(A, C, AS, __global)                                                                \
  ATOMIC_CAS_IN(A, C, AS, __local)                                                                 \
  ATOMIC_CAS_IN(A, C, AS, __private)
ATOMICS_IN(__global)
ATOMICS_IN(__local)

OVL void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order o, memory_scope s) {
  // The flags only narrow which memory the fence covers; on the host every
  // address space is one memory.
  if (o != memory_order_relaxed)
    __sync_synchronize();
}
