// The reduce, scans and votes of a set of work-items that gather their
// values in scratch memory, written once for the work-group collectives
// (Collectives.cl) and the sub-group ones (SubGroups.cl). The including
// file defines GATHER(T, x, BODY): it declares s, the scratch as T, l, the
// caller's place in the set, and n, the set's size; stores each
// work-item's x at s[l]; runs BODY on the first work-item alone; and
// leaves every work-item able to read s. Results are combined in order
// (l = 0, 1, ...), so float and double results do not depend on how the
// work-items were scheduled.
#pragma once

#define ADD(a, b) ((a) + (b))
#define MIN(a, b) ((b) < (a) ? (b) : (a))
#define MAX(a, b) ((b) > (a) ? (b) : (a))

/// PREFIX_reduce_NAME, PREFIX_scan_inclusive_NAME and
/// PREFIX_scan_exclusive_NAME on T, combining with OP from IDENTITY.
#define GATHER_OPS(PREFIX, T, NAME, OP, IDENTITY)                                                  \
  OVL T PREFIX##_reduce_##NAME(T x) {                                                              \
    GATHER(T, x, {                                                                                 \
      T r = s[0];                                                                                  \
      for (size_t i = 1; i < n; ++i)                                                               \
        r = OP(r, s[i]);                                                                           \
      s[n] = r;                                                                                    \
    })                                                                                             \
    return s[n];                                                                                   \
  }                                                                                                \
  OVL T PREFIX##_scan_inclusive_##NAME(T x) {                                                      \
    GATHER(T, x, {                                                                                 \
      for (size_t i = 1; i < n; ++i)                                                               \
        s[i] = OP(s[i - 1], s[i]);                                                                 \
    })                                                                                             \
    return s[l];                                                                                   \
  }                                                                                                \
  OVL T PREFIX##_scan_exclusive_##NAME(T x) {                                                      \
    GATHER(T, x, {                                                                                 \
      T acc = IDENTITY;                                                                            \
      for (size_t i = 0; i < n; ++i) {                                                             \
        T v = s[i];                                                                                \
        s[i] = acc;                                                                                \
        acc = OP(acc, v);                                                                          \
      }                                                                                            \
    })                                                                                             \
    return s[l];                                                                                   \
  }

/// The reduce and scans of add, min and max on T.
#define GATHER_ARITHMETIC(PREFIX, T, MIN_VALUE, MAX_VALUE)                                         \
  GATHER_OPS(PREFIX, T, add, ADD, (T)0)                                                            \
  GATHER_OPS(PREFIX, T, min, MIN, MAX_VALUE)                                                       \
  GATHER_OPS(PREFIX, T, max, MAX, MIN_VALUE)

/// GATHER_ARITHMETIC on every type the collectives take.
#define GATHER_ARITHMETIC_ALL_TYPES(PREFIX)                                                        \
  GATHER_ARITHMETIC(PREFIX, int, INT_MIN, INT_MAX)                                                 \
  GATHER_ARITHMETIC(PREFIX, uint, 0u, UINT_MAX)                                                    \
  GATHER_ARITHMETIC(PREFIX, long, LONG_MIN, LONG_MAX)                                              \
  GATHER_ARITHMETIC(PREFIX, ulong, 0ul, ULONG_MAX)                                                 \
  GATHER_ARITHMETIC(PREFIX, float, -INFINITY, INFINITY)                                            \
  GATHER_ARITHMETIC(PREFIX, double, -(double)INFINITY, (double)INFINITY)

/// PREFIX_all and PREFIX_any: whether every (any) work-item's predicate is
/// non-zero.
#define GATHER_VOTES(PREFIX)                                                                       \
  OVL int PREFIX##_all(int predicate) {                                                            \
    GATHER(int, predicate != 0, {                                                                  \
      int r = 1;                                                                                   \
      for (size_t i = 0; i < n; ++i)                                                               \
        r &= s[i];                                                                                 \
      s[n] = r;                                                                                    \
    })                                                                                             \
    return s[n];                                                                                   \
  }                                                                                                \
  OVL int PREFIX##_any(int predicate) {                                                            \
    GATHER(int, predicate != 0, {                                                                  \
      int r = 0;                                                                                   \
      for (size_t i = 0; i < n; ++i)                                                               \
        r |= s[i];                                                                                 \
      s[n] = r;                                                                                    \
    })                                                                                             \
    return s[n];                                                                                   \
  }
