// OpenCL 1.x atomics: atomic_* (32-bit, core) and atom_* (the cl_khr_*
// atomics extensions, 32- and 64-bit), plus float atomic_xchg. Compiled as
// part of PointerBuiltins.cl, once per address-space set (see there).
// Every operation is sequentially consistent.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define ATOMIC_RMW(NAME, T, AS, EXPR)                                                              \
  OVL T NAME(volatile AS T *p, T v) { return EXPR; }
#define ATOMIC_INT_OPS(PREFIX, T, AS, MIN, MAX)                                                    \
  ATOMIC_RMW(PREFIX##add, T, AS, __sync_fetch_and_add(p, v))                                       \
  ATOMIC_RMW(PREFIX##sub, T, AS, __sync_fetch_and_sub(p, v))                                       \
  ATOMIC_RMW(PREFIX##xchg, T, AS, __sync_lock_test_and_set(p, v))                                  \
  ATOMIC_RMW(PREFIX##min, T, AS, MIN(p, v))                                                        \
  ATOMIC_RMW(PREFIX##max, T, AS, MAX(p, v))                                                        \
  ATOMIC_RMW(PREFIX##and, T, AS, __sync_fetch_and_and(p, v))                                       \
  ATOMIC_RMW(PREFIX##or, T, AS, __sync_fetch_and_or(p, v))                                         \
  ATOMIC_RMW(PREFIX##xor, T, AS, __sync_fetch_and_xor(p, v))                                       \
  OVL T PREFIX##inc(volatile AS T *p) { return __sync_fetch_and_add(p, (T)1); }                    \
  OVL T PREFIX##dec(volatile AS T *p) { return __sync_fetch_and_sub(p, (T)1); }                    \
  OVL T PREFIX##cmpxchg(volatile AS T *p, T c, T v) { return __sync_val_compare_and_swap(p, c, v); }

#define ATOMICS_IN(AS)                                                                             \
  ATOMIC_INT_OPS(atomic_, int, AS, __sync_fetch_and_min, __sync_fetch_and_max)                     \
  ATOMIC_INT_OPS(atomic_, uint, AS, __sync_fetch_and_umin, __sync_fetch_and_umax)                  \
  OVL float atomic_xchg(volatile AS float *p, float v) {                                           \
    return as_float(__sync_lock_test_and_set((volatile AS int *)p, as_int(v)));                    \
  }
#define ATOM_EXT_IN(AS)                                                                            \
  CAS_MINMAX(long, AS)                                                                             \
  CAS_MINMAX(ulong, AS)                                                                            \
  ATOMIC_INT_OPS(atom_, int, AS, __sync_fetch_and_min, __sync_fetch_and_max)                       \
  ATOMIC_INT_OPS(atom_, uint, AS, __sync_fetch_and_umin, __sync_fetch_and_umax)                    \
  ATOMIC_INT_OPS(atom_, long, AS, casMin, casMax)                                                  \
  ATOMIC_INT_OPS(atom_, ulong, AS, casMin, casMax)

#if __OPENCL_C_VERSION__ >= 200
ATOMICS_IN()
#else
ATOMICS_IN(__global)
ATOMICS_IN(__local)
ATOM_EXT_IN(__global)
ATOM_EXT_IN(__local)
#endif
