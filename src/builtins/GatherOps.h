// The reduce, scans and votes of a set of work-items that gather their
// values in scratch memory, written once for the work-group collectives
// (Collectives.cl) and the sub-group ones (SubGroups.cl). The including
// file defines
//   GATHER(T, x, BODY)  declares s, the scratch as T, and l, the caller's
//                       place in the set; stores each work-item's x at
//                       s[l]; runs BODY on the set's first work-item
//                       alone; and leaves every work-item able to read s;
//   FIRST               the place of the set's first work-item;
//   RESULT              a place of s no work-item of the set has;
//   FOR_ALL(i)          a for-head visiting the places of the set's
//                       work-items in order (i = FIRST, ...), and
//   FOR_REST(i)         the same without FIRST.
// Results are combined in that order, so float and double results do not
// depend on how the work-items were scheduled.
#pragma once

#define ADD(a, b) ((a) + (b))
#define MUL(a, b) ((a) * (b))
#define MIN(a, b) ((b) < (a) ? (b) : (a))
#define MAX(a, b) ((b) > (a) ? (b) : (a))
#define AND(a, b) ((a) & (b))
#define OR(a, b) ((a) | (b))
#define XOR(a, b) ((a) ^ (b))

/// What a work-item contributes: its value, or for the logical operations
/// whether it is non-zero.
#define AS_IS(x) (x)
#define AS_BOOL(x) ((x) != 0)

/// PREFIX_reduce_NAME, PREFIX_scan_inclusive_NAME and
/// PREFIX_scan_exclusive_NAME on T, combining IN(x) with OP from IDENTITY.
#define GATHER_OPS_OF(PREFIX, T, NAME, OP, IDENTITY, IN)                                           \
  OVL T PREFIX##_reduce_##NAME(T x) {                                                              \
    GATHER(T, IN(x), {                                                                             \
      T r = s[FIRST];                                                                              \
      FOR_REST(i) r = OP(r, s[i]);                                                                 \
      s[RESULT] = r;                                                                               \
    })                                                                                             \
    return s[RESULT];                                                                              \
  }                                                                                                \
  OVL T PREFIX##_scan_inclusive_##NAME(T x) {                                                      \
    GATHER(T, IN(x), {                                                                             \
      T acc = s[FIRST];                                                                            \
      FOR_REST(i) s[i] = acc = OP(acc, s[i]);                                                      \
    })                                                                                             \
    return s[l];                                                                                   \
  }                                                                                                \
  OVL T PREFIX##_scan_exclusive_##NAME(T x) {                                                      \
    GATHER(T, IN(x), {                                                                             \
      T acc = IDENTITY;                                                                            \
      FOR_ALL(i) {                                                                                 \
        T v = s[i];                                                                                \
        s[i] = acc;                                                                                \
        acc = OP(acc, v);                                                                          \
      }                                                                                            \
    })                                                                                             \
    return s[l];                                                                                   \
  }
#define GATHER_OPS(PREFIX, T, NAME, OP, IDENTITY) GATHER_OPS_OF(PREFIX, T, NAME, OP, IDENTITY, AS_IS)

/// The reduce and scans of add, min and max on T.
#define GATHER_ARITHMETIC(PREFIX, T, MIN_VALUE, MAX_VALUE)                                         \
  GATHER_OPS(PREFIX, T, add, ADD, (T)0)                                                            \
  GATHER_OPS(PREFIX, T, min, MIN, MAX_VALUE)                                                       \
  GATHER_OPS(PREFIX, T, max, MAX, MIN_VALUE)

/// GATHER_ARITHMETIC on every type the work-group collectives take.
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
      FOR_ALL(i) r &= s[i];                                                                        \
      s[RESULT] = r;                                                                               \
    })                                                                                             \
    return s[RESULT];                                                                              \
  }                                                                                                \
  OVL int PREFIX##_any(int predicate) {                                                            \
    GATHER(int, predicate != 0, {                                                                  \
      int r = 0;                                                                                   \
      FOR_ALL(i) r |= s[i];                                                                        \
      s[RESULT] = r;                                                                               \
    })                                                                                             \
    return s[RESULT];                                                                              \
  }
